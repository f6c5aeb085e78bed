import { AdamW, createModel, forward, backward, sampleBatch, mulberry32, gaussian, corpus, residualMlp, matmul, type Layer, type Param } from "../../lib/nn/index.js";
import { TpComm, TensorParallelMlp, splitColumns, splitRows, concatColumns, concatRows } from "../../lib/tensor-parallel/index.js";
import * as fc from "fast-check";
import { defineExercise, fail, callSafely, isNotImplemented, property } from "../harness/index.js";
import type { tpMlpForwardBackward, TpGroup, MlpShard } from "./tp-mlp.js";

type F = typeof tpMlpForwardBackward;
const TOL = 1e-5;
const HINT = "see the section “The transformer MLP on T ranks”";

/** The lib's TensorParallelMlp driven through the student's group interface. */
const reference: F = (group, shards, x, dy, dims) => {
  const { N, h, H } = dims, T = group.T;
  if (H % T !== 0) throw new RangeError(`H (${H}) must be divisible by T (${T})`);
  if (shards.length !== T) throw new RangeError(`shards must hold one shard per rank (T = ${T}), got ${shards.length}`);
  const comm = { T, allReduce: (b: Float32Array[]) => group.allReduce(b) } as unknown as TpComm;
  const w = { W1: concatColumns(shards.map((s) => s.W1), h), b1: concatColumns(shards.map((s) => s.b1), 1), W2: concatRows(shards.map((s) => s.W2)), b2: shards[0].b2 };
  const mlp = new TensorParallelMlp(comm, w, h, H);
  const ys = mlp.forward(Array.from({ length: T }, () => x), N);
  const dxs = mlp.backward(Array.from({ length: T }, () => dy));
  shards.forEach((s, r) => {
    const add = (dst: Float32Array, src: Float32Array) => { for (let i = 0; i < dst.length; i++) dst[i] += src[i]; };
    add(s.dW1, mlp.col.weightGrads[r]); add(s.db1, mlp.col.biasGrads![r]); add(s.dW2, mlp.row.weightGrads[r]); add(s.db2, mlp.row.biasGrads![r]);
  });
  return { y: ys[0], dx: dxs[0] };
};

/** A group on the course's World, whose log the checks read. */
function group(T: number): { g: TpGroup; comm: TpComm } {
  const comm = new TpComm(T, undefined, 4);
  return { comm, g: { T, allReduce: (b) => comm.allReduce(b, "forward", "student") } };
}

function shardsOf(W1: Float32Array, b1: Float32Array, W2: Float32Array, b2: Float32Array, h: number, H: number, T: number): MlpShard[] {
  const c = splitColumns(W1, h, H, T), cb = splitColumns(b1, 1, H, T), r = splitRows(W2, H, h, T);
  return Array.from({ length: T }, (_, k) => ({ W1: c[k], b1: cb[k], W2: r[k], b2: b2.slice(), dW1: new Float32Array(c[k].length), db1: new Float32Array(cb[k].length), dW2: new Float32Array(r[k].length), db2: new Float32Array(h) }));
}

interface Case { T: number; N: number; h: number; H: number; seed: number }
/** Runs one device (lib/nn's residualMlp) and the student's T ranks on the same weights. */
async function runCase(f: F, c: Case) {
  const { T, N, h, H } = c, rng = mulberry32(c.seed);
  const ref = residualMlp("m", h, H, rng);
  const [W1, b1, W2, b2] = ref.params;
  b1.data.forEach((_, i) => (b1.data[i] = 0.1 * gaussian(rng)));
  b2.data.forEach((_, i) => (b2.data[i] = 0.1 * gaussian(rng)));
  const x = Float32Array.from({ length: N * h }, () => gaussian(rng)), dy = Float32Array.from({ length: N * h }, () => gaussian(rng));
  const ops = { precision: { compute: "fp32" as const, accumulate: "fp32" as const }, matmul };
  const fw = ref.forward({ data: x, rows: N, cols: h }, ops);
  const dx = ref.backward(fw.saved, { data: dy, rows: N, cols: h }, ops)!.data;
  const shards = shardsOf(W1.data, b1.data, W2.data, b2.data, h, H, T);
  const { g, comm } = group(T);
  const out = await callSafely(f, [g, shards, x.slice(), dy.slice(), { N, h, H }], { name: "tpMlpForwardBackward", mutatesArguments: true });
  return { out, want: { y: fw.y.data, dx, dW1: W1.grad, db1: b1.grad, dW2: W2.grad, db2: b2.grad }, shards, comm };
}

