import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { matmul, mulberry32, gaussian, residualMlp } from "../nn/index.js";
import { TpComm } from "./comm.js";
import { ColumnParallelLinear } from "./ColumnParallelLinear.js";
import { RowParallelLinear } from "./RowParallelLinear.js";
import { TensorParallelMlp } from "./TensorParallelMlp.js";
import { splitColumns, splitRows, concatColumns, concatRows } from "./shard.js";
import { tpCommPerLayer } from "./cost.js";

const rand = (n: number, rng: () => number) => Float32Array.from({ length: n }, () => gaussian(rng));
const reps = (x: Float32Array, T: number) => Array.from({ length: T }, () => x.slice());
/** Unsharded y = xW + b, as lib/nn's linear computes it. */
function dense(x: Float32Array, W: Float32Array, b: Float32Array | null, N: number, I: number, O: number): Float32Array {
  const y = matmul(x, W, { M: N, K: I, N: O });
  if (b) for (let i = 0; i < N; i++) for (let j = 0; j < O; j++) y[i * O + j] += b[j];
  return y;
}
/** Per-element float32 bound (K + T)·2⁻²³·Σ|a_k b_k| of a re-associated dot product (Higham 2002 §3.1). */
function bound(a: Float32Array, b: Float32Array, M: number, K: number, N: number, T: number): Float32Array {
  const out = new Float32Array(M * N);
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) { let s = 0; for (let k = 0; k < K; k++) s += Math.abs(a[i * K + k] * b[k * N + j]); out[i * N + j] = (K + T + 2) * 2 ** -23 * s + 1e-30; }
  return out;
}
function within(got: Float32Array, want: Float32Array, tol: Float32Array | number): boolean {
  return got.length === want.length && got.every((g, i) => Math.abs(g - want[i]) <= (typeof tol === "number" ? tol : tol[i]));
}
function transpose(m: Float32Array, r: number, c: number): Float32Array { const t = new Float32Array(m.length); for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) t[j * r + i] = m[i * c + j]; return t; }

describe("shards", () => {
  it("splitColumns/concatColumns and splitRows/concatRows are inverses (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer(), (rows, c, T, seed) => {
      const m = rand(rows * c * T, mulberry32(seed));
      expect(concatColumns(splitColumns(m, rows, c * T, T), rows)).toEqual(m);
      const m2 = rand(rows * T * c, mulberry32(seed + 1));
      expect(concatRows(splitRows(m2, rows * T, c, T))).toEqual(m2);
    }));
  });
  it("names the dimension that does not divide", () => {
    expect(() => splitColumns(new Float32Array(6), 2, 3, 2)).toThrow("cols (3) must be divisible by T (2)");
    expect(() => splitRows(new Float32Array(6), 3, 2, 2)).toThrow("rows (3) must be divisible by T (2)");
  });
});

