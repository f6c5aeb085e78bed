import { notImplemented } from "../harness/index.js";

/**
 * Exercise 14.2 — the load-balancing loss and its gradient with respect to the router logits.
 *
 * N tokens, E experts, softmax routing with top-k: p_t = softmax(l_t). The loss is Switch Transformer's Eq. 4
 * without α, as Megatron computes it for top-k: loss = E · Σ_i f_i · P_i, with f_i = c_i/(k·N), c_i the number of
 * tokens whose top-k probabilities include expert i (ties to the lower expert index), and P_i = (1/N)·Σ_t p_{t,i}.
 * Return the loss and ∂loss/∂l (N, E). The counts come from an argmax-like selection: they have no gradient.
 * N = 0 gives loss 0 and an empty gradient.
 * Tolerance: |Δ| ≤ 1e-6 + 1e-4·|expected| (float32 probabilities).
 * Read: the chapter's section "Balancing the load". Do not read lib/nn/moeLosses.ts.
 *
 * @param logits (N, E) router logits, row-major
 * @param rows N
 * @param numExperts E
 * @param topK k
 * @returns loss and dLogits (N, E), new
 * @example auxLossGradient([0, 0, 0, 0], 1, 4, 1) // loss 1 (f = [1, 0, 0, 0], P = [¼, ¼, ¼, ¼]), dLogits [0.75, −0.25, −0.25, −0.25]
 */
export function auxLossGradient(logits: number[], rows: number, numExperts: number, topK: number): { loss: number; dLogits: number[] } {
  return notImplemented("14.2");
}
