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
 * Exercise 10.3 — one tile step of FlashAttention's forward pass.
 *
 * Lines 9–12 of Algorithm 1 (Dao et al. 2022) for one pair of tiles. The
 * state of each query row r summarises the keys it has seen so far:
 *
 *   m[r] = its largest score scale·q·k so far,  l[r] = Σ e^{s − m[r]},
 *   O[r] = the softmax-weighted average of the value rows seen so far
 *          (normalised, as Algorithm 1 keeps it after every step).
 *
 * Return the state of every row after it has also seen the B_c keys of this
 * tile (K_j, V_j), keeping that meaning. The page's section "Algorithm 1,
 * drawn" and exercise 10.2 give what you need; note that O, unlike the acc of
 * 10.2, is already divided by l.
 *
 * Contract:
 * - the first step starts from O = 0, l = 0, m = −Infinity;
 * - keep[r][c] = false masks the score (r, c) (it is −Infinity); a row whose
 *   B_c keys are all masked in this tile is returned unchanged, so a row
 *   masked everywhere ends with O = 0, l = 0, m = −Infinity, never NaN;
 * - logits of ±1e4; ragged tiles (any B_r, B_c ≥ 1; d ≥ 1);
 * - K and V must have the same number of rows, and every row of Q, K, V and O
 *   length d = Q[0].length; O, l and m have B_r rows. Otherwise throw a
 *   RangeError whose message names the offending argument (e.g. "K must have
 *   the same number of rows as V (3), got 2");
 * - return new arrays; do not modify the input.
 * Tolerance: 1e-9 + 1e-9·|expected| on O, l and m.
 *
 * @param tile Q, K, V, O, l, m, scale and optionally keep
 * @returns the new {O, l, m} of the B_r rows
 * @example flashTileStep({Q: [[1]], K: [[0]], V: [[5]], O: [[0]], l: [0], m: [-Infinity], scale: 1}) // {O: [[5]], l: [1], m: [0]}
 */
export function flashTileStep(tile: TileInput): TileState {
  return notImplemented("10.3");
}
