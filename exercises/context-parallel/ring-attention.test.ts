import * as fc from "fast-check";
import { callSafely, defineExercise, fail, isNotImplemented, property } from "../harness/index.js";
import { ringAttention as libRingAttention, createRing, sequenceShards, shardSequence, gatherSequence, trainContextParallel, CP_LAYOUTS, type CpLayout } from "../../lib/context-parallel/index.js";
import { randomTensor } from "../../lib/flash-attention/randomTensor.js";
import { referenceAttention } from "../../lib/flash-attention/referenceAttention.js";
import { referenceAttentionBackward } from "../../lib/flash-attention/referenceAttentionBackward.js";
import type { ringAttention, Ring, CpShard, CpShardResult, RingDims } from "./ring-attention.js";

type F = typeof ringAttention;
const TOL = 2e-5;
const FWD = "see the section “Ring attention, block by block”";
const BWD = "see the section “The backward pass around the ring”";

/** The ring the student's code gets: the course's World underneath, and a copy of every buffer sent. */
class GradedRing implements Ring {
  readonly cpSize: number;
  readonly sent: Float32Array[][] = []; // one entry per sendRecv call: the buffers, rank by rank
  private readonly ring;
  constructor(C: number) { this.cpSize = C; this.ring = createRing(C); }
  sendRecv(buffers: readonly Float32Array[]): Float32Array[] {
    const out = this.ring.sendRecv(buffers);
    if (this.cpSize > 1) this.sent.push(buffers.map((b) => Float32Array.from(b)));
    return out;
  }
  get events() { return this.ring.events; }
}

/**
 * The ring of one rank's run (see ranksAlone): the other ranks' shards hold fake K and V, and
 * every [K | V] block of a message (each aligned chunk of 2·B·H·n·d numbers) that is a fake block
 * arrives as the true one. So a rank sees the other ranks' keys and values only through sendRecv.
 */
class ViewRing extends GradedRing {
  constructor(C: number, private readonly fakes: (Float32Array | null)[], private readonly trues: Float32Array[]) { super(C); }
  override sendRecv(buffers: readonly Float32Array[]): Float32Array[] {
    const w = this.trues[0]!.length;
    return super.sendRecv(buffers).map((b) => {
      if (b.length % w !== 0) return b;
      const out = Float32Array.from(b);
      for (let at = 0; at < b.length; at += w) {
        const j = this.fakes.findIndex((fk) => fk !== null && fk.every((x, i) => Object.is(x, b[at + i])));
        if (j >= 0) out.set(this.trues[j]!, at);
      }
      return out;
    });
  }
}

const reference: F = (ring, shards, dims, o = {}) => libRingAttention(ring, shards, dims, o);

/** A graded problem: C ranks, n tokens each, and where the tokens go. */
interface Problem { C: number; n: number; B: number; H: number; d: number; causal: boolean; placement: CpLayout | number; grad: boolean; seed: number }

function positionsOf(p: Problem): number[][] {
  if (typeof p.placement === "string") return sequenceShards(p.C * p.n, p.C, p.placement);
  const perm = Array.from({ length: p.C * p.n }, (_, i) => i);
  let x = p.placement;
  for (let i = perm.length - 1; i > 0; i--) { x = (x * 1103515245 + 12345) % 2147483648; const j = x % (i + 1); [perm[i], perm[j]] = [perm[j], perm[i]]; }
  return Array.from({ length: p.C }, (_, r) => perm.slice(r * p.n, (r + 1) * p.n));
}

const describeProblem = (p: Problem) => `ringAttention(ring of ${p.C}, shards, {B: ${p.B}, H: ${p.H}, n: ${p.n}, d: ${p.d}}, {causal: ${p.causal}}) with ${typeof p.placement === "string" ? `the ${p.placement} layout` : "tokens placed at random"}${p.grad ? " and dO" : ""} (seed ${p.seed})`;

