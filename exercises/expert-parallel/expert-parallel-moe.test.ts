import * as fc from "fast-check";
import { cpuOps, gaussian, groupBounds, moeLayer, mulberry32, type MoeLayer, type MoeOptions } from "../../lib/nn/index.js";
import { EpComm, expertParallelMoe as libExpertParallelMoe, trainExpertParallel } from "../../lib/expert-parallel/index.js";
import { defineExercise, fail, callSafely, property } from "../harness/index.js";
import type { expertParallelMoe, EpRank } from "./expert-parallel-moe.js";

type F = typeof expertParallelMoe;
const TOL = 1e-5;
const HINT = "see the section “Expert parallelism: two all-to-alls per layer”";
const reference: F = (group, ranks, xs, dys, o) => libExpertParallelMoe(group, ranks, xs, dys, o);

interface Case { P: number; L: number; k: number; N: number; h: number; seed: number; moe?: Partial<MoeOptions> }
const describe = (c: Case) => `P = ${c.P}, ${c.P * c.L} experts, k = ${c.k}, ${c.N} tokens, h = ${c.h}${c.moe?.capacityFactor ? `, capacity factor ${c.moe.capacityFactor}` : ""}${c.moe?.order ? `, ${c.moe.order}` : ""}`;

/** One device (moeLayer with numGroups = P) and fresh per-rank copies of the same weights. */
function setUp(c: Case) {
  const opts: MoeOptions = { numExperts: c.P * c.L, topK: c.k, expertHiddenDim: 3, auxLossCoeff: 0.1, zLossCoeff: 0.01, ...c.moe, numGroups: c.P };
  const rng = mulberry32(c.seed);
  const one = moeLayer("m", c.h, mulberry32(c.seed), opts);
  const x = Float32Array.from({ length: c.N * c.h }, () => gaussian(rng)), dy = Float32Array.from({ length: c.N * c.h }, () => gaussian(rng));
  const copies = () => Array.from({ length: c.P }, () => moeLayer("m", c.h, mulberry32(c.seed), opts));
  const ranksOf = (ms: MoeLayer[]): EpRank[] => ms.map((m, r) => ({ router: m.router, experts: m.experts.slice(r * c.L, (r + 1) * c.L), expertBias: m.expertBias }));
  const bounds = groupBounds(c.N, c.P);
  const split = (a: Float32Array) => bounds.map(([s, e]) => a.slice(s * c.h, e * c.h));
  return { one, x, dy, copies, ranksOf, bounds, split, options: { ...one.options, hiddenSize: c.h } };
}

async function runCase(f: F, c: Case) {
  const s = setUp(c);
  const fw = s.one.forward({ data: s.x, rows: c.N, cols: c.h }, cpuOps());
  const dx = s.one.backward(fw.saved, { data: s.dy, rows: c.N, cols: c.h }, cpuOps())!.data;
  const mine = s.copies(), comm = new EpComm(c.P);
  const out = await callSafely(f, [comm, s.ranksOf(mine), s.split(s.x), s.split(s.dy), s.options], { name: "expertParallelMoe", mutatesArguments: true });
  return { ...s, fw, dx, mine, comm, out };
}

function close(what: string, got: ArrayLike<number> | undefined | null, want: ArrayLike<number>, c: Case, hint: string): void {
  if (!got || got.length !== want.length) fail(`${what} should have ${want.length} numbers, got ${got?.length} (${describe(c)})`, hint);
  for (let i = 0; i < want.length; i++) {
    if (!(Math.abs(got[i] - want[i]) <= TOL)) fail(`${what}[${i}] = ${got[i]}, one device gives ${want[i]} (|Δ| ≤ ${TOL}; ${describe(c)})`, hint);
  }
}

const CASES: Case[] = [
  { P: 2, L: 2, k: 2, N: 10, h: 4, seed: 1 },
  { P: 4, L: 1, k: 1, N: 9, h: 3, seed: 2, moe: { order: "softmax-topk", capacityFactor: 1 } },
  { P: 3, L: 2, k: 6, N: 7, h: 2, seed: 3, moe: { order: "sigmoid" } },
  { P: 2, L: 3, k: 2, N: 1, h: 3, seed: 4, moe: { capacityFactor: 0.5, dropPolicy: "probs" } },
];

async function checkForward(f: F, c: Case) {
  const r = await runCase(f, c);
  r.bounds.forEach(([a, b], rank) => close(`ys[${rank}]`, r.out?.ys?.[rank], r.fw.y.data.subarray(a * c.h, b * c.h), c,
    `each rank routes its own tokens (capacity from its own N_r); the receiver's buffer arrives source by source: sort it by local expert before running the experts, and unsort before the combine (${HINT})`));
}

