import { notImplemented } from "../harness/index.js";

/**
 * Exercise 10.1 — the causal mask index rule for unequal lengths.
 *
 * Return whether query row i may attend to key column j under the causal
 * mask of FlashAttention ≥ 2.1, which is aligned to the BOTTOM-RIGHT corner
 * of the Nq×Nk score matrix: the last query sees every key, as when the Nq
 * queries are the last Nq tokens of an Nk-token sequence (a KV cache).
 *
 * The flash-attn README's examples (1 = keep):
 *   Nq = 2, Nk = 5:  1 1 1 1 0      Nq = 5, Nk = 2:  0 0
 *                    1 1 1 1 1                       0 0
 *                                                    0 0
 *                                                    1 0
 *                                                    1 1
 * (PyTorch's `is_causal=True` is the other convention, aligned top-left:
 * torch.tril(ones(Nq, Nk)). Both agree when Nq = Nk.)
 *
 * Inputs: Nq, Nk integers >= 1; 0 ≤ i < Nq and 0 ≤ j < Nk, integers.
 * Anything else throws a RangeError whose message names the field (i, j,
 * Nq or Nk).
 * Read: the chapter's "causal masks" section; flash-attention README, "2.1:
 * Change behavior of causal flag".
 *
 * @param i query index
 * @param j key index
 * @param Nq query length (seqlen_q)
 * @param Nk key length (seqlen_k)
 * @returns true when the logit (i, j) is kept
 * @example isCausalAllowed(0, 3, 2, 5) // true
 */
export function isCausalAllowed(i: number, j: number, Nq: number, Nk: number): boolean {
  return notImplemented("10.1");
}