/** Runs impl on a problem; returns what it gave, gathered in sequence order, and one device's answer. */
async function run(impl: F, p: Problem, hint: string) {
  const N = p.C * p.n, full = { B: p.B, H: p.H, N, d: p.d }, len = p.B * p.H * N * p.d;
  const q = randomTensor(len, p.seed, 2), k = randomTensor(len, p.seed + 1, 2), v = randomTensor(len, p.seed + 2), dO = randomTensor(len, p.seed + 3);
  const shape = { B: p.B, H: p.H, Nq: N, Nk: N, d: p.d }, mask = p.causal ? { causal: "top-left" as const } : {};
  const want = { fwd: referenceAttention(q, k, v, shape, mask), bwd: p.grad ? referenceAttentionBackward(q, k, v, dO, shape, mask) : null };
  const pos = positionsOf(p);
  const shards: CpShard[] = pos.map((positions) => ({ q: shardSequence(q, full, positions), k: shardSequence(k, full, positions), v: shardSequence(v, full, positions), positions, ...(p.grad ? { dO: shardSequence(dO, full, positions) } : {}) }));
  const ring = new GradedRing(p.C);
  const dims: RingDims = { B: p.B, H: p.H, n: p.n, d: p.d };
  const got = await callSafely(impl, [ring, shards, dims, { causal: p.causal }], { label: describeProblem(p), hint });
  if (!Array.isArray(got) || got.length !== p.C) fail(`${describeProblem(p)} returned ${Array.isArray(got) ? `${got.length} results` : typeof got}; expected one result per rank (${p.C})`, hint);
  const gather = (key: keyof CpShardResult, d: number) => {
    for (let r = 0; r < p.C; r++) {
      const a = got[r]?.[key];
      if (!(a instanceof Float32Array) || a.length !== p.B * p.H * p.n * d) fail(`${describeProblem(p)}: rank ${r}'s ${key} should be a Float32Array of ${p.B * p.H * p.n * d} numbers (B·H·n${d > 1 ? "·d" : ""}), got ${a === undefined ? "nothing" : `${a?.constructor?.name} of ${(a as ArrayLike<number>)?.length}`}`, hint);
    }
    return gatherSequence(got.map((g) => g[key] as Float32Array), { ...full, d }, pos);
  };
  return { got, gather, want, shards, ring, pos, N };
}

function close(what: string, got: Float32Array, want: Float32Array, p: Problem, hint: string, d: number): void {
  for (let i = 0; i < want.length; i++) {
    const g = got[i], w = want[i];
    if (w === -Infinity ? g !== -Infinity : !(Math.abs(g - w) <= TOL)) {
      const bh = Math.floor(i / (d * p.C * p.n)), token = Math.floor(i / d) % (p.C * p.n);
      fail(`${describeProblem(p)}: ${what} of token ${token} (batch·head ${bh}${d > 1 ? `, column ${i % d}` : ""}) is ${g}, one device gives ${w} (|Δ| ≤ ${TOL})`, hint);
    }
  }
}

const ALONE = "rank r may read only its own shard's k and v: the others' reach it through ring.sendRecv (the grader checks rank r's results in a run where the other shards hold fake k and v, and the ring carries the true blocks)";

/**
 * Each rank's own results from a run in which only that rank's shard holds its true K and V
 * (the others' are fake, random) and the ring turns each fake [K | V] block back into the true
 * one (ViewRing): rank r's O, lse and dq are then right only if it read the others' blocks from the ring.
 */