describe("ColumnParallelLinear", () => {
  it("worked example: [2]·[[1, 2, 3, 4]] on 2 ranks gives [2, 4] and [6, 8]", () => {
    const col = new ColumnParallelLinear(new TpComm(2), new Float32Array([1, 2, 3, 4]), null, 1, 4);
    expect(col.forward([new Float32Array([2]), new Float32Array([2])], 1).map((y) => [...y])).toEqual([[2, 4], [6, 8]]);
  });

  it("forward and weight gradients equal the unsharded layer bit for bit; dX within the float32 bound; f logs one backward all-reduce (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 3 }), fc.integer(), (T, N, I, c, seed) => {
      const rng = mulberry32(seed), O = c * T;
      const x = rand(N * I, rng), W = rand(I * O, rng), b = rand(O, rng), dy = rand(N * O, rng);
      const comm = new TpComm(T);
      const col = new ColumnParallelLinear(comm, W, b, I, O);
      const ys = col.forward(reps(x, T), N);
      expect(concatColumns(ys, N)).toEqual(dense(x, W, b, N, I, O));
      const dxs = col.backward(splitColumns(dy, N, O, T));
      expect(concatColumns(col.weightGrads, I)).toEqual(matmul(x, dy, { M: I, K: N, N: O, transA: true }));
      const dx = matmul(dy, W, { M: N, K: O, N: I, transB: true });
      for (const d of dxs) expect(within(d, dx, bound(dy, transpose(W, I, O), N, O, I, T))).toBe(true);
      expect(comm.log.map((l) => `${l.pass} ${l.collective} ${l.op}`)).toEqual(T === 1 ? [] : ["backward all-reduce f"]);
    }));
  });

  it("gatherOutput all-gathers the (N, out) output on every rank", () => {
    const rng = mulberry32(3), x = rand(6, rng), W = rand(3 * 4, rng);
    const comm = new TpComm(2);
    const ys = new ColumnParallelLinear(comm, W, null, 3, 4, { gatherOutput: true }).forward(reps(x, 2), 2);
    for (const y of ys) expect(y).toEqual(dense(x, W, null, 2, 3, 4));
    expect(comm.log.map((l) => l.collective)).toEqual(["all-gather"]);
  });

  it("rejects an output size T does not divide, naming the field", () => {
    expect(() => new ColumnParallelLinear(new TpComm(4), new Float32Array(12), null, 2, 6)).toThrow("outFeatures (6) must be divisible by T (4)");
    expect(() => new ColumnParallelLinear(new TpComm(2), new Float32Array(4), null, 1, 4).backward([])).toThrow("backward called before forward");
  });
});

describe("RowParallelLinear", () => {
  it("worked example: [1, 1]·[[1, 2], [3, 4]] on 2 ranks gives [4, 6] on both", () => {
    const row = new RowParallelLinear(new TpComm(2), new Float32Array([1, 2, 3, 4]), null, 2, 2);
    expect(row.forward([new Float32Array([1]), new Float32Array([1])], 1).map((y) => [...y])).toEqual([[4, 6], [4, 6]]);
  });

  it("forward within the float32 bound of the unsharded layer; dW and dX blocks bit for bit; g logs one forward all-reduce (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 6 }), fc.integer(), (T, N, q, O, seed) => {
      const rng = mulberry32(seed), I = q * T;
      const x = rand(N * I, rng), W = rand(I * O, rng), b = rand(O, rng), dy = rand(N * O, rng);
      const comm = new TpComm(T);
      const row = new RowParallelLinear(comm, W, b, I, O);
      const ys = row.forward(splitColumns(x, N, I, T), N);
      const tol = bound(x, W, N, I, O, T).map((t, i) => t + 2 ** -23 * Math.abs(b[i % O]) * 2);
      for (const y of ys) expect(within(y, dense(x, W, b, N, I, O), tol)).toBe(true);
      const dxs = row.backward(reps(dy, T));
      expect(concatRows(row.weightGrads)).toEqual(matmul(x, dy, { M: I, K: N, N: O, transA: true }));
      expect(concatColumns(dxs, N)).toEqual(matmul(dy, W, { M: N, K: O, N: I, transB: true }));
      expect(comm.log.map((l) => `${l.pass} ${l.collective} ${l.op}`)).toEqual(T === 1 ? [] : ["forward all-reduce g"]);
    }));
  });

  it("rejects an input size T does not divide, naming the field", () => {
    expect(() => new RowParallelLinear(new TpComm(2), new Float32Array(6), null, 3, 2)).toThrow("inFeatures (3) must be divisible by T (2)");
  });
});

