import { allGather, reduceScatter, DEFAULT_COST_MODEL, type CollectiveResult, type CostModel } from "../collectives/index.js";
import { matmul } from "../nn/index.js";
import { divide } from "./shard.js";

/**
 * What {@link linear3d} returns: the three results, assembled, and the traffic of each pass.
 * @see {@link linear3d}
 */
export interface Linear3dResult {
  /** Y = X·A (N, out), assembled from the q³ ranks' pieces. */
  Y: Float32Array;
  /** dX = dY·Aᵀ (N, in), assembled. */
  dX: Float32Array;
  /** dA = Xᵀ·dY (in, out), assembled. */
  dA: Float32Array;
  /** Collectives per pass (each runs in q² groups of q ranks at once): 3 forward, 3 backward. */
  collectives: { forward: number; backward: number };
  /** Bytes sent by all q³ ranks together, per pass (the World's event logs). */
  bytes: { forward: number; backward: number };
  /** Elements one rank keeps between the passes: its pieces of X, A and Y. */
  elementsPerRank: number;
}

/** Block (bi, bj) of a (rows, cols) matrix cut into a × b blocks. */
function block(m: Float32Array, rows: number, cols: number, a: number, b: number, bi: number, bj: number): Float32Array {
  const r = rows / a, c = cols / b, out = new Float32Array(r * c);
  for (let i = 0; i < r; i++) out.set(m.subarray((bi * r + i) * cols + bj * c, (bi * r + i) * cols + (bj + 1) * c), i * c);
  return out;
}

/** Writes block (bi, bj) of size (r, c) into m (rows, cols). */
function put(m: Float32Array, cols: number, r: number, c: number, bi: number, bj: number, blk: Float32Array): void {
  for (let i = 0; i < r; i++) m.set(blk.subarray(i * c, (i + 1) * c), (bi * r + i) * cols + bj * c);
}

const sent = (r: CollectiveResult) => r.events.reduce((t, e) => t + e.bytes, 0);

/**
 * One linear layer Y = X·A, forward and backward, with 3D tensor parallelism
 * on q × q × q simulated ranks, as Colossal-AI's `_Linear3D` does it
 * (colossalai/legacy/nn/layer/parallel_3d/_operation.py; Bian et al. 2021).
 *
 * Layout: X (N, in) is cut into q × q blocks X_il, A (in, out) into q × q blocks
 * A_lj; rank (i, j, l) keeps the j-th row piece of X_il and the i-th row piece of
 * A_lj. Forward: all-gather X_il over j, all-gather A_lj over i, multiply, and
 * reduce-scatter the product over l, which leaves rank (i, j, l) the l-th row
 * piece of Y_ij = Σ_l X_il·A_lj. Backward: all-gather dY_ij over l, then
 * reduce-scatter dY_ij·A_ljᵀ over j (giving dX in X's layout) and X_ilᵀ·dY_ij
 * over i (giving dA in A's layout). Each collective runs in q² groups of q ranks.
 *
 * Traffic (ring collectives, all ranks together): forward
 * (q−1)·(N·in + in·out + N·out) elements, backward the same; per rank that is
 * (q−1)/q³ of each tensor per collective, Colossal-AI's 6(q−1)/q³ for the six.
 * Memory per rank: (N·in + in·out + N·out)/q³, against 1D where every rank keeps
 * all of X. Float32: Y and dX, dA differ from the plain products only by the
 * re-association of the sums over l (resp. j, i) into q partial sums.
 * @param X (N, in) row-major; @param A (in, out) row-major; @param dY (N, out)
 * @param q cube side (P = q³ ranks); q² divides N and in, q divides out
 * @param cost α-β model (default lib/collectives' DEFAULT_COST_MODEL)
 * @returns the assembled results and the traffic from the event logs
 * @throws RangeError `N (6) must be divisible by T (4)` (T is q² here); `q must be an integer >= 1, got 0`; `X must have N·in = 8 elements, got 7`
 * @example linear3d(X, A, dY, 4, 4, 2, 2).Y // = matmul(X, A) within float32 re-association
 * @see Bian et al. 2021, *Maximizing Parallelism in Distributed Training for Huge Neural Networks* (arXiv:2105.14450);
 *   Colossal-AI docs/source/en/features/3D_tensor_parallel.md and colossalai/legacy/nn/layer/parallel_3d/_operation.py (`_Linear3D`) at 4f9953be
 */