/** Two micro-batches through the same shards, whose gradients start from a previous step's: they must add up (as lib/nn's .grad). */
async function runAccumulating(f: F, c: Case) {
  const { T, N, h, H } = c, rng = mulberry32(c.seed);
  const ref = residualMlp("m", h, H, rng);
  const [W1, b1, W2, b2] = ref.params;
  const ops = { precision: { compute: "fp32" as const, accumulate: "fp32" as const }, matmul };
  const start = ref.params.map((p) => Float32Array.from(p.data, () => gaussian(rng)));
  ref.params.forEach((p, i) => p.grad.set(start[i]));
  const shards = shardsOf(W1.data, b1.data, W2.data, b2.data, h, H, T);
  const [s1, sb1, s2] = [splitColumns(start[0], h, H, T), splitColumns(start[1], 1, H, T), splitRows(start[2], H, h, T)];
  shards.forEach((s, r) => { s.dW1.set(s1[r]); s.db1.set(sb1[r]); s.dW2.set(s2[r]); s.db2.set(start[3]); });
  const { g } = group(T);
  for (let k = 0; k < 2; k++) {
    const x = Float32Array.from({ length: N * h }, () => gaussian(rng)), dy = Float32Array.from({ length: N * h }, () => gaussian(rng));
    const fw = ref.forward({ data: x, rows: N, cols: h }, ops);
    ref.backward(fw.saved, { data: dy, rows: N, cols: h }, ops);
    await callSafely(f, [g, shards, x, dy, { N, h, H }], { name: "tpMlpForwardBackward", mutatesArguments: true });
  }
  return { shards, want: { dW1: W1.grad, db1: b1.grad, dW2: W2.grad, db2: b2.grad } };
}

function close(what: string, got: ArrayLike<number> | undefined, want: Float32Array, c: Case, hint: string): void {
  if (!got || got.length !== want.length) fail(`${what} should have ${want.length} numbers, got ${got?.length} (T = ${c.T}, N = ${c.N}, h = ${c.h}, H = ${c.H})`, hint);
  for (let i = 0; i < want.length; i++) {
    if (!(Math.abs(got[i] - want[i]) <= TOL)) fail(`${what}[${i}] = ${got[i]}, one device gives ${want[i]} (|Δ| ≤ ${TOL}; T = ${c.T}, N = ${c.N}, h = ${c.h}, H = ${c.H})`, hint);
  }
}

const CASES: Case[] = [
  { T: 2, N: 3, h: 4, H: 8, seed: 1 },
  { T: 4, N: 5, h: 3, H: 12, seed: 2 },
  { T: 3, N: 2, h: 5, H: 6, seed: 3 },
  { T: 6, N: 4, h: 2, H: 12, seed: 4 },
];

/** lib/nn's model with its residual blocks replaced by the student's T-rank block; trained with AdamW next to one device. */
async function trainWith(f: F, T: number, steps: number): Promise<{ maxDiff: number; losses: [number, number][] }> {
  const { vocab, tokens } = corpus();
  const cfg = { vocabSize: vocab.size, contextLength: 4, embedDim: 4, width: 8, hiddenDim: 16, numBlocks: 2, seed: 3 };
  const one = createModel(cfg), tp = createModel(cfg);
  const blocks: { layer: Layer; shards: MlpShard[] }[] = [];
  tp.layers = tp.layers.map((l) => {
    if (l.kind !== "residual-mlp") return l;
    const [W1, b1, W2, b2] = l.params, h = 8, H = 16;
    const shards = shardsOf(W1.data, b1.data, W2.data, b2.data, h, H, T);
    const { g } = group(T);
    const params: Param[] = shards.flatMap((s, r) => [
      { name: `${l.name}.W1@${r}`, shape: [s.W1.length], data: s.W1, grad: s.dW1 }, { name: `${l.name}.b1@${r}`, shape: [s.b1.length], data: s.b1, grad: s.db1 },
      { name: `${l.name}.W2@${r}`, shape: [s.W2.length], data: s.W2, grad: s.dW2 }, { name: `${l.name}.b2@${r}`, shape: [h], data: s.b2, grad: s.db2 }]);
    const zeros = new Float32Array(0);
    const layer: Layer = {
      ...l, params,
      // forward runs the block with dy = 0 (no gradient), backward runs it again with the real dy (recomputation)
      forward: (x) => { const r = f(g, shards, x.data, new Float32Array(x.data.length), { N: x.rows, h, H }); return { y: { data: r.y, rows: x.rows, cols: h }, saved: { x, extra: [zeros], bytes: 0 } }; },
      backward: (saved, dy) => ({ data: f(g, shards, saved.x.data, dy.data, { N: saved.x.rows, h, H }).dx, rows: saved.x.rows, cols: h }),
    };
    blocks.push({ layer, shards });
    return layer;
  });
  tp.params = tp.layers.flatMap((l) => l.params);
  const opts = [new AdamW(one.params, { lr: 1e-2 }), new AdamW(tp.params, { lr: 1e-2 })];
  const rng = mulberry32(5), losses: [number, number][] = [];
  for (let s = 0; s < steps; s++) {
    const batch = sampleBatch(tokens, { batchSize: 2, seqLen: 4, contextLength: 4 }, rng);
    const ls = [one, tp].map((m, i) => { const fw = forward(m, batch); backward(m, fw); opts[i].step(); opts[i].zeroGrad(); return fw.loss; });
    losses.push([ls[0], ls[1]]);
  }
  let maxDiff = 0;
  one.layers.forEach((l, i) => {
    const full = l.kind === "residual-mlp"
      ? (() => { const sh = blocks.find((b) => b.layer === tp.layers[i])!.shards; return [concatColumns(sh.map((s) => s.W1), 8), concatColumns(sh.map((s) => s.b1), 1), concatRows(sh.map((s) => s.W2)), sh[T - 1].b2]; })()
      : tp.layers[i].params.map((p) => p.data);
    l.params.forEach((p, j) => p.data.forEach((v, k) => { maxDiff = Math.max(maxDiff, Math.abs(v - full[j][k])); }));
  });
  return { maxDiff, losses };
}