/** The router's gradient summed over the ranks' replicas, and every expert's on its owner, against one device. */
function closeGrads(r: { one: MoeLayer; mine: MoeLayer[] }, c: Case, what = "", hint?: string): void {
  const sum = new Float32Array(r.one.router.grad.length);
  r.mine.forEach((m) => m.router.grad.forEach((g, i) => { sum[i] += g; }));
  close(`router grad summed over the ranks' replicas${what}`, sum, r.one.router.grad, c, hint ?? `routerBackward on each rank's own tokens with lossScale = auxLossScale/P; ∂L/∂g of a dropped pair is 0 (${HINT})`);
  r.one.experts.forEach((e, idx) => {
    const owner = r.mine[Math.floor(idx / c.L)].experts[idx];
    (["W1", "b1", "W2", "b2"] as const).forEach((n) => close(`expert ${idx}'s ${n}.grad on rank ${Math.floor(idx / c.L)}${what}`, owner[n].grad, e[n].grad, c, hint ?? `∂L/∂o = g·dy travels to the expert's rank; its backward runs there, on the rows its forward saw (${HINT})`));
  });
}

/**
 * Whether a failed backward is the one of a block whose routers scale the auxiliary losses'
 * gradient by auxLossScale instead of auxLossScale/P: the reference run with auxLossScale·P.
 */
function auxScaledByP(r: Awaited<ReturnType<typeof runCase>>, c: Case): boolean {
  if (c.P === 1 || !r.out?.dxs) return false;
  const s = setUp(c), ms = s.copies();
  const want = libExpertParallelMoe(new EpComm(c.P), s.ranksOf(ms), s.split(s.x), s.split(s.dy), { ...s.options, auxLossScale: (s.options.auxLossScale ?? 1) * c.P });
  const near = (a: ArrayLike<number> | undefined, b: ArrayLike<number>) => !!a && a.length === b.length && Array.from(b).every((v, i) => Math.abs(a[i] - v) <= TOL);
  const sum = (list: MoeLayer[]) => list.reduce((acc, m) => acc.map((v, i) => v + m.router.grad[i]), new Float32Array(list[0].router.grad.length));
  return want.dxs!.every((d, rank) => near(r.out.dxs?.[rank], d)) && near(sum(r.mine), sum(ms));
}

async function checkBackward(f: F, c: Case) {
  const r = await runCase(f, c);
  try {
    r.bounds.forEach(([a, b], rank) => close(`dxs[${rank}]`, r.out?.dxs?.[rank], r.dx.subarray(a * c.h, b * c.h), c, `dx_t = dy_t + Σ_j (the pair's input gradient, brought home) + the router's part (${HINT})`));
    closeGrads(r, c);
  } catch (e) {
    if (auxScaledByP(r, c)) fail(`dxs and the router's gradient are those of a block whose routers use lossScale = auxLossScale on every rank (${describe(c)})`, `the router's auxiliary-loss gradient is scaled by auxLossScale on each of the P = ${c.P} ranks, P times too much: each rank's auxiliary losses are over its own tokens and the ranks' router gradients are summed, so each rank's routerBackward takes lossScale = auxLossScale/P (${HINT})`);
    throw e;
  }
}

/** Two micro-batches through the same ranks, whose gradients already hold an earlier step's (rank 0's router replica holds the router's). */
async function checkAccumulates(f: F, c: Case) {
  const s = setUp(c), mine = s.copies(), rng = mulberry32(c.seed + 99);
  s.one.params.forEach((p, i) => {
    const g = Float32Array.from(p.grad, () => gaussian(rng));
    p.grad.set(g);
    mine.forEach((m, r) => m.params[i].grad.set(p === s.one.router && r > 0 ? new Float32Array(g.length) : g));
  });
  for (const [x, dy] of [[s.x, s.dy], [s.x.map(() => gaussian(rng)), s.dy.map(() => gaussian(rng))]]) {
    const fw = s.one.forward({ data: x, rows: c.N, cols: c.h }, cpuOps());
    s.one.backward(fw.saved, { data: dy, rows: c.N, cols: c.h }, cpuOps());
    await callSafely(f, [new EpComm(c.P), s.ranksOf(mine), s.split(x), s.split(dy), s.options], { name: "expertParallelMoe", mutatesArguments: true });
  }
  closeGrads({ one: s.one, mine }, c, " after 2 micro-batches", `the parameters' .grad already hold an earlier micro-batch's gradients: add into them, as the stub's contract says, never zero or overwrite them (${HINT})`);
}