async function ranksAlone(f: F, p: Problem, hint: string) {
  const { shards, want, pos, N } = await run(f, p, hint);
  const len = p.B * p.H * p.n * p.d;
  const fakes = shards.map((_, j) => ({ k: randomTensor(len, p.seed + 101 + 2 * j, 2), v: randomTensor(len, p.seed + 102 + 2 * j) }));
  const cat = (k: Float32Array, v: Float32Array) => { const o = new Float32Array(2 * len); o.set(k); o.set(v, len); return o; };
  const trues = shards.map((s) => cat(s.k, s.v)), fakeBlocks = fakes.map((x) => cat(x.k, x.v));
  const label = (r: number) => `${describeProblem(p)}, rank ${r}'s run`;
  const mine: CpShardResult[] = [];
  for (let r = 0; r < p.C; r++) {
    const own = shards.map((s, j) => (j === r ? s : { ...s, ...fakes[j] }));
    const got = await callSafely(f, [new ViewRing(p.C, fakeBlocks.map((x, j) => (j === r ? null : x)), trues), own, { B: p.B, H: p.H, n: p.n, d: p.d }, { causal: p.causal }], { label: label(r), hint: `${hint}; ${ALONE}` });
    const res = Array.isArray(got) ? got[r] : undefined;
    const wanted: ["O" | "lse" | "dq", number][] = [["O", p.d], ["lse", 1], ...(p.grad ? [["dq", p.d] as ["dq", number]] : [])];
    for (const [key, d] of wanted) {
      const a = res?.[key];
      if (!(a instanceof Float32Array) || a.length !== p.B * p.H * p.n * d) fail(`${label(r)}: rank ${r}'s ${key} should be a Float32Array of ${p.B * p.H * p.n * d} numbers`, `${hint}; ${ALONE}`);
    }
    mine.push(res!);
  }
  const full = { B: p.B, H: p.H, N };
  const gather = (key: "O" | "lse" | "dq", d: number) => gatherSequence(mine.map((m) => m[key] as Float32Array), { ...full, d }, pos);
  return { gather, want };
}

/** The forward pass, each rank's O and lse from its own run (ranksAlone). */
async function forwardMatches(f: F, p: Problem, hint = FWD) {
  const q0 = { ...p, grad: false };
  const { gather, want } = await ranksAlone(f, q0, hint);
  close("O", gather("O", p.d), want.fwd.O, q0, `${hint}; ${ALONE}`, p.d);
  close("lse", gather("lse", 1), want.fwd.lse, q0, `the logsumexp of the whole row, merged block after block; ${hint}; ${ALONE}`, 1);
}

async function backwardMatches(f: F, p: Problem) {
  const { gather, want } = await run(f, { ...p, grad: true }, BWD);
  close("dq", gather("dq", p.d), want.bwd!.dQ, p, `dq sums every block's contribution, computed with the merged O and lse; ${BWD}`, p.d);
  close("dk", gather("dk", p.d), want.bwd!.dK, p, `a block's dk collects the contributions of every rank's queries and must end on the block's owner; ${BWD}`, p.d);
  close("dv", gather("dv", p.d), want.bwd!.dV, p, `dv travels with its block like dk; ${BWD}`, p.d);
  // dq of each rank from its own run: the blocks of the backward pass come through the ring too
  const alone = await ranksAlone(f, { ...p, grad: true }, BWD);
  close("dq", alone.gather("dq", p.d), want.bwd!.dQ, { ...p, grad: true }, `K and V go round the ring again in the backward pass; ${BWD}; ${ALONE}`, p.d);
}

const FIXED: Problem[] = [
  { C: 2, n: 2, B: 1, H: 1, d: 2, causal: true, placement: "zigzag", grad: false, seed: 1 },
  { C: 3, n: 2, B: 2, H: 1, d: 3, causal: true, placement: "contiguous", grad: false, seed: 2 },
  { C: 4, n: 2, B: 1, H: 2, d: 2, causal: true, placement: "striped", grad: false, seed: 3 },
  { C: 4, n: 4, B: 1, H: 1, d: 4, causal: true, placement: "zigzag", grad: false, seed: 4 },
  { C: 3, n: 3, B: 1, H: 2, d: 2, causal: false, placement: "contiguous", grad: false, seed: 5 },
];

const problemArb = fc.record({
  C: fc.integer({ min: 1, max: 5 }), n: fc.integer({ min: 1, max: 4 }), B: fc.integer({ min: 1, max: 2 }), H: fc.integer({ min: 1, max: 2 }), d: fc.integer({ min: 1, max: 4 }),
  causal: fc.boolean(), placement: fc.oneof(fc.constantFrom(...CP_LAYOUTS.filter((l) => l !== "zigzag")), fc.integer({ min: 1, max: 2 ** 30 })), grad: fc.constant(true), seed: fc.integer({ min: 0, max: 1e6 }),
});

