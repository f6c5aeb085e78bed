import { notImplemented } from "../harness/index.js";

/**
 * Exercise 10.4 — the causal mask when query and key lengths differ.
 *
 * Return whether query row i may attend to key column j under the causal
 * mask of flash-attn ≥ 2.1, which is aligned to the BOTTOM-RIGHT corner of
 * the Nq×Nk score matrix: the queries are taken to be the LAST Nq tokens of
 * an Nk-token sequence (as when decoding with a KV cache), and a token sees
 * itself and the tokens before it. PyTorch's `is_causal=True` is the other
 * convention (aligned top-left); both agree when Nq = Nk.
 *
 * The flash-attn README's examples (1 = keep):
 *   Nq = 2, Nk = 5:  1 1 1 1 0      Nq = 5, Nk = 2:  0 0
 *                    1 1 1 1 1                       0 0
 *                                                    0 0
 *                                                    1 0
 *                                                    1 1
 *
 * Inputs: Nq, Nk integers >= 1; i an integer in [0, Nq), j an integer in
 * [0, Nk). Anything else (non-integers, negatives, NaN, Infinity, an index
 * out of range) throws a RangeError whose message names the field (i, j, Nq
 * or Nk), e.g. "j must be an integer in [0, 5), got 5".
 * Read: the chapter's section "Causal masks when the lengths differ";
 * flash-attention README, "2.1: Change behavior of causal flag".
 *
 * @param i query index
 * @param j key index
 * @param Nq query length (seqlen_q)
 * @param Nk key length (seqlen_k)
 * @returns true when the logit (i, j) is kept
 * @example isCausalAllowed(0, 3, 2, 5) // true
 */
export function isCausalAllowed(i: number, j: number, Nq: number, Nk: number): boolean {
  return notImplemented("10.4");
}
