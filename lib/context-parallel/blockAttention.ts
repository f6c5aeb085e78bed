/**
 * One step of ring attention on one rank: its queries against the key/value
 * block it holds now, with the mask given by the tokens' global positions;
 * and the same step backward. Built on chapter 10's reference attention and
 * FlashAttention's backward pass.
 */
import { referenceAttention } from "../flash-attention/referenceAttention.js";
import { flashAttentionBackward } from "../flash-attention/flashAttentionBackward.js";
import type { AttentionGradients } from "../flash-attention/referenceAttentionBackward.js";
import type { AttentionPartial } from "./mergeAttentionPartials.js";

/**
 * Masking of a block, in global positions: causal (key position ≤ query position) and,
 * optionally, a document mask (both tokens in the same document), as Llama 3 trains.
 * @see the sources of {@link positionMask}
 */
export interface BlockMaskOptions {
  /** Keep key j for query i only if kPos[j] ≤ qPos[i]. */
  causal?: boolean;
  /** Document id of every global position (length ≥ the largest position + 1): keep only pairs in the same document. */
  docIds?: ArrayLike<number>;
  /** Softmax scale; default 1/√d. */
  scale?: number;
}

/**
 * Sizes of one block step: B, H, nq query rows and nk key rows of width d on this rank.
 * @see the sources of {@link blockAttention}
 */
export interface BlockDims {
  B: number;
  H: number;
  nq: number;
  nk: number;
  d: number;
}

/**
 * The (nq, nk) keep mask of a block from the global positions of its queries and keys.
 * @param qPos global positions of the nq queries
 * @param kPos global positions of the nk keys
 * @param o causal, docIds
 * @returns (nq, nk) Uint8Array, 1 = keep
 * @throws RangeError `docIds has no entry for position 9`
 * @example positionMask([2, 3], [0, 3], {causal: true}) // Uint8Array [1, 0, 1, 1]
 * @see Brandon et al. 2023, *Striped Attention*, §3 (the causal mask in the permuted order); Dubey et al. 2024, *The Llama 3 Herd of Models*, §3.3.2 (document masks)
 */
export function positionMask(qPos: readonly number[], kPos: readonly number[], o: BlockMaskOptions = {}): Uint8Array {
  const docs = o.docIds;
  if (docs) for (const p of [...qPos, ...kPos]) if (!(p < docs.length)) throw new RangeError(`docIds has no entry for position ${p}`);
  const mask = new Uint8Array(qPos.length * kPos.length);
  qPos.forEach((qp, i) => kPos.forEach((kp, j) => {
    mask[i * kPos.length + j] = (!o.causal || kp <= qp) && (!docs || docs[kp] === docs[qp]) ? 1 : 0;
  }));
  return mask;
}

/**
 * Attention of this rank's queries against one key/value block: the block's partial result.
 *
 * O_blk = softmax(scale·Q K_blkᵀ + mask) V_blk row by row and lse_blk = log Σ exp over the
 * block's kept keys; a row with no kept key in this block gets O = 0, lse = −∞ (it is
 * merged later with {@link mergeAttentionPartials}). This is chapter 10's referenceAttention with
 * the mask of {@link positionMask}.
 * @param q (B, H, nq, d) this rank's queries
 * @param k (B, H, nk, d) the block's keys
 * @param v (B, H, nk, d) the block's values
 * @param dims B, H, nq, nk, d
 * @param qPos global positions of the queries (nq)
 * @param kPos global positions of the keys (nk)
 * @param o causal, docIds, scale
 * @returns {O (B·H·nq·d), lse (B·H·nq)}, new arrays
 * @throws RangeError as referenceAttention, e.g. `q must have length 8 (B·H·Nq·d), got 7`; `qPos must have nq = 2 positions, got 3`
 * @example blockAttention(Float32Array.of(1), Float32Array.of(0, Math.log(3)), Float32Array.of(4, 8), {B: 1, H: 1, nq: 1, nk: 2, d: 1}, [5], [0, 1], {scale: 1})
 *   // {O: [7], lse: [ln 4]}
 * @see Liu et al. 2023, *Ring Attention*, Algorithm 1 (blockwise attention on each host); Dao et al. 2022, *FlashAttention*
 */
export function blockAttention(q: Float32Array, k: Float32Array, v: Float32Array, dims: BlockDims, qPos: readonly number[], kPos: readonly number[], o: BlockMaskOptions = {}): AttentionPartial {
  checkPositions(dims, qPos, kPos);
  const mask = positionMask(qPos, kPos, o);
  const r = referenceAttention(q, k, v, { B: dims.B, H: dims.H, Nq: dims.nq, Nk: dims.nk, d: dims.d }, { mask, scale: o.scale });
  return { O: r.O, lse: r.lse };
}

/**
 * This block's share of the gradients, given the *merged* forward output O and logsumexp lse of the
 * rank's queries (over every key of the sequence): P_blk = exp(scale·Q K_blkᵀ − lse) is then the
 * block's columns of the full softmax, and FlashAttention's backward pass on the block gives
 * dQ's part from these keys and the block's dK, dV from these queries.
 * @param q (B, H, nq, d) this rank's queries
 * @param k (B, H, nk, d) the block's keys
 * @param v (B, H, nk, d) the block's values
 * @param O (B, H, nq, d) the merged forward output of the queries
 * @param dO (B, H, nq, d) its gradient
 * @param lse (B, H, nq) the merged logsumexp
 * @param dims B, H, nq, nk, d
 * @param qPos global positions of the queries
 * @param kPos global positions of the keys
 * @param o causal, docIds, scale (as in the forward pass)
 * @returns {dQ (B·H·nq·d), dK, dV (B·H·nk·d)}: contributions to add, new arrays
 * @throws RangeError as flashAttentionBackward, e.g. `lse must have length 4 (B·H·Nq), got 3`
 * @example blockAttentionBackward(q, k, v, O, dO, lse, dims, qPos, kPos, {causal: true}).dV
 *   // summed over the ring's blocks, equals referenceAttentionBackward on the whole sequence
 * @see zhuzilin/ring-flash-attention `ring_flash_attn/ring_flash_attn.py` (the backward calls
 *   `_flash_attn_backward` with the full `out` and `softmax_lse` on each block), commit 8996282; Dao 2023, *FlashAttention-2*, Algorithm 2
 */
export function blockAttentionBackward(q: Float32Array, k: Float32Array, v: Float32Array, O: Float32Array, dO: Float32Array, lse: Float32Array, dims: BlockDims, qPos: readonly number[], kPos: readonly number[], o: BlockMaskOptions = {}): AttentionGradients {
  checkPositions(dims, qPos, kPos);
  const mask = positionMask(qPos, kPos, o);
  return flashAttentionBackward(q, k, v, O, dO, lse, { B: dims.B, H: dims.H, Nq: dims.nq, Nk: dims.nk, d: dims.d }, { mask, scale: o.scale, M: 4 * dims.d * dims.nk });
}

function checkPositions(dims: BlockDims, qPos: readonly number[], kPos: readonly number[]): void {
  if (qPos.length !== dims.nq) throw new RangeError(`qPos must have nq = ${dims.nq} positions, got ${qPos.length}`);
  if (kPos.length !== dims.nk) throw new RangeError(`kPos must have nk = ${dims.nk} positions, got ${kPos.length}`);
}
