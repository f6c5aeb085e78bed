/**
 * FlashAttention's forward pass (Dao et al. 2022, Algorithm 1) on the CPU,
 * tile by tile, counting every element that crosses between slow memory
 * (HBM: the arrays Q, K, V, O, ℓ, m) and fast memory (SRAM: the tiles).
 */
import { flashBlockSizes } from "./flashBlockSizes.js";
import { flashTileStep } from "./flashTileStep.js";
import { checkBytes, ioCount } from "./ioCounts.js";
import type { AttentionResult } from "./referenceAttention.js";
import { resolveQKV, type AttentionOptions, type AttentionShape } from "./shape.js";

/**
 * Options of {@link flashAttentionForward}.
 * @see the sources of {@link flashAttentionForward}: Dao et al. 2022, FlashAttention, Algorithm 1
 */
export interface FlashOptions extends AttentionOptions {
  /** SRAM size in elements; B_c = ⌈M/4d⌉, B_r = min(B_c, d). */
  M: number;
  /** Bytes per element for the IO counters; default 4 (fp32). */
  bytesPerElement?: number;
  /** Run the loops and count IO without the arithmetic (O and lse stay 0). */
  countOnly?: boolean;
  /** Record the running m, ℓ and O of one query row after every step: head bh (0 ≤ bh < B·H), row. */
  traceRow?: { bh: number; row: number };
}

/**
 * State of the traced row after the outer step j (key block [keyStart, keyEnd)).
 * @see the sources of {@link flashAttentionForward}: Dao et al. 2022, FlashAttention, Algorithm 1
 */
export interface TraceStep {
  j: number;
  keyStart: number;
  keyEnd: number;
  /** Query block index i holding the row, and its rows [rowStart, rowEnd). */
  i: number;
  rowStart: number;
  rowEnd: number;
  m: number;
  l: number;
  O: number[];
}

/**
 * {@link AttentionResult} plus the block sizes, block counts and the trace.
 * @see the sources of {@link flashAttentionForward}: Dao et al. 2022, FlashAttention, Algorithm 1
 */
export interface FlashResult extends AttentionResult {
  Bc: number;
  Br: number;
  Tc: number;
  Tr: number;
  trace: TraceStep[];
}

/**
 * Exact attention by Algorithm 1: outer loop over key/value blocks j (load
 * K_j, V_j), inner loop over query blocks i (load Q_i, O_i, ℓ_i, m_i, apply
 * {@link flashTileStep}, write O_i, ℓ_i, m_i back). Equals referenceAttention
 * up to rounding; fully masked rows give O = 0 and lse = −∞. The counters
 * equal flashAttentionIO(shape, M).
 * @param q queries (B, H, Nq, d)
 * @param k keys (B, H, Nk, d)
 * @param v values (B, H, Nk, d)
 * @param shape B, H, Nq, Nk, d
 * @param o M (SRAM elements), causal, scale, mask (Nq, Nk), bytesPerElement, countOnly, traceRow
 * @returns {O, lse = m + log ℓ, io, Bc, Br, Tc, Tr, trace}
 * @throws RangeError `M must be an integer >= 1, got 0`, `traceRow.row must be an integer in [0, 4), got 4` and those of resolveQKV
 * @example flashAttentionForward(q, k, v, {B: 1, H: 1, Nq: 4, Nk: 4, d: 2}, {M: 16}).Tc // 2
 * @see Dao et al. 2022, FlashAttention, Algorithm 1
 */