async function trainsLikeOneDevice(f: F, cpSize: number, layout: CpLayout) {
  const r = trainContextParallel({ cpSize, layout, steps: 8, attention: f as never });
  const bad = r.lossCp.findIndex((l, i) => !(Math.abs(l - r.lossSingle[i]) <= 1e-4));
  const hint = "your attention runs inside lib/nn's model here: its forward call has no dO, its backward call has dO (and recomputes the forward pass); see the section “Training with C ranks”";
  if (bad >= 0) fail(`C = ${cpSize}, ${layout}: step ${bad}'s loss is ${r.lossCp[bad]} with your ring attention, ${r.lossSingle[bad]} on one device (|Δ| ≤ 1e-4)`, hint);
  if (!(r.maxWeightDiff <= 1e-4)) fail(`C = ${cpSize}, ${layout}: after 8 AdamW steps the weights differ from one device's by up to ${r.maxWeightDiff} (≤ 1e-4 expected)`, hint);
}

export default defineExercise<F>({
  id: "13.2",
  uses: ["lib/flash-attention/"],
  title: "build it: ring attention, forward and backward",
  chapter: "context-parallel",
  build: true,
  section: "ring-attention-block-by-block",
  file: "exercises/context-parallel/ring-attention.ts",
  exportName: "ringAttention",
  signature: "ringAttention(ring: Ring, shards: CpShard[], dims: {B, H, n, d}, o: {causal?, scale?}): CpShardResult[]",
  summary:
    "Exact attention over a sequence whose tokens are spread over C simulated ranks, communicating only by passing [K | V] blocks around the ring (C − 1 moves forward); with dO, the backward pass too, the key and value gradients travelling with their blocks back to their owners. Graded against one device (forward and backward, 2e-5) for the three layouts and random placements of the tokens, with fully masked blocks, on the content and length of every message the World carries, and by training lib/nn's model with your attention on 2 and 4 ranks next to one device. RangeError when the shards are not one per rank.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        const ring = new GradedRing(2);
        const shards: CpShard[] = [{ q: Float32Array.of(1), k: Float32Array.of(0), v: Float32Array.of(4), positions: [1] }, { q: Float32Array.of(1), k: Float32Array.of(Math.log(3)), v: Float32Array.of(8), positions: [0] }];
        const label = "ringAttention(ring of 2, [{q: [1], k: [0], v: [4], positions: [1]}, {q: [1], k: [ln 3], v: [8], positions: [0]}], {B: 1, H: 1, n: 1, d: 1}, {causal: true, scale: 1})";
        const got = await callSafely(f, [ring, shards, { B: 1, H: 1, n: 1, d: 1 }, { causal: true, scale: 1 }], { label, hint: FWD });
        const want = [[7, Math.log(4)], [8, Math.log(3)]];
        want.forEach(([O, lse], r) => {
          if (!(Math.abs(got?.[r]?.O?.[0] - O) <= TOL) || !(Math.abs(got?.[r]?.lse?.[0] - lse) <= TOL)) {
            fail(`${label}: rank ${r} returned O = ${got?.[r]?.O?.[0]}, lse = ${got?.[r]?.lse?.[0]}; expected O = ${O}, lse = ${lse}`, `token 1 sees both keys (softmax weights 1/4 and 3/4), token 0 only its own; ${FWD}`);
          }
        });
    } },
    { name: "forward equals one device (three layouts, causal and not)", points: 3, run: async (f) => {
        for (const p of FIXED) await forwardMatches(f, p);
    } },
    { name: "backward equals one device: dq, dk, dv", points: 5, run: async (f) => {
        for (const p of FIXED) await backwardMatches(f, p);
    } },
    { name: "any placement of the tokens, any C and shape", points: 3, run: (f) => property(problemArb, async (p) => {
        await forwardMatches(f, p, `the mask comes from the tokens' global positions, wherever they are; ${FWD}`);
        await backwardMatches(f, p);
    }, { numRuns: 25, seed: 1302 }) },
    { name: "blocks a rank cannot see (fully masked) give no NaN", points: 2, run: async (f) => {
        const hint = `with contiguous shards rank 0's queries see nothing of the later blocks: their partial results are empty (logsumexp −∞) and must leave the running result unchanged; see exercise 13.1 and ${FWD}`;
        for (const p of [{ C: 4, n: 3, B: 1, H: 1, d: 2, causal: true, placement: "contiguous" as const, grad: true, seed: 9 }, { C: 3, n: 1, B: 1, H: 1, d: 1, causal: true, placement: "contiguous" as const, grad: true, seed: 10 }]) {
          await forwardMatches(f, p, hint);
          await backwardMatches(f, p);
        }
    } },
    { name: "ring messages: one [K | V] block per rank and step, C − 1 forward, 2C − 1 block moves backward", points: 3, run: async (f) => {
        const p: Problem = { C: 3, n: 2, B: 1, H: 2, d: 2, causal: true, placement: "striped", grad: false, seed: 11 };
        const blk = p.B * p.H * p.n * p.d;
        const { ring, shards } = await run(f, p, FWD);
        const hint = `forward, each rank sends the [K | V] block it holds, 2·B·H·n·d numbers, to the next rank, C − 1 times; ${FWD}`;
        if (ring.sent.length !== p.C - 1) fail(`${describeProblem(p)}: your code called sendRecv ${ring.sent.length} times; ring attention moves the blocks C − 1 = ${p.C - 1} times`, hint);
        ring.sent.forEach((bufs, s) => bufs.forEach((b, r) => {
          const owner = (r - s + p.C) % p.C, want = [...shards[owner].k, ...shards[owner].v];
          if (b.length !== 2 * blk || want.some((x, i) => x !== b[i])) fail(`${describeProblem(p)}: at move ${s} rank ${r} sent ${b.length} numbers${b.length === 2 * blk ? " that are not [K | V] of rank " + owner : ""}; it holds rank ${owner}'s block and must pass on [K | V] (${2 * blk} numbers)`, hint);
        }));
        const g = await run(f, { ...p, grad: true, seed: 12 }, BWD);
        const total = g.ring.sent.reduce((s, bufs) => s + bufs[0].length, 0);
        const want = (p.C - 1) * 2 * blk + ((p.C - 1) * 2 * blk + p.C * 2 * blk);
        const bhint = `with dO: the forward ring (C − 1 moves of [K | V]), then K and V go round again (C − 1 moves) and dK | dV travel with them, home after C moves; ${BWD}`;
        if (total !== want) fail(`${describeProblem({ ...p, grad: true, seed: 12 })}: each rank sent ${total} numbers; forward and backward ring attention send ${want} (${total < want ? "fewer: keeping every block of the forward pass costs C blocks of memory per rank" : "more than needed"})`, bhint);
        if (g.ring.sent.some((bufs) => bufs[0].length % blk !== 0 || bufs[0].length > 4 * blk)) fail(`${describeProblem({ ...p, grad: true, seed: 12 })}: a message of ${g.ring.sent.find((b) => b[0].length % blk !== 0 || b[0].length > 4 * blk)![0].length} numbers; every message is [K | V], [dK | dV] or both (${2 * blk} or ${4 * blk})`, bhint);
    } },
    { name: "shards not one per rank: RangeError", points: 1, run: async (f) => {
        const s = { q: new Float32Array(1), k: new Float32Array(1), v: new Float32Array(1), positions: [0] };
        try { await f(new GradedRing(4), [s, { ...s, positions: [1] }, { ...s, positions: [2] }], { B: 1, H: 1, n: 1, d: 1 }, {}); } catch (e) {
          if (isNotImplemented(e)) throw e;
          if (!(e instanceof RangeError) || !/^shards must hold one shard per rank \(cpSize = 4\), got 3$/.test((e as Error).message)) fail(`threw ${(e as Error)?.name}: "${(e as Error)?.message}"; expected RangeError "shards must hold one shard per rank (cpSize = 4), got 3"`, "check the number of shards against ring.cpSize before anything else");
          return;
        }
        fail("ringAttention(ring of 4, 3 shards, …) returned instead of throwing RangeError \"shards must hold one shard per rank (cpSize = 4), got 3\"", "check the number of shards against ring.cpSize before anything else");
    } },
    { name: "trains lib/nn's model to the same weights as one device (C = 2, 4)", points: 6, run: async (f) => {
        await trainsLikeOneDevice(f, 2, "zigzag");
        await trainsLikeOneDevice(f, 4, "striped");
    } },
  ],
});
