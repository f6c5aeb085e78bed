import { notImplemented } from "../harness/index.js";

/** The running state of B_r query rows: normalised output O (B_r×d), row sums l and row maxima m (B_r). */
export interface TileState {
  O: number[][];
  l: number[];
  m: number[];
}

/** The tiles of one inner step and the state of their query rows. */
export interface TileInput extends TileState {
  /** Q_i, B_r×d */
  Q: number[][];
  /** K_j, B_c×d */
  K: number[][];
  /** V_j, B_c×d */
  V: number[][];
  /** softmax scale, e.g. 1/√d */
  scale: number;
  /** optional B_r×B_c keep mask: false means the logit is −∞ */
  keep?: boolean[][];
}

/**
 * Exercise 10.4 — one tile step of FlashAttention's forward pass.
 *
 * Implement lines 9–12 of Algorithm 1 (Dao et al. 2022) for one pair of
 * tiles. For every query row r of the tile:
 *
 *   S = scale·Q_i K_jᵀ (entries with keep[r][c] = false are −∞)
 *   m̃ = rowmax(S), P̃ = exp(S − m̃), ℓ̃ = rowsum(P̃)
 *   m_new = max(m, m̃),  ℓ_new = e^{m − m_new}·ℓ + e^{m̃ − m_new}·ℓ̃
 *   O_new = (ℓ·e^{m − m_new}·O + e^{m̃ − m_new}·P̃V_j) / ℓ_new
 *
 * O stays normalised after every step (unlike FlashAttention-2, which divides
 * once at the end). Edge cases the grader checks:
 * - the first step starts from O = 0, ℓ = 0, m = −Infinity;
 * - a row whose B_c keys are all masked in this tile is returned unchanged
 *   (a row masked everywhere ends with O = 0, ℓ = 0, m = −Infinity, no NaN);
 * - logits of ±1e4; ragged tiles (B_r, B_c of 1, 3, 5…), d from 1 to 8;
 * - return new arrays; do not modify the input.
 * Tolerance: 1e-9 + 1e-9·|expected| on O, l and m.
 * Read: the chapter's "Algorithm 1" section and exercise 10.3.
 *
 * @param tile Q, K, V, O, l, m, scale and optionally keep
 * @returns the new {O, l, m} of the B_r rows
 * @example flashTileStep({Q: [[1]], K: [[0]], V: [[5]], O: [[0]], l: [0], m: [-Infinity], scale: 1}) // {O: [[5]], l: [1], m: [0]}
 */
export function flashTileStep(tile: TileInput): TileState {
  return notImplemented("10.4");
}
