/**
 * Where the diagonal of a causal mask sits when the query and key lengths
 * differ: "bottom-right" (FlashAttention ≥ 2.1, `causal_lower_right` in
 * PyTorch) or "top-left" (PyTorch `is_causal=True`, `causal_upper_left`).
 * @see the sources of {@link isCausalAllowed}: flash-attention README, "2.1: Change behavior of causal flag" (github.com/Dao-AILab/flash-attention)
 *   https://pytorch.org/docs/stable/generated/torch.nn.attention.bias.CausalVariant.html
 */
export type CausalAlignment = "bottom-right" | "top-left";

/**
 * Whether query row i may attend to key column j under a causal mask.
 *
 * bottom-right: j ≤ i + (Nk − Nq) — the last query sees every key, as when
 * the queries are the last Nq tokens of an Nk-token sequence (KV cache).
 * top-left: j ≤ i — `torch.tril(ones(Nq, Nk))`. Equal when Nq = Nk. A row
 * may have no allowed key (bottom-right with Nq > Nk, rows i < Nq − Nk).
 * @param i query index, integer in [0, Nq)
 * @param j key index, integer in [0, Nk)
 * @param Nq query length (seqlen_q), integer >= 1
 * @param Nk key length (seqlen_k), integer >= 1
 * @param alignment "bottom-right" (default) or "top-left"
 * @returns true when the (i, j) logit is kept
 * @throws RangeError `i must be an integer in [0, 2), got 2` (likewise j, Nq, Nk)
 * @example isCausalAllowed(0, 3, 2, 5) // true  (row 0 of the 2×5 mask is 1 1 1 1 0)
 * @example isCausalAllowed(0, 3, 2, 5, "top-left") // false (row 0 is 1 0 0 0 0)
 * @see flash-attention README, "2.1: Change behavior of causal flag" (github.com/Dao-AILab/flash-attention)
 * @see https://pytorch.org/docs/stable/generated/torch.nn.attention.bias.CausalVariant.html
 */
export function isCausalAllowed(i: number, j: number, Nq: number, Nk: number, alignment: CausalAlignment = "bottom-right"): boolean {
  if (!Number.isInteger(Nq) || Nq < 1) throw new RangeError(`Nq must be an integer >= 1, got ${Nq}`);
  if (!Number.isInteger(Nk) || Nk < 1) throw new RangeError(`Nk must be an integer >= 1, got ${Nk}`);
  if (!Number.isInteger(i) || i < 0 || i >= Nq) throw new RangeError(`i must be an integer in [0, ${Nq}), got ${i}`);
  if (!Number.isInteger(j) || j < 0 || j >= Nk) throw new RangeError(`j must be an integer in [0, ${Nk}), got ${j}`);
  return alignment === "top-left" ? j <= i : j <= i + Nk - Nq;
}

/**
 * The whole causal mask as rows of 0/1, for drawing and for tests.
 * @param Nq query length, integer >= 1
 * @param Nk key length, integer >= 1
 * @param alignment "bottom-right" (default) or "top-left"
 * @returns Nq rows of Nk entries, 1 = keep
 * @throws RangeError as {@link isCausalAllowed}
 * @example causalMaskRows(2, 3) // [[1, 1, 0], [1, 1, 1]]
 * @see {@link isCausalAllowed}
 */
export function causalMaskRows(Nq: number, Nk: number, alignment: CausalAlignment = "bottom-right"): number[][] {
  if (!Number.isInteger(Nq) || Nq < 1) throw new RangeError(`Nq must be an integer >= 1, got ${Nq}`);
  if (!Number.isInteger(Nk) || Nk < 1) throw new RangeError(`Nk must be an integer >= 1, got ${Nk}`);
  return Array.from({ length: Nq }, (_, i) => Array.from({ length: Nk }, (_, j) => (isCausalAllowed(i, j, Nq, Nk, alignment) ? 1 : 0)));
}