export default defineExercise<F>({
  id: "14.4",
  uses: ["lib/nn/", "lib/expert-parallel/types.ts"],
  title: "build it: an expert-parallel MoE block",
  chapter: "expert-parallel",
  file: "exercises/expert-parallel/expert-parallel-moe.ts",
  exportName: "expertParallelMoe",
  signature: "expertParallelMoe(group: EpGroup, ranks: EpRank[], xs: Float32Array[], dys: Float32Array[] | null, o: EpMoeOptions): {ys, dxs}",
  summary:
    "Forward and backward of lib/nn's MoE block with its E experts spread over P simulated ranks, each rank routing its own tokens: the dispatch all-to-all (send buffer ordered by expert, then token), the local experts (received rows sorted by local expert), the combine all-to-all, and in backward the two reverse all-to-alls and the router's backward. Graded by training lib/nn's MoE model with your block at P = 2 and 4 against one device, on outputs and every gradient for fixed and random P, k (up to E), tokens (a rank may have none) and capacity, and on every message the World logs.",
  reference,
  build: true,
  section: "expert-parallelism-two-all-to-alls-per-layer",
  solution: ["lib/expert-parallel/expertParallelMoe.ts", "lib/expert-parallel/planDispatch.ts", "lib/expert-parallel/trainExpertParallel.ts"],
  checks: [
    { name: "worked example (P = 1, one expert)", points: 1, run: async (f) => {
        const c = { P: 1, L: 1, k: 1, N: 3, h: 1, seed: 7 };
        await checkForward(f, c);
        await checkBackward(f, c);
    } },
    { name: "forward output equals one device", points: 5, run: async (f) => { for (const c of CASES) await checkForward(f, c); } },
    { name: "input gradient and weight gradients equal one device", points: 4, run: async (f) => { for (const c of CASES) await checkBackward(f, c); } },
    { name: "random P, experts per rank, k, tokens and capacity", points: 3, run: (f) => property(
        fc.record({ P: fc.integer({ min: 1, max: 4 }), L: fc.integer({ min: 1, max: 3 }), k0: fc.integer({ min: 0, max: 11 }), N: fc.integer({ min: 0, max: 10 }), h: fc.integer({ min: 1, max: 3 }), seed: fc.integer({ min: 0, max: 1e6 }), cf: fc.constantFrom(null, 0.5, 1, 1.25), order: fc.constantFrom("softmax-topk", "topk-softmax", "sigmoid") }),
        async ({ P, L, k0, N, h, seed, cf, order }) => {
          const c: Case = { P, L, k: 1 + (k0 % (P * L)), N, h, seed, moe: { capacityFactor: cf, order: order as MoeOptions["order"], dropPolicy: seed % 2 ? "probs" : "position" } };
          await checkForward(f, c);
          await checkBackward(f, c);
        }, { numRuns: 20 }) },
    { name: "the World's log: dispatch, combine, and their reverses, every message", points: 2, run: async (f) => {
        for (const c of CASES) {
          const { comm } = await runCase(f, c);
          const s = setUp(c), want = new EpComm(c.P);
          libExpertParallelMoe(want, s.ranksOf(s.copies()), s.split(s.x), s.split(s.dy), s.options);
          const show = (log: EpComm["log"]) => log.map((l) => `${l.label}: ${l.events.map((e) => `${e.sender}→${e.receiver} [${e.offset}, +${e.length}) at ${e.receiverOffset}`).join(", ") || "nothing off-rank"}`).join("; ");
          if (show(comm.log) !== show(want.log)) fail(`the World logged ${show(comm.log)}\nexpected ${show(want.log)} (${describe(c)})`, `send buffer: kept pairs by expert, then token; splits in elements; "dispatch", "combine", then "combine backward", "dispatch backward" (${HINT})`);
          const fwdOnly = new EpComm(c.P), ms = s.copies();
          await callSafely(f, [fwdOnly, s.ranksOf(ms), s.split(s.x), null, s.options], { name: "expertParallelMoe", mutatesArguments: true });
          const touched = ms.some((m) => m.params.some((p) => p.grad.some((g) => g !== 0)));
          if (fwdOnly.log.length !== 2 || touched) fail(`with dys = null your block ran ${fwdOnly.log.length} all-to-all(s)${touched ? " and changed a gradient" : ""}; the forward alone is dispatch and combine, and touches no gradient (${describe(c)})`, HINT);
        }
    } },
    { name: "gradients add into what the parameters hold (two micro-batches after an earlier one)", points: 2, run: async (f) => { for (const c of CASES.slice(0, 2)) await checkAccumulates(f, c); } },
    { name: "trains to the same weights as one device (P = 2, 4)", points: 7, run: async (f) => {
        for (const [P, moe] of [[2, { numExperts: 4, topK: 2 }], [4, { numExperts: 8, topK: 2, capacityFactor: 1, zLossCoeff: 0.01 }]] as const) {
          const r = trainExpertParallel({ epSize: P, steps: 6, moe, model: { contextLength: 4, embedDim: 4, width: 8, hiddenDim: 8, numBlocks: 1 }, batchSize: 4, seqLen: 8, moeStep: f });
          const bad = r.lossSingle.findIndex((l, i) => !(Math.abs(l - r.lossEp[i]) <= 1e-4));
          if (bad >= 0) fail(`P = ${P}: step ${bad} loss ${r.lossEp[bad]} with your block, ${r.lossSingle[bad]} on one device`, HINT);
          if (!(r.maxWeightDiff <= 1e-4)) fail(`P = ${P}: after 6 AdamW steps the weights differ from one device by up to ${r.maxWeightDiff} (≤ 1e-4 expected)`, HINT);
        }
    } },
  ],
});
