import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, property } from "../harness/index.js";
import { logsumexp as reference } from "../../lib/flash-attention/logsumexp.js";
import type { logsumexp } from "./logsumexp.js";

type F = typeof logsumexp;
const TOL = { abs: 1e-12, rel: 1e-12 };
const HINT = "see the page's section \"The online softmax and the logsumexp\"";
const same = (f: F, xs: number[], hint: string) => expectSame(f, (reference satisfies F), [xs], { tol: TOL, hint, name: "logsumexp" });

export default defineExercise<F>({
  id: "10.1",
  kind: "concept",
  title: "logsumexp",
  chapter: "flash-attention",
  section: "the-online-softmax-and-the-logsumexp",
  file: "exercises/flash-attention/logsumexp.ts",
  exportName: "logsumexp",
  signature: "logsumexp(xs: number[]): number",
  summary:
    "log Σ exp(x) of a row of logits, correct for logits of ±1e4 where evaluating the formula as written fails; −Infinity for an empty or fully masked (all −Infinity) row, never NaN; NaN if any entry is NaN (even beside +Infinity), else +Infinity if any is +Infinity. Tolerance 1e-12 + 1e-12·|expected|.",
  reference: (reference satisfies F),
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => {
        await expectCall(f, [[1e4, 1e4]], 10000.69314718056, { tol: TOL, hint: `two equal logits: the result is the logit + ln 2; ${HINT}`, name: "logsumexp" });
    } },
    { name: "worked examples", points: 2, run: async (f) => {
        await same(f, [0, Math.log(3)], "log(1 + 3) = log 4");
        await same(f, [2.5], "one element: logsumexp is the element");
    } },
    { name: "logits of ±1e4", points: 3, run: async (f) => {
        await same(f, [1e4, 1e4], `exp(1e4) is Infinity in float64; ${HINT}`);
        await same(f, [-1e4, -1e4 - 1, -1e4 - 2], `exp(−1e4) is 0 in float64, and log 0 = −Infinity; ${HINT}`);
        await same(f, [0, -1e4, 1e4], `mixed extremes, the largest not first; ${HINT}`);
    } },
    { name: "empty and fully masked rows", points: 2, run: async (f) => {
        await same(f, [], "the log of an empty sum is −Infinity");
        await same(f, [-Infinity, -Infinity], "all masked: −Infinity, never NaN (−∞ − (−∞) is NaN)");
        await same(f, [3, -Infinity], "a masked entry contributes e^{−∞} = 0");
    } },
    { name: "infinities and NaN", points: 2, run: async (f) => {
        await same(f, [1, Infinity], "+Infinity dominates the sum");
        await same(f, [Infinity, Infinity], "+Infinity twice is still +Infinity (∞ − ∞ is NaN)");
        await same(f, [1, NaN], "NaN propagates");
        await same(f, [Infinity, NaN, 2], "a row with both +Infinity and NaN gives NaN: NaN wins");
        await same(f, [NaN, -Infinity], "NaN beside a masked entry is still NaN");
    } },
    { name: "random rows", points: 1, run: (f) => property(fc.array(fc.double({ min: -1e4, max: 1e4, noNaN: true }), { minLength: 1, maxLength: 30 }), async (xs) => {
        await same(f, xs, `random row of logits in [−1e4, 1e4], in no particular order; ${HINT}`);
    }, { numRuns: 150 }) },
  ],
});
