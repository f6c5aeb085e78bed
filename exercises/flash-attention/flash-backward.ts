import { notImplemented } from "../harness/index.js";

/** The tensors in slow memory: inputs Q, K, V, O, dO, L (read-only), scratch D, outputs dQ, dK, dV. */
export type SlowTensorName = "Q" | "K" | "V" | "O" | "dO" | "L" | "D" | "dQ" | "dK" | "dV";

/**
 * The GPU's slow memory (HBM), as the grader passes it in. Every element you
 * read or write through it is counted.
 */
export interface SlowMemory {
  /**
   * Rows [r0, r1) of head bh (bh = b·H + h) of a tensor, as a NEW Float32Array,
   * row-major: (r1 − r0)·d values, or (r1 − r0) for L and D (one per query row).
   */
  read(name: SlowTensorName, bh: number, r0: number, r1: number): Float32Array;
  /** Overwrites rows [r0, r1) of head bh of D, dQ, dK or dV with (r1 − r0)·width values. */
  write(name: SlowTensorName, bh: number, r0: number, r1: number, values: ArrayLike<number>): void;
}

/** B batch, H heads, Nq queries, Nk keys, d head dimension. */
export interface AttentionShape {
  B: number;
  H: number;
  Nq: number;
  Nk: number;
  d: number;
}

/** Tile sizes, and the mask and scale the forward pass used. */
export interface TiledBackwardOptions {
  /** Query rows per tile. */
  Br: number;
  /** Key rows per tile. */
  Bc: number;
  /** Causal mask alignment as in exercise 10.4 (absent: no mask). */
  causal?: "bottom-right" | "top-left";
  /** Softmax scale; default 1/√d. */
  scale?: number;
}

/**
 * Exercise 10.5 (build it) — FlashAttention's backward pass, tile by tile.
 *
 * The forward pass O = softmax(scale·QKᵀ + mask)·V left in slow memory Q, K,
 * V, O and the logsumexp L of every query row; the layer above sent
 * dO = ∂ℒ/∂O. Write ∂ℒ/∂Q, ∂ℒ/∂K and ∂ℒ/∂V into dQ, dK and dV, for every head,
 * WITHOUT an Nq×Nk matrix anywhere: on chip you hold tiles of at most Br
 * query rows and Bc key rows (FlashAttention-2, Algorithm 2). The page's
 * section "The backward pass, tile by tile" derives the gradients and the
 * loop; this contract says only what is graded.
 *
 * Memory: `mem` is the only way to reach the tensors (see SlowMemory). Shapes:
 * Q, O, dO, dQ are (B, H, Nq, d); K, V, dK, dV are (B, H, Nk, d); L and the
 * scratch vector D are (B, H, Nq). dQ, dK, dV and D start at 0. The memory
 * throws a RangeError if one access moves more than Br rows of a query-side
 * tensor (Q, O, dO, L, D, dQ) or more than Bc rows of a key-side one (K, V,
 * dK, dV): it would not fit in SRAM. Inputs are read-only.
 *
 * Masking and scale: as the forward pass (o.causal, o.scale = 1/√d by
 * default). A fully masked row has L = −Infinity and contributes nothing to
 * any gradient: no NaN anywhere.
 *
 * Graded: dV, dK and dQ, each against the analytic gradient of standard
 * attention, on random shapes (Nq, Nk not multiples of Br, Bc), both causal
 * alignments and fully masked rows; tolerance 1e-5 + 1e-4·|expected|. The
 * slow-memory traffic, on unmasked problems, equals tensor by tensor the
 * count the page derives for Algorithm 2 (so read nothing twice that the
 * algorithm reads once, and write each dKⱼ, dVⱼ once).
 * Errors: o.Br and o.Bc must be integers >= 1, else throw a RangeError
 * naming them ("Br must be an integer >= 1, got 0") before any access.
 * Sources: Dao 2023, FlashAttention-2, Algorithm 2; Dao et al. 2022,
 * FlashAttention, Appendix B.
 *
 * @param mem the slow memory (the grader's counter)
 * @param shape B, H, Nq, Nk, d
 * @param o Br, Bc, causal, scale
 * @returns nothing: the gradients are left in mem (dQ, dK, dV)
 * @example
 * // One query, two keys with logits 0 and ln 3 (scale 1), values 4 and 8, dO = 1:
 * // O = 7, L = ln 4. Afterwards mem holds dQ = [0.75·ln 3] ≈ [0.8240],
 * // dK = [−0.75, 0.75], dV = [0.25, 0.75].
 * flashBackwardTiled(mem, {B: 1, H: 1, Nq: 1, Nk: 2, d: 1}, {Br: 1, Bc: 1, scale: 1});
 */
export function flashBackwardTiled(mem: SlowMemory, shape: AttentionShape, o: TiledBackwardOptions): void {
  return notImplemented("10.5");
}