export default defineExercise<F>({
  id: "6.1",
  title: "build it: a tensor-parallel MLP block",
  chapter: "tensor-parallel",
  file: "exercises/tensor-parallel/tp-mlp.ts",
  exportName: "tpMlpForwardBackward",
  signature: "tpMlpForwardBackward(group: TpGroup, shards: MlpShard[], x: Float32Array, dy: Float32Array, dims: {N, h, H}): {y, dx}",
  summary:
    "Forward and backward of lib/nn's residual MLP y = x + tanh(x·W1 + b1)·W2 + b2 on T simulated ranks, W1 column-parallel and W2 row-parallel, communicating only through group.allReduce; add each rank's weight gradients into its shard. Graded by training lib/nn's model with your block at T = 2 and 4 against one device (same weights within 1e-5 per step), on the outputs and gradients for random shapes and T, on gradients that already hold a micro-batch's, and on the World's log of your collectives. RangeError when T does not divide H or the shards are not one per rank.",
  reference,
  build: true,
  section: "the-transformer-mlp-on-t-ranks",
  checks: [
    { name: "worked example (T = 1)", points: 2, run: async (f) => {
        const s: MlpShard = { W1: Float32Array.of(0), b1: Float32Array.of(0), W2: Float32Array.of(1), b2: Float32Array.of(0.5), dW1: new Float32Array(1), db1: new Float32Array(1), dW2: new Float32Array(1), db2: new Float32Array(1) };
        const { g } = group(1);
        const r = await callSafely(f, [g, [s], Float32Array.of(2), Float32Array.of(1), { N: 1, h: 1, H: 1 }], { name: "tpMlpForwardBackward", mutatesArguments: true });
        const c = { T: 1, N: 1, h: 1, H: 1, seed: 0 };
        close("y", r?.y, Float32Array.of(2.5), c, "y = x + tanh(x·W1 + b1)·W2 + b2");
        close("dx", r?.dx, Float32Array.of(1), c, "the residual passes dy through; the MLP branch adds (dy·W2ᵀ ⊙ (1 − a²))·W1ᵀ");
        close("dW1", s.dW1, Float32Array.of(2), c, "dW1 = xᵀ·du with du = (dy·W2ᵀ) ⊙ (1 − a²)");
        close("db2", s.db2, Float32Array.of(1), c, "db2 sums dy over the rows");
    } },
    { name: "forward output equals one device", points: 4, run: async (f) => {
        for (const c of CASES) { const { out, want } = await runCase(f, c); close("y", out?.y, want.y, c, `each rank's partial product x·W1_r → tanh → ·W2_r is summed once; b2 is added once, after the sum (${HINT})`); }
    } },
    { name: "input gradient and weight gradients equal one device", points: 4, run: async (f) => {
        for (const c of CASES) {
          const { out, want, shards } = await runCase(f, c);
          close("dx", out?.dx, want.dx, c, `every rank holds only part of dx: f sums the ranks' partial input gradients (${HINT})`);
          close("dW1 (shards side by side)", concatColumns(shards.map((s) => s.dW1), c.h), want.dW1, c, HINT);
          close("db1", concatColumns(shards.map((s) => s.db1), 1), want.db1, c, HINT);
          close("dW2 (shards stacked)", concatRows(shards.map((s) => s.dW2)), want.dW2, c, HINT);
          for (const s of shards) close("db2", s.db2, want.db2, c, "every rank's copy of b2 gets the full gradient Σ_rows dy");
        }
    } },
    { name: "gradients add into what the shards hold (two micro-batches after a previous step's)", points: 2, run: async (f) => {
        for (const c of CASES.slice(0, 2)) {
          const { shards, want } = await runAccumulating(f, c);
          const hint = "the shards' gradients already hold something (an earlier micro-batch): add into them, as PyTorch's .grad and the stub's contract say, never overwrite";
          close("dW1 (shards side by side, after 2 micro-batches)", concatColumns(shards.map((s) => s.dW1), c.h), want.dW1, c, hint);
          close("db1 (after 2 micro-batches)", concatColumns(shards.map((s) => s.db1), 1), want.db1, c, hint);
          close("dW2 (shards stacked, after 2 micro-batches)", concatRows(shards.map((s) => s.dW2)), want.dW2, c, hint);
          for (const s of shards) close("db2 (after 2 micro-batches)", s.db2, want.db2, c, hint);
        }
    } },
    { name: "random shapes and T", points: 2, run: (f) => property(
        fc.record({ T: fc.integer({ min: 1, max: 6 }), N: fc.integer({ min: 1, max: 7 }), h: fc.integer({ min: 1, max: 6 }), k: fc.integer({ min: 1, max: 3 }), seed: fc.integer({ min: 0, max: 1e6 }) }),
        async ({ T, N, h, k, seed }) => {
          const c = { T, N, h, H: k * T, seed };
          const { out, want, shards } = await runCase(f, c);
          close("y", out?.y, want.y, c, HINT);
          close("dx", out?.dx, want.dx, c, HINT);
          close("dW1 (shards side by side)", concatColumns(shards.map((s) => s.dW1), h), want.dW1, c, HINT);
          close("dW2 (shards stacked)", concatRows(shards.map((s) => s.dW2)), want.dW2, c, HINT);
        }, { numRuns: 25 }) },
    { name: "collective log: one all-reduce of (N, h) forward, one backward", points: 2, run: async (f) => {
        for (const c of CASES) {
          const { comm } = await runCase(f, c);
          const want = 2 * 2 * (c.T - 1) * c.N * c.h * 4;
          const bytes = comm.log.reduce((s, l) => s + l.bytes, 0);
          if (comm.log.length !== 2 || comm.log.some((l) => l.elements !== c.N * c.h) || bytes !== want) {
            fail(`the World logged ${comm.log.length} all-reduce(s) of ${comm.log.map((l) => l.elements).join(", ")} elements, ${bytes} bytes; Megatron's block needs exactly 2 of N·h = ${c.N * c.h} (g forward, f backward), ${want} bytes (T = ${c.T})`, `no communication between the two linear layers; weight gradients need none (${HINT})`);
          }
        }
    } },
    { name: "T does not divide H; shards not one per rank", points: 1, run: async (f) => {
        const expectRange = async (args: Parameters<F>, re: RegExp) => {
          try { await f(...args); } catch (e) {
            if (isNotImplemented(e)) throw e;
            if (!(e instanceof RangeError)) fail(`threw ${(e as Error)?.name}: "${(e as Error)?.message}", expected a RangeError`, "throw new RangeError(…)");
            if (!re.test((e as Error).message)) fail(`threw "${(e as Error).message}", expected a message matching ${re}`);
            return;
          }
          fail(`returned instead of throwing a RangeError matching ${re}`);
        };
        const sh = shardsOf(new Float32Array(12), new Float32Array(6), new Float32Array(12), new Float32Array(2), 2, 6, 1);
        await expectRange([group(4).g, [...sh, ...sh, ...sh, ...sh], new Float32Array(2), new Float32Array(2), { N: 1, h: 2, H: 6 }], /^H \(6\) must be divisible by T \(4\)$/);
        await expectRange([group(2).g, sh, new Float32Array(2), new Float32Array(2), { N: 1, h: 2, H: 6 }], /^shards must hold one shard per rank \(T = 2\), got 1$/);
    } },
    { name: "trains to the same weights as one device (T = 2, 4)", points: 7, run: async (f) => {
        for (const T of [2, 4]) {
          const { maxDiff, losses } = await trainWith(f, T, 8);
          const bad = losses.findIndex(([a, b]) => !(Math.abs(a - b) <= 1e-4));
          if (bad >= 0) fail(`T = ${T}: step ${bad} loss ${losses[bad][1]} with your block, ${losses[bad][0]} on one device`, HINT);
          if (!(maxDiff <= 1e-4)) fail(`T = ${T}: after 8 AdamW steps the weights differ from one device by up to ${maxDiff} (≤ 1e-4 expected)`, HINT);
        }
    } },
  ],
});
