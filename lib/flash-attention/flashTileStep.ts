/**
 * One inner step of FlashAttention's Algorithm 1 (lines 9–12): given the tiles
 * Q_i (B_r×d), K_j, V_j (B_c×d) and the running O_i, ℓ_i, m_i of the query
 * rows, fold the B_c new keys into the softmax without ever seeing the others.
 */

/**
 * The running state of B_r query rows: normalised output O (B_r×d), row sums ℓ and row maxima m (B_r).
 * @see the sources of {@link flashTileStep}: Dao et al. 2022, FlashAttention, Algorithm 1 lines 9–12
 */
export interface TileState {
  O: number[][];
  l: number[];
  m: number[];
}

/**
 * Inputs of {@link flashTileStep}: the tiles, the state and the scale.
 * @see the sources of {@link flashTileStep}: Dao et al. 2022, FlashAttention, Algorithm 1 lines 9–12
 */
export interface TileInput extends TileState {
  Q: number[][];
  K: number[][];
  V: number[][];
  /** Softmax scale (e.g. 1/√d). */
  scale: number;
  /** Optional (B_r×B_c) keep mask; false = masked (logit −∞). */
  keep?: boolean[][];
}

/**
 * Algorithm 1, lines 9–12, for one (i, j) tile pair.
 *
 * S = scale·Q_i K_jᵀ (masked entries −∞); m̃ = rowmax(S); P̃ = exp(S − m̃);
 * ℓ̃ = rowsum(P̃); m_new = max(m_i, m̃); ℓ_new = e^{m_i − m_new}ℓ_i + e^{m̃ − m_new}ℓ̃;
 * O_new = (ℓ_i e^{m_i − m_new} O_i + e^{m̃ − m_new} P̃ V_j) / ℓ_new.
 * A row whose B_c keys are all masked is left unchanged (so a row masked in
 * every tile ends with O = 0, ℓ = 0, m = −∞: no NaN from −∞ − (−∞)).
 * Arithmetic in float64; the input is not modified.
 * @param t Q (B_r×d), K and V (B_c×d), O (B_r×d), l and m (B_r), scale, keep (B_r×B_c)
 * @returns the new {O, l, m}
 * @throws RangeError `K must have the same number of rows as V (3), got 2`, `Q[1] must have length d = 4, got 3`
 * @example flashTileStep({Q: [[1]], K: [[0]], V: [[5]], O: [[0]], l: [0], m: [-Infinity], scale: 1}) // {O: [[5]], l: [1], m: [0]}
 * @see Dao et al. 2022, FlashAttention, Algorithm 1 lines 9–12
 */
export function flashTileStep(t: TileInput): TileState {
  const { Q, K, V, scale } = t;
  const Br = Q.length;
  const Bc = K.length;
  const d = Q[0]?.length ?? 0;
  if (V.length !== Bc) throw new RangeError(`K must have the same number of rows as V (${V.length}), got ${Bc}`);
  if (t.O.length !== Br || t.l.length !== Br || t.m.length !== Br) throw new RangeError(`O, l and m must have B_r = ${Br} rows, got ${t.O.length}, ${t.l.length}, ${t.m.length}`);
  for (const [name, rows] of [["Q", Q], ["K", K], ["V", V], ["O", t.O]] as const) {
    rows.forEach((r, i) => { if (r.length !== d) throw new RangeError(`${name}[${i}] must have length d = ${d}, got ${r.length}`); });
  }
  const out: TileState = { O: [], l: [], m: [] };
  for (let r = 0; r < Br; r++) {
    const s = new Array<number>(Bc); // (B_c)
    let mTilde = -Infinity;
    for (let c = 0; c < Bc; c++) {
      let dot = 0;
      for (let x = 0; x < d; x++) dot += Q[r][x] * K[c][x];
      s[c] = t.keep && !t.keep[r][c] ? -Infinity : scale * dot;
      if (s[c] > mTilde) mTilde = s[c];
    }
    if (mTilde === -Infinity) {
      out.O.push([...t.O[r]]); out.l.push(t.l[r]); out.m.push(t.m[r]);
      continue;
    }
    let lTilde = 0;
    const pv = new Array<number>(d).fill(0); // (d): P̃ V_j for this row
    for (let c = 0; c < Bc; c++) {
      const p = Math.exp(s[c] - mTilde);
      lTilde += p;
      for (let x = 0; x < d; x++) pv[x] += p * V[c][x];
    }
    const mNew = Math.max(t.m[r], mTilde);
    const alpha = t.m[r] === -Infinity ? 0 : Math.exp(t.m[r] - mNew); // rescales the old state
    const beta = Math.exp(mTilde - mNew); // rescales the new tile
    const lNew = alpha * t.l[r] + beta * lTilde;
    out.O.push(t.O[r].map((o, x) => (t.l[r] * alpha * o + beta * pv[x]) / lNew));
    out.l.push(lNew);
    out.m.push(mNew);
  }
  return out;
}