describe("TensorParallelMlp against lib/nn's residual MLP (oracle)", () => {
  const h = 6, H = 12, N = 8;
  const ref = residualMlp("m", h, H, mulberry32(11));
  const [W1, b1, W2, b2] = ref.params;
  for (const p of [b1, b2]) p.data.set(rand(p.data.length, mulberry32(5)).map((v) => 0.1 * v)); // non-zero biases
  const rng = mulberry32(12);
  const x = rand(N * h, rng), dy = rand(N * h, rng);
  const fwd = ref.forward({ data: x, rows: N, cols: h }, { precision: { compute: "fp32", accumulate: "fp32" }, matmul });
  const dxRef = ref.backward(fwd.saved, { data: dy, rows: N, cols: h }, { precision: { compute: "fp32", accumulate: "fp32" }, matmul })!.data;
  const w = { W1: W1.data, b1: b1.data, W2: W2.data, b2: b2.data };

  for (const T of [1, 2, 3, 4, 6]) for (const sp of [false, true]) {
    if (sp && N % T !== 0) continue;
    it(`T = ${T}${sp ? ", sequence parallel" : ""}: output, dx and every gradient within 1e-5 of lib/nn; the log matches tpCommPerLayer (one region)`, () => {
      const comm = new TpComm(T, undefined, 4);
      const mlp = new TensorParallelMlp(comm, w, h, H, { sequenceParallel: sp });
      const xs = sp ? splitRows(x, N, h, T) : reps(x, T);
      const ys = mlp.forward(xs, N);
      const dxs = mlp.backward(sp ? splitRows(dy, N, h, T) : reps(dy, T));
      const y = sp ? concatRows(ys) : ys[0], dx = sp ? concatRows(dxs) : dxs[0];
      expect(within(y, fwd.y.data, 1e-5)).toBe(true);
      expect(within(dx, dxRef, 1e-5)).toBe(true);
      if (!sp) for (let r = 1; r < T; r++) expect(ys[r]).toEqual(ys[0]);
      expect(within(concatColumns(mlp.col.weightGrads, h), W1.grad, 1e-5)).toBe(true);
      expect(within(concatColumns(mlp.col.biasGrads!, 1), b1.grad, 1e-5)).toBe(true);
      expect(within(concatRows(mlp.row.weightGrads), W2.grad, 1e-5)).toBe(true);
      expect(within(mlp.row.biasGrads![T - 1], b2.grad, 1e-5)).toBe(true);
      // communication read from the World's event log equals the closed form
      const measured = new Map<string, { count: number; bytes: number }>();
      for (const l of comm.log) { const k = `${l.pass} ${l.collective}`; const m = measured.get(k) ?? { count: 0, bytes: 0 }; m.count++; m.bytes += l.bytes; measured.set(k, m); }
      const closed = tpCommPerLayer({ tokens: N, hiddenSize: h, T, sequenceParallel: sp, bytesPerElement: 4, regions: 1 });
      expect(Object.fromEntries(measured)).toEqual(Object.fromEntries(closed.map((r) => [`${r.pass} ${r.collective}`, { count: r.count, bytes: r.bytesTotal }])));
    });
  }

  it("sequence parallelism moves the same forward bytes as the all-reduce it replaces", () => {
    const a = tpCommPerLayer({ tokens: 8, hiddenSize: 6, T: 4 }), b = tpCommPerLayer({ tokens: 8, hiddenSize: 6, T: 4, sequenceParallel: true });
    const fwd = (rows: typeof a) => rows.filter((r) => r.pass === "forward").reduce((s, r) => s + r.bytesTotal, 0);
    expect(fwd(b)).toBe(fwd(a));
  });

  it("rejects an FFN size T does not divide", () => {
    expect(() => new TensorParallelMlp(new TpComm(5), w, h, H)).toThrow("outFeatures (12) must be divisible by T (5)");
  });
});

describe("shard helpers", () => {
  it("addBiasRows adds the bias to each row; columnSums sums the rows; checkRows names the field", async () => {
    const { addBiasRows, columnSums, checkRows } = await import("./shard.js");
    const y = new Float32Array([1, 2, 3, 4]);
    addBiasRows(y, new Float32Array([10, 20]), 2, 2);
    expect([...y]).toEqual([11, 22, 13, 24]);
    expect([...columnSums(new Float32Array([1, 2, 3, 4]), 2, 2)]).toEqual([4, 6]);
    expect(() => checkRows("rows", 0)).toThrow("rows must be an integer >= 1, got 0");
  });
});
