/**
 * The inverse problem of the ring's overlap: the fewest tokens per rank for
 * which every block's attention takes at least as long as sending the next
 * key/value block, so that the ring costs no time.
 */
import { validateCostModel, type CostModel } from "../collectives/costModel.js";
import type { CpLayout } from "./sequenceShards.js";

/**
 * The model, the link and the split.
 * @see the sources of {@link minTokensPerRank}
 */
export interface OverlapOptions {
  hiddenSize: number;
  numHeads: number;
  numKvHeads: number;
  microBatch: number;
  /** Bytes per element of K and V on the wire. */
  bytesPerElement: number;
  /** Sustained FLOP/s of one GPU on attention. */
  deviceFlopsPerS: number;
  /** α-β link between neighbours of the ring. */
  cost: CostModel;
  cpSize: number;
  layout: CpLayout;
  causal: boolean;
}

/**
 * Fewest kept (query, key) pairs of any rank at a step s ≤ C − 2 (a step whose compute must hide
 * the transfer of the next block), for c tokens per rank: a·c² + b·c.
 */
function leastStepWork(layout: CpLayout, causal: boolean, C: number): { a: number; b: number } {
  if (!causal) return { a: 1, b: 0 }; // c² everywhere
  if (layout === "contiguous") return C === 2 ? { a: 0.5, b: 0.5 } : { a: 0, b: 0 }; // rank 0 idles from step 1
  if (layout === "zigzag") return C === 2 ? { a: 0.5, b: 0.5 } : { a: 0.5, b: 0 }; // step 0: c²/2 + c/2; later c²/2
  return C === 2 ? { a: 0.5, b: 0.5 } : { a: 0.5, b: -0.5 }; // striped: c(c+1)/2 at step 0, c(c−1)/2 when the block's owner is after the rank
}

/**
 * Smallest c (tokens per rank, seqLen = c·C) for which the forward ring is fully hidden.
 *
 * At each step s = 0 … C−2 every rank computes its block while the next one arrives. Computing w kept
 * pairs costs 4·w·h·b FLOPs (QKᵀ and PV: 2·d_head FLOPs each per pair and head); the transfer of one
 * rank's K and V costs α + 2·c·h_kv·b·e/B seconds (h_kv = KV heads · h/a). The ring is hidden when
 * 4·w_min(c)·h·b/F ≥ α + 2·c·h_kv·b·e/B, where w_min(c) is the least work of any rank at such a step
 * (c² without a mask; with a causal mask it depends on the layout). A tie counts as hidden (relative
 * tolerance 1e-12). With α = 0, no mask and h_kv = h this is Liu et al.'s c ≥ F·e/(2B) (c ≥ F/B in bf16).
 * c must make a valid split: even for zigzag (2·C chunks). C = 1 sends nothing: the smallest valid c.
 * Returns Infinity when no c works (a rank with no work at such a step: contiguous causal shards with C ≥ 3).
 * @param o hiddenSize, numHeads, numKvHeads, microBatch, bytesPerElement, deviceFlopsPerS, cost, cpSize, layout, causal
 * @returns c, an integer (or Infinity)
 * @throws RangeError `deviceFlopsPerS must be a finite number > 0, got 0`; `cpSize must be an integer >= 1, got 0`;
 *   `layout must be contiguous, zigzag or striped, got "x"`; the cost-model errors
 * @example minTokensPerRank({hiddenSize: 4096, numHeads: 32, numKvHeads: 32, microBatch: 1, bytesPerElement: 2,
 *   deviceFlopsPerS: 312e12, cost: {alphaS: 0, bandwidthBytesPerS: 300e9}, cpSize: 8, layout: "contiguous", causal: false}) // 1040 = F/B
 * @see Liu et al. 2023, *Ring Attention with Blockwise Transformers*, §3 "Arithmetic intensity between hosts" (block size c ≥ F/B);
 *   Brandon et al. 2023, *Striped Attention*, §3 (per-round causal work)
 */
export function minTokensPerRank(o: OverlapOptions): number {
  for (const k of ["hiddenSize", "numHeads", "numKvHeads", "microBatch", "cpSize"] as const) {
    if (!Number.isSafeInteger(o[k]) || o[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${o[k]}`);
  }
  for (const k of ["bytesPerElement", "deviceFlopsPerS"] as const) {
    if (typeof o[k] !== "number" || !Number.isFinite(o[k]) || o[k] <= 0) throw new RangeError(`${k} must be a finite number > 0, got ${o[k]}`);
  }
  if (!["contiguous", "zigzag", "striped"].includes(o.layout)) throw new RangeError(`layout must be contiguous, zigzag or striped, got ${JSON.stringify(o.layout)}`);
  const { alphaS, bandwidthBytesPerS: B } = validateCostModel(o.cost);
  const step = o.layout === "zigzag" ? 2 : 1;
  if (o.cpSize === 1) return step;
  const h = o.hiddenSize, hKv = (o.numKvHeads * h) / o.numHeads, b = o.microBatch;
  const { a, b: lin } = leastStepWork(o.layout, o.causal, o.cpSize);
  const computeS = (c: number) => (4 * (a * c * c + lin * c) * h * b) / o.deviceFlopsPerS;
  const sendS = (c: number) => alphaS + (2 * c * hKv * b * o.bytesPerElement) / B;
  const hidden = (c: number) => computeS(c) >= sendS(c) * (1 - 1e-12);
  if (a === 0) return Infinity;
  // computeS − sendS = A c² + Bq c − α ≥ 0: start just below the positive root, then walk up in valid steps.
  const A = (4 * a * h * b) / o.deviceFlopsPerS, Bq = (4 * lin * h * b) / o.deviceFlopsPerS - (2 * hKv * b * o.bytesPerElement) / B;
  const root = (-Bq + Math.sqrt(Bq * Bq + 4 * A * alphaS)) / (2 * A);
  let c = Math.max(step, step * Math.floor(Math.max(0, root) / step) - 2 * step);
  while (c > step && hidden(c - step)) c -= step;
  while (!hidden(c)) c += step;
  return c;
}
