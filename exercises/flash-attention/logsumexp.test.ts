import * as fc from "fast-check";
import { defineExercise, expectSame, property } from "../harness/index.js";
import { logsumexp as reference } from "../../lib/flash-attention/logsumexp.js";
import type { logsumexp } from "./logsumexp.js";

type F = typeof logsumexp;
const TOL = { abs: 1e-12, rel: 1e-12 };
const same = (f: F, xs: number[], hint: string) => expectSame(f, (reference satisfies F), [xs], { tol: TOL, hint, name: "logsumexp" });

export default defineExercise<F>({
  id: "10.2",
  title: "logsumexp",
  chapter: "flash-attention",
  file: "exercises/flash-attention/logsumexp.ts",
  exportName: "logsumexp",
  signature: "logsumexp(xs: number[]): number",
  summary:
    "log Σ exp(x) computed as m + log Σ exp(x − m): finite for logits of ±1e4; −Infinity for an empty or fully masked (all −Infinity) row, never NaN; +Infinity if any x is +Infinity, NaN if any is NaN. Tolerance 1e-12 + 1e-12·|expected|.",
  reference: (reference satisfies F),
  checks: [
    { name: "worked examples", points: 1, run: async (f) => {
        await same(f, [0, Math.log(3)], "log(1 + 3) = log 4");
        await same(f, [2.5], "one element: logsumexp is the element");
    } },
    { name: "logits of ±1e4", points: 2, run: async (f) => {
        await same(f, [1e4, 1e4], "exp(1e4) overflows: subtract the max first");
        await same(f, [-1e4, -1e4 - 1, -1e4 - 2], "exp(−1e4) underflows to 0 and log 0 = −Infinity: subtract the max first");
        await same(f, [1e4, -1e4, 0], "mixed extremes");
    } },
    { name: "empty and fully masked rows", points: 1, run: async (f) => {
        await same(f, [], "the log of an empty sum is −Infinity");
        await same(f, [-Infinity, -Infinity], "all masked: x − max is −∞ − (−∞) = NaN; return −Infinity instead");
        await same(f, [-Infinity, 3], "a masked entry contributes e^{−∞} = 0");
    } },
    { name: "infinities and NaN", points: 1, run: async (f) => {
        await same(f, [1, Infinity], "+Infinity dominates");
        await same(f, [1, NaN], "NaN propagates");
    } },
    { name: "random rows", points: 1, run: (f) => property(fc.array(fc.double({ min: -1e4, max: 1e4, noNaN: true }), { minLength: 1, maxLength: 30 }), async (xs) => {
        await same(f, xs, "m + log Σ exp(x − m)");
    }, { numRuns: 150 }) },
  ],
});
