/**
 * Reference attention on the CPU: O = softmax(scale·QKᵀ + mask)·V, computed
 * the standard way (the paper's Algorithm 0: S and P materialised, N×N) in
 * float64 and returned as float32, with the slow-memory traffic of each phase.
 */
import { checkBytes, ioCount, type IoCount } from "./ioCounts.js";
import { resolveQKV, type AttentionOptions, type AttentionShape } from "./shape.js";

/**
 * Output of an attention forward pass.
 * @see the sources of {@link referenceAttention}: Dao et al. 2022, FlashAttention, Algorithm 0
 */
export interface AttentionResult {
  /** (B, H, Nq, d); rows whose keys are all masked are 0. */
  O: Float32Array;
  /** (B, H, Nq): log Σⱼ exp(Sᵢⱼ) over kept keys; −Infinity for a fully masked row. */
  lse: Float32Array;
  /** Slow-memory reads and writes counted by the loops. */
  io: IoCount;
}

/**
 * Options of {@link referenceAttention}.
 * @see the sources of {@link referenceAttention}: Dao et al. 2022, FlashAttention, Algorithm 0
 */
export interface ReferenceOptions extends AttentionOptions {
  /** Bytes per element for the IO counters; default 4 (fp32). */
  bytesPerElement?: number;
  /** Count the IO of the loops without doing the arithmetic (O and lse stay 0). */
  countOnly?: boolean;
}

/**
 * Standard attention for (B, H, N, d) tensors, the oracle of this chapter.
 *
 * Sᵢⱼ = scale·qᵢ·kⱼ for kept (i, j), −∞ otherwise; Pᵢⱼ = exp(Sᵢⱼ − maxⱼ Sᵢⱼ) / Σ;
 * O = PV; lseᵢ = log Σⱼ exp(Sᵢⱼ). A row with no kept key gets O = 0 and
 * lse = −∞ (flash-attn: "If the row of the mask is all zero, the output will
 * be zero"), never NaN. IO per head: read Q, K, write S; read S, write P;
 * read P, V, write O (see standardAttentionIO).
 * @param q queries (B, H, Nq, d)
 * @param k keys (B, H, Nk, d)
 * @param v values (B, H, Nk, d)
 * @param shape B, H, Nq, Nk, d
 * @param o causal ("bottom-right" | "top-left"), scale (default 1/√d), mask (Nq, Nk), bytesPerElement, countOnly
 * @returns {O, lse, io}
 * @throws RangeError from resolveQKV, e.g. `q must have length 8 (B·H·Nq·d), got 7`
 * @example referenceAttention(new Float32Array([1, 0]), new Float32Array([1, 0]), new Float32Array([3, 4]), {B: 1, H: 1, Nq: 1, Nk: 1, d: 2}).O // Float32Array [3, 4]
 * @see Dao et al. 2022, FlashAttention, Algorithm 0
 */
export function referenceAttention(q: Float32Array, k: Float32Array, v: Float32Array, shape: AttentionShape, o: ReferenceOptions = {}): AttentionResult {
  const { scale, keep } = resolveQKV(q, k, v, shape, o);
  checkBytes(o.bytesPerElement ?? 4);
  const { B, H, Nq, Nk, d } = shape;
  const O = new Float32Array(B * H * Nq * d);
  const lse = new Float32Array(B * H * Nq);
  let reads = 0;
  let writes = 0;
  const S = o.countOnly ? new Float64Array(0) : new Float64Array(Nq * Nk); // (Nq, Nk), reused as P
  for (let bh = 0; bh < B * H; bh++) {
    const qo = bh * Nq * d; // offset of (b, h) in (B, H, Nq, d)
    const ko = bh * Nk * d; // offset of (b, h) in (B, H, Nk, d)
    // Phase 1: read Q and K, write S = scale·QKᵀ.
    reads += Nq * d + Nk * d;
    writes += Nq * Nk;
    // Phase 2: read S, write P = softmax(S).
    reads += Nq * Nk;
    writes += Nq * Nk;
    // Phase 3: read P and V, write O = PV.
    reads += Nq * Nk + Nk * d;
    writes += Nq * d;
    if (o.countOnly) continue;
    for (let i = 0; i < Nq; i++) {
      for (let j = 0; j < Nk; j++) {
        let s = 0;
        for (let x = 0; x < d; x++) s += q[qo + i * d + x] * k[ko + j * d + x];
        S[i * Nk + j] = keep(i, j) ? scale * s : -Infinity; // (Nq, Nk)
      }
    }
    for (let i = 0; i < Nq; i++) {
      let m = -Infinity;
      for (let j = 0; j < Nk; j++) m = Math.max(m, S[i * Nk + j]);
      if (m === -Infinity) {
        for (let j = 0; j < Nk; j++) S[i * Nk + j] = 0;
        lse[bh * Nq + i] = -Infinity;
        continue;
      }
      let l = 0;
      for (let j = 0; j < Nk; j++) l += Math.exp(S[i * Nk + j] - m);
      for (let j = 0; j < Nk; j++) S[i * Nk + j] = Math.exp(S[i * Nk + j] - m) / l; // P
      lse[bh * Nq + i] = m + Math.log(l);
    }
    for (let i = 0; i < Nq; i++) {
      for (let x = 0; x < d; x++) {
        let acc = 0;
        for (let j = 0; j < Nk; j++) acc += S[i * Nk + j] * v[ko + j * d + x];
        O[qo + i * d + x] = acc; // (B, H, Nq, d)
      }
    }
  }
  return { O, lse, io: ioCount(reads, writes, o.bytesPerElement ?? 4) };
}
