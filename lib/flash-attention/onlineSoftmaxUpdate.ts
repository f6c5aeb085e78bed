/**
 * The online softmax for one query row: fold a block of scores and their
 * value rows into a running (m, ℓ, acc) without revisiting earlier blocks.
 */

/**
 * Running state of one row: max m, sum ℓ = Σ e^{s−m}, unnormalised output acc = Σ e^{s−m}·v (length d).
 * @see the sources of {@link onlineSoftmaxInit}: Milakov & Gimelshein 2018, Algorithm 3
 */
export interface OnlineSoftmaxState {
  m: number;
  l: number;
  acc: number[];
}

/**
 * The empty state: m = −∞, ℓ = 0, acc = 0.
 * @param d value dimension, integer >= 1
 * @returns {m: −Infinity, l: 0, acc: d zeros}
 * @throws RangeError `d must be an integer >= 1, got 0`
 * @example onlineSoftmaxInit(2) // {m: -Infinity, l: 0, acc: [0, 0]}
 * @see Milakov & Gimelshein 2018, Algorithm 3
 */
export function onlineSoftmaxInit(d: number): OnlineSoftmaxState {
  if (!Number.isInteger(d) || d < 1) throw new RangeError(`d must be an integer >= 1, got ${d}`);
  return { m: -Infinity, l: 0, acc: new Array<number>(d).fill(0) };
}

/**
 * One online-softmax update with a block of scores s₁…s_b and values v₁…v_b:
 * m' = max(m, maxₖ sₖ); ℓ' = e^{m−m'}ℓ + Σₖ e^{sₖ−m'};
 * acc' = e^{m−m'}acc + Σₖ e^{sₖ−m'}vₖ. Masked scores are −∞ and contribute 0;
 * a block that is empty or fully masked leaves the state unchanged (no
 * −∞ − (−∞) = NaN). The input state is not modified.
 * @param state running {m, l, acc} (acc of length d)
 * @param scores the block's logits, length b (−Infinity = masked)
 * @param values b rows of length d
 * @returns the new state
 * @throws RangeError `values must have one row per score (2), got 1`, `values[0] must have length d = 3, got 2`
 * @example onlineSoftmaxUpdate({m: 0, l: 1, acc: [2]}, [0], [[4]]) // {m: 0, l: 2, acc: [6]}
 * @see Milakov & Gimelshein 2018; Dao et al. 2022, FlashAttention §3.1
 */
export function onlineSoftmaxUpdate(state: OnlineSoftmaxState, scores: number[], values: number[][]): OnlineSoftmaxState {
  const d = state.acc.length;
  if (values.length !== scores.length) throw new RangeError(`values must have one row per score (${scores.length}), got ${values.length}`);
  values.forEach((v, k) => { if (v.length !== d) throw new RangeError(`values[${k}] must have length d = ${d}, got ${v.length}`); });
  let blockMax = -Infinity;
  for (const s of scores) if (s > blockMax) blockMax = s;
  if (blockMax === -Infinity) return { m: state.m, l: state.l, acc: [...state.acc] };
  const m = Math.max(state.m, blockMax);
  const alpha = state.m === -Infinity ? 0 : Math.exp(state.m - m); // e^{m − m'}
  let l = alpha * state.l;
  const acc = state.acc.map((a) => alpha * a);
  scores.forEach((s, k) => {
    const p = Math.exp(s - m); // 0 for s = −∞
    l += p;
    for (let x = 0; x < d; x++) acc[x] += p * values[k][x];
  });
  return { m, l, acc };
}

/**
 * The row's softmax output and logsumexp from the final state: o = acc/ℓ,
 * lse = m + log ℓ; a row that saw no kept score gives o = 0, lse = −∞.
 * @param state the final {m, l, acc}
 * @returns {o (length d), lse}
 * @example onlineSoftmaxFinalize({m: 0, l: 2, acc: [6]}) // {o: [3], lse: 0.6931471805599453}
 * @see Dao 2023, FlashAttention-2, Algorithm 1 lines 12–13
 */
export function onlineSoftmaxFinalize(state: OnlineSoftmaxState): { o: number[]; lse: number } {
  if (state.l === 0) return { o: state.acc.map(() => 0), lse: -Infinity };
  return { o: state.acc.map((a) => a / state.l), lse: state.m + Math.log(state.l) };
}