export function linear3d(X: Float32Array, A: Float32Array, dY: Float32Array, N: number, inF: number, outF: number, q: number, cost: CostModel = DEFAULT_COST_MODEL): Linear3dResult {
  if (!Number.isInteger(q) || q < 1) throw new RangeError(`q must be an integer >= 1, got ${q}`);
  divide("N", N, q * q); divide("in", inF, q * q); divide("out", outF, q);
  if (X.length !== N * inF) throw new RangeError(`X must have N·in = ${N * inF} elements, got ${X.length}`);
  if (A.length !== inF * outF) throw new RangeError(`A must have in·out = ${inF * outF} elements, got ${A.length}`);
  if (dY.length !== N * outF) throw new RangeError(`dY must have N·out = ${N * outF} elements, got ${dY.length}`);
  const n = N / q, k = inF / q, o = outF / q; // block sizes
  const opts = { cost };
  const rank = (i: number, j: number, l: number) => (i * q + j) * q + l;
  // Pieces each rank keeps: the j-th row piece of X_il, the i-th row piece of A_lj.
  const xPiece: Float32Array[] = [], aPiece: Float32Array[] = [];
  for (let i = 0; i < q; i++) for (let j = 0; j < q; j++) for (let l = 0; l < q; l++) {
    xPiece[rank(i, j, l)] = block(block(X, N, inF, q, q, i, l), n, k, q, 1, j, 0);
    aPiece[rank(i, j, l)] = block(block(A, inF, outF, q, q, l, j), k, o, q, 1, i, 0);
  }
  const bytes = { forward: 0, backward: 0 }, collectives = { forward: 0, backward: 0 };
  const run = (pass: "forward" | "backward", r: CollectiveResult) => { bytes[pass] += sent(r); return r.result; };
  // Forward: all-gather X over j and A over i.
  const xFull: Float32Array[] = [], aFull: Float32Array[] = [];
  for (let i = 0; i < q; i++) for (let l = 0; l < q; l++) {
    const g = run("forward", allGather(Array.from({ length: q }, (_, j) => xPiece[rank(i, j, l)]), opts));
    g.forEach((x, j) => { xFull[rank(i, j, l)] = x; });
  }
  for (let j = 0; j < q; j++) for (let l = 0; l < q; l++) {
    const g = run("forward", allGather(Array.from({ length: q }, (_, i) => aPiece[rank(i, j, l)]), opts));
    g.forEach((a, i) => { aFull[rank(i, j, l)] = a; });
  }
  // Multiply, reduce-scatter over l: rank (i, j, l) gets row piece l of Y_ij.
  const Y = new Float32Array(N * outF);
  for (let i = 0; i < q; i++) for (let j = 0; j < q; j++) {
    const parts = Array.from({ length: q }, (_, l) => matmul(xFull[rank(i, j, l)], aFull[rank(i, j, l)], { M: n, K: k, N: o }));
    const rs = run("forward", reduceScatter(parts, opts));
    rs.forEach((y, l) => put(Y, outF, n / q, o, i * q + l, j, y));
  }
  collectives.forward = 3;
  // Backward: all-gather dY_ij over l (dY given in Y's layout).
  const dX = new Float32Array(N * inF), dA = new Float32Array(inF * outF);
  const dyFull: Float32Array[] = [];
  for (let i = 0; i < q; i++) for (let j = 0; j < q; j++) {
    const pieces = Array.from({ length: q }, (_, l) => block(block(dY, N, outF, q, q, i, j), n, o, q, 1, l, 0));
    run("backward", allGather(pieces, opts)).forEach((d, l) => { dyFull[rank(i, j, l)] = d; });
  }
  // dX_il = Σ_j dY_ij·A_ljᵀ: reduce-scatter over j, rank (i, j, l) gets row piece j (X's layout).
  for (let i = 0; i < q; i++) for (let l = 0; l < q; l++) {
    const parts = Array.from({ length: q }, (_, j) => matmul(dyFull[rank(i, j, l)], aFull[rank(i, j, l)], { M: n, K: o, N: k, transB: true }));
    run("backward", reduceScatter(parts, opts)).forEach((d, j) => put(dX, inF, n / q, k, i * q + j, l, d));
  }
  // dA_lj = Σ_i X_ilᵀ·dY_ij: reduce-scatter over i, rank (i, j, l) gets row piece i (A's layout).
  for (let j = 0; j < q; j++) for (let l = 0; l < q; l++) {
    const parts = Array.from({ length: q }, (_, i) => matmul(xFull[rank(i, j, l)], dyFull[rank(i, j, l)], { M: k, K: n, N: o, transA: true }));
    run("backward", reduceScatter(parts, opts)).forEach((d, i) => put(dA, outF, k / q, o, l * q + i, j, d));
  }
  collectives.backward = 3;
  return { Y, dX, dA, collectives, bytes, elementsPerRank: (N * inF + inF * outF + N * outF) / q ** 3 };
}
