import { broadcast, DEFAULT_COST_MODEL, type CostModel } from "../collectives/index.js";
import { matmul } from "../nn/index.js";
import { divide } from "./shard.js";

/**
 * What {@link summa2d} returns.
 * @see {@link summa2d}
 */
export interface SummaResult {
  /** The product C = A·B (M, N), assembled from the q² blocks. */
  C: Float32Array;
  /** Broadcasts run: 2q per step, q steps. */
  broadcasts: number;
  /** Bytes sent by all ranks together (the World's event logs). */
  bytes: number;
  /** Simulated time in seconds (the q row and q column broadcasts of a step run at the same time; steps in sequence). */
  timeS: number;
  /** Elements one rank keeps: its A, B and C blocks plus the two received blocks. */
  elementsPerRank: number;
}

/** Block (bi, bj) of a (rows, cols) matrix cut into q × q blocks. */
function blockOf(m: Float32Array, rows: number, cols: number, q: number, bi: number, bj: number): Float32Array {
  const r = rows / q, c = cols / q, out = new Float32Array(r * c);
  for (let i = 0; i < r; i++) out.set(m.subarray((bi * r + i) * cols + bj * c, (bi * r + i) * cols + (bj + 1) * c), i * c);
  return out;
}

/**
 * C = A·B on a q × q grid of simulated ranks with SUMMA, the matmul of
 * Colossal-AI's 2D tensor parallelism (Optimus): rank (i, j) holds block (i, j)
 * of A (M, K), B (K, N) and C (M, N). In step k = 0 … q−1, rank (i, k) broadcasts
 * A_ik along grid row i and rank (k, j) broadcasts B_kj along grid column j
 * (binomial trees on lib/collectives' World), and every rank adds A_ik·B_kj into C_ij.
 * Communication: q steps × 2q broadcasts, (q−1)·(M·K + K·N) elements in total;
 * memory per rank (M·K + K·N + M·N)/q² plus two received blocks, against 1D
 * tensor parallelism on T = q² ranks, where every rank holds the whole input (M·K).
 * Float32: C agrees with the plain product within (K + q)·2⁻²³·Σ|a·b| per element
 * (the sum over K is split into q partial sums added in order).
 * @param A (M, K) row-major; @param B (K, N) row-major
 * @param q grid side; q divides M, K and N
 * @param cost α-β model (default lib/collectives' DEFAULT_COST_MODEL)
 * @returns the product and the communication counted from the event logs
 * @throws RangeError `M (6) must be divisible by T (4)` (T here is the grid side q); `q must be an integer >= 1, got 0`; `A must have M·K = 12 elements, got 11`
 * @example summa2d(Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8), 2, 2, 2, 2).C // [19, 22, 43, 50]
 * @see van de Geijn & Watts 1997, *SUMMA: Scalable Universal Matrix Multiplication Algorithm*; Xu et al. 2021, *An Efficient 2D Method for Training Super-Large Deep Learning Models* (Optimus, Colossal-AI's 2D tensor parallelism)
 */
export function summa2d(A: Float32Array, B: Float32Array, M: number, K: number, N: number, q: number, cost: CostModel = DEFAULT_COST_MODEL): SummaResult {
  if (!Number.isInteger(q) || q < 1) throw new RangeError(`q must be an integer >= 1, got ${q}`);
  divide("M", M, q); divide("K", K, q); divide("N", N, q);
  if (A.length !== M * K) throw new RangeError(`A must have M·K = ${M * K} elements, got ${A.length}`);
  if (B.length !== K * N) throw new RangeError(`B must have K·N = ${K * N} elements, got ${B.length}`);
  const m = M / q, k = K / q, n = N / q;
  const Cb = Array.from({ length: q * q }, () => new Float32Array(m * n));
  let broadcasts = 0, bytes = 0, timeS = 0;
  for (let s = 0; s < q; s++) {
    const aRecv: Float32Array[][] = [], bRecv: Float32Array[][] = [];
    let stepS = 0;
    for (let i = 0; i < q; i++) { // row i: root (i, s) sends A_is
      const bufs = Array.from({ length: q }, (_, j) => (j === s ? blockOf(A, M, K, q, i, s) : new Float32Array(m * k)));
      const r = broadcast(bufs, { root: s, cost });
      aRecv.push(r.result); broadcasts++; bytes += r.events.reduce((t, e) => t + e.bytes, 0); stepS = Math.max(stepS, r.timeS);
    }
    for (let j = 0; j < q; j++) { // column j: root (s, j) sends B_sj
      const bufs = Array.from({ length: q }, (_, i) => (i === s ? blockOf(B, K, N, q, s, j) : new Float32Array(k * n)));
      const r = broadcast(bufs, { root: s, cost });
      bRecv.push(r.result); broadcasts++; bytes += r.events.reduce((t, e) => t + e.bytes, 0); stepS = Math.max(stepS, r.timeS);
    }
    timeS += stepS;
    for (let i = 0; i < q; i++) for (let j = 0; j < q; j++) {
      const p = matmul(aRecv[i][j], bRecv[j][i], { M: m, K: k, N: n });
      const c = Cb[i * q + j];
      for (let t = 0; t < c.length; t++) c[t] += p[t];
    }
  }
  const C = new Float32Array(M * N);
  for (let i = 0; i < q; i++) for (let j = 0; j < q; j++) for (let r = 0; r < m; r++) C.set(Cb[i * q + j].subarray(r * n, (r + 1) * n), (i * m + r) * N + j * n);
  return { C, broadcasts, bytes, timeS, elementsPerRank: (M * K + K * N + M * N) / (q * q) + m * k + k * n };
}