export function flashAttentionForward(q: Float32Array, k: Float32Array, v: Float32Array, shape: AttentionShape, o: FlashOptions): FlashResult {
  const { scale, keep } = resolveQKV(q, k, v, shape, o);
  const { B, H, Nq, Nk, d } = shape;
  const { Bc, Br } = flashBlockSizes(o.M, d);
  checkBytes(o.bytesPerElement ?? 4);
  const tr = o.traceRow;
  if (tr && (!Number.isInteger(tr.bh) || tr.bh < 0 || tr.bh >= B * H)) throw new RangeError(`traceRow.bh must be an integer in [0, ${B * H}), got ${tr.bh}`);
  if (tr && (!Number.isInteger(tr.row) || tr.row < 0 || tr.row >= Nq)) throw new RangeError(`traceRow.row must be an integer in [0, ${Nq}), got ${tr.row}`);
  const Tc = Math.ceil(Nk / Bc);
  const Tr = Math.ceil(Nq / Br);
  const O = new Float32Array(B * H * Nq * d);
  const lse = new Float32Array(B * H * Nq);
  const trace: TraceStep[] = [];
  let reads = 0;
  let writes = 0;
  const rows = (a: ArrayLike<number>, off: number, from: number, to: number): number[][] =>
    Array.from({ length: to - from }, (_, r) => Array.from({ length: d }, (_, x) => a[off + (from + r) * d + x]));
  for (let bh = 0; bh < B * H; bh++) {
    const qo = bh * Nq * d; // offset of (b, h) in (B, H, Nq, d)
    const ko = bh * Nk * d; // offset of (b, h) in (B, H, Nk, d)
    // Line 2: O = 0 (Nq×d), ℓ = 0, m = −∞ (Nq) in HBM.
    const Ohbm = new Float64Array(o.countOnly ? 0 : Nq * d);
    const lhbm = new Float64Array(o.countOnly ? 0 : Nq);
    const mhbm = new Float64Array(o.countOnly ? 0 : Nq).fill(-Infinity);
    writes += Nq * d + 2 * Nq;
    for (let j = 0; j < Tc; j++) {
      const c0 = j * Bc;
      const c1 = Math.min(Nk, c0 + Bc);
      reads += 2 * (c1 - c0) * d; // line 6: load K_j, V_j
      const Kj = o.countOnly ? [] : rows(k, ko, c0, c1);
      const Vj = o.countOnly ? [] : rows(v, ko, c0, c1);
      for (let i = 0; i < Tr; i++) {
        const r0 = i * Br;
        const r1 = Math.min(Nq, r0 + Br);
        reads += 2 * (r1 - r0) * d + 2 * (r1 - r0); // line 8: load Q_i, O_i, ℓ_i, m_i
        writes += (r1 - r0) * d + 2 * (r1 - r0); // lines 12–13: write O_i, ℓ_i, m_i
        if (o.countOnly) continue;
        const next = flashTileStep({
          Q: rows(q, qo, r0, r1), K: Kj, V: Vj,
          O: rows(Ohbm, 0, r0, r1), l: Array.from(lhbm.subarray(r0, r1)), m: Array.from(mhbm.subarray(r0, r1)),
          scale,
          keep: Array.from({ length: r1 - r0 }, (_, r) => Array.from({ length: c1 - c0 }, (_, c) => keep(r0 + r, c0 + c))),
        });
        for (let r = 0; r < r1 - r0; r++) {
          for (let x = 0; x < d; x++) Ohbm[(r0 + r) * d + x] = next.O[r][x]; // (Nq, d)
          lhbm[r0 + r] = next.l[r];
          mhbm[r0 + r] = next.m[r];
        }
        if (tr && tr.bh === bh && tr.row >= r0 && tr.row < r1) {
          trace.push({ j, keyStart: c0, keyEnd: c1, i, rowStart: r0, rowEnd: r1, m: mhbm[tr.row], l: lhbm[tr.row], O: Array.from(Ohbm.subarray(tr.row * d, tr.row * d + d)) });
        }
      }
    }
    if (o.countOnly) continue;
    for (let r = 0; r < Nq; r++) {
      lse[bh * Nq + r] = lhbm[r] > 0 ? mhbm[r] + Math.log(lhbm[r]) : -Infinity;
      for (let x = 0; x < d; x++) O[qo + r * d + x] = Ohbm[r * d + x]; // (B, H, Nq, d)
    }
  }
  return { O, lse, io: ioCount(reads, writes, o.bytesPerElement ?? 4), Bc, Br, Tc, Tr, trace };
}
