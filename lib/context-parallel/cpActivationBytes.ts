/**
 * Activation memory per GPU under context parallelism: chapter 2's per-layer
 * count for the rank's s/C tokens, plus the key/value buffers the scheme needs
 * while a layer's attention runs.
 */
import { activationBytesPerLayer } from "../memory/activationBytes.js";
import type { CpScheme } from "./cpCommPerLayer.js";

/**
 * Sizes of the layer, the micro-batch and the parallel layout.
 * @see the sources of {@link cpActivationBytes}
 */
export interface CpActivationOptions {
  /** s, tokens per sequence (the whole sequence, before the split). */
  seqLen: number;
  /** C, context-parallel ranks (must divide seqLen). */
  cpSize: number;
  microBatch: number;
  hiddenSize: number;
  numHeads: number;
  /** KV heads (GQA), default numHeads. */
  numKvHeads?: number;
  /** t, tensor-parallel size (default 1). */
  tensorParallel?: number;
  /** Megatron sequence parallelism inside the TP group (default false, as in lib/memory). */
  sequenceParallel?: boolean;
  /** Which buffers attention needs (default "ring"). */
  scheme?: CpScheme;
  /** Bytes of an activation element: 2 (bf16, default) or 4. */
  bytesPerElement?: 2 | 4;
}

/**
 * Activation bytes per GPU of one layer.
 * @see the sources of {@link cpActivationBytes}
 */
export interface CpActivationBytes {
  /** What the layer keeps for backward for its s/C tokens (Korthikanti et al., FlashAttention: no s² term). */
  stored: number;
  /** Key/value buffers alive during the layer's attention: ring 2 received blocks (K and V); all-gather the whole sequence's K and V; ulysses the s tokens' K and V of the rank's heads. */
  kvBuffers: number;
  total: number;
}

/**
 * Activation memory per GPU of one transformer layer with context parallelism.
 *
 * stored = activationBytesPerLayer with seqLen s/C and recompute "selective" (the attention core is
 * not stored: context parallelism runs FlashAttention-style blocks, which keep only O and the
 * logsumexp), so stored falls as 1/C. kvBuffers, with h_kv = (KV heads)·h/a split over t:
 * ring 2·b·(s/C)·h_kv (one K and V block arriving while another is used), all-gather 2·b·s·h_kv
 * (the gathered K and V), ulysses 2·b·s·h_kv/C (every token's K and V for 1/C of the heads);
 * times bytesPerElement. C = 1 gives chapter 2's number and no buffer.
 * @param o see {@link CpActivationOptions}
 * @returns {stored, kvBuffers, total} in bytes
 * @throws RangeError `seqLen (100) must be divisible by cpSize (8)`; those of activationBytesPerLayer
 * @example cpActivationBytes({seqLen: 131072, cpSize: 16, microBatch: 1, hiddenSize: 16384, numHeads: 128, numKvHeads: 8, tensorParallel: 8, sequenceParallel: true}).stored
 *   // = activationBytesPerLayer at seqLen 8192 with t = 8 and SP: Llama 3 405B's 128K stage holds the 8K stage's tokens per GPU
 * @see Korthikanti et al. 2022, Table 2 (lib/memory/activationBytes); Liu et al. 2023, *Ring Attention*, §3 (memory per host);
 *   Dubey et al. 2024, *Llama 3*, Table 4 (CP = 16 at 131,072 tokens)
 */
export function cpActivationBytes(o: CpActivationOptions): CpActivationBytes {
  const C = o.cpSize;
  if (!Number.isSafeInteger(C) || C < 1) throw new RangeError(`cpSize must be an integer >= 1, got ${C}`);
  if (!Number.isSafeInteger(o.seqLen) || o.seqLen % C !== 0) throw new RangeError(`seqLen (${o.seqLen}) must be divisible by cpSize (${C})`);
  const t = o.tensorParallel ?? 1;
  const e = o.bytesPerElement ?? 2;
  const stored = activationBytesPerLayer({
    seqLen: o.seqLen / C, microBatch: o.microBatch, hiddenSize: o.hiddenSize, numHeads: o.numHeads,
    tensorParallel: t, sequenceParallel: o.sequenceParallel ?? false, recompute: "selective", bytesPerElement: e,
  });
  const kvHeads = o.numKvHeads ?? o.numHeads;
  if (!Number.isSafeInteger(kvHeads) || kvHeads < 1 || o.numHeads % kvHeads !== 0) throw new RangeError(`numKvHeads must divide numHeads (${o.numHeads}), got ${kvHeads}`);
  const hKv = (Math.max(kvHeads / t, 1) * o.hiddenSize) / o.numHeads; // KV width on one TP rank (a KV head is never split)
  const scheme = o.scheme ?? "ring";
  if (!["ring", "all-gather", "ulysses"].includes(scheme)) throw new RangeError(`scheme must be ring, all-gather or ulysses, got ${JSON.stringify(scheme)}`);
  const tokens = scheme === "all-gather" ? o.seqLen : o.seqLen / C; // ulysses: s tokens × 1/C of the heads
  const kvBuffers = C === 1 ? 0 : 2 * o.microBatch * tokens * hKv * e;
  return { stored, kvBuffers, total: stored + kvBuffers };
}
