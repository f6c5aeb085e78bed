import * as fc from "fast-check";
import { loadBalancingLoss, topKRouting, mulberry32 } from "../../lib/nn/index.js";
import { defineExercise, expectSame, property } from "../harness/index.js";
import type { auxLossGradient } from "./aux-loss-gradient.js";

type F = typeof auxLossGradient;
const SEE = "see the section “Balancing the load”";
const TOL = { abs: 1e-6, rel: 1e-4 };
const reference: F = (logits, rows, E, k) => {
  const r = loadBalancingLoss(topKRouting(Float32Array.from(logits), rows, E, k, "softmax-topk"));
  return { loss: r.loss, dLogits: Array.from(r.dLogits) };
};

export default defineExercise<F>({
  id: "14.2",
  title: "the load-balancing loss's gradient",
  chapter: "expert-parallel",
  file: "exercises/expert-parallel/aux-loss-gradient.ts",
  exportName: "auxLossGradient",
  signature: "auxLossGradient(logits: number[], rows: number, numExperts: number, topK: number): {loss, dLogits}",
  summary: "Switch Transformer's load-balancing loss for top-k routing, E·Σ f_i·P_i, and its gradient with respect to the router logits, which the page does not derive: the counts f carry none, the mean probabilities P carry it through the softmax. Graded on ties in the top-k, k = E, a single token, and random logits.",
  reference,
  section: "balancing-the-load",
  solution: ["lib/nn/moeLosses.ts"],
  checks: [
    { name: "worked example", points: 1, run: async (f) => {
        await expectSame(f, reference, [[0, 0, 0, 0], 1, 4, 1], { tol: TOL, hint: `the stub's @example: ∂loss/∂P_i = E·f_i, then through the softmax (${SEE})` });
        await expectSame(f, reference, [[2, 0, -1, 1, 0, 3], 2, 3, 2], { tol: TOL, hint: SEE });
    } },
    { name: "ties in the top-k go to the lower expert index", points: 1, run: async (f) => {
        await expectSame(f, reference, [[1, 1, 1, 0, 0.5, 0.5, 0.5, 2], 2, 4, 2], { tol: TOL, hint: "equal probabilities: the lower expert index is counted (as jax.lax.top_k does)" });
    } },
    { name: "k = E, one token, no token", points: 1, run: async (f) => {
        await expectSame(f, reference, [[0.3, -1, 2, 0.5, 0.1, 0], 2, 3, 3], { tol: TOL, hint: "k = E: every expert counts every token; what is the gradient then?" });
        await expectSame(f, reference, [[0.7, -0.2, 0.1], 1, 3, 1], { tol: TOL, hint: SEE });
        await expectSame(f, reference, [[], 0, 4, 2], { tol: TOL, hint: "N = 0: loss 0, empty gradient" });
    } },
    { name: "random logits", points: 1, run: (f) => property(fc.integer({ min: 0, max: 1e6 }), async (seed) => {
        const rng = mulberry32(seed), E = 1 + Math.floor(rng() * 8), k = 1 + Math.floor(rng() * E), N = 1 + Math.floor(rng() * 10);
        await expectSame(f, reference, [Array.from({ length: N * E }, () => Math.round((rng() * 8 - 4) * 64) / 64), N, E, k], { tol: TOL, hint: SEE });
    }, { numRuns: 60 }) },
  ],
});
