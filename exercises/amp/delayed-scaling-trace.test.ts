import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, property, type AnyFunction } from "../harness/index.js";
import { scaleTrace } from "../../lib/amp/index.js";
import type { delayedScalingTrace, DelayedRecipe } from "./delayed-scaling-trace.js";

type F = typeof delayedScalingTrace;
const reference: F = (amaxes, recipe, format, initial) => scaleTrace(amaxes, recipe, format, initial);
const SECTION = "delayed-scaling";
const see = "see the page's section \"Delayed scaling\" (src/amp.md#delayed-scaling)";
const R = (amaxHistoryLen: number, amaxComputeAlgo: DelayedRecipe["amaxComputeAlgo"] = "max", margin = 0): DelayedRecipe => ({ margin, amaxHistoryLen, amaxComputeAlgo });
const same = (f: F, args: Parameters<F>, hint: string) => expectSame(f, reference, args, { name: "delayedScalingTrace", hint });
/** A spike of `factor` every `period` steps over a base of 1. */
const spikes = (n: number, period: number, factor: number) => Array.from({ length: n }, (_, t) => (t % period === period - 1 ? factor : 1));

export default defineExercise({
  id: "4.6",
  kind: "transcription",
  title: "delayed scaling over a run",
  chapter: "amp",
  section: SECTION,
  file: "exercises/amp/delayed-scaling-trace.ts",
  exportName: "delayedScalingTrace",
  signature: "delayedScalingTrace(amaxes: number[], recipe: {margin, amaxHistoryLen, amaxComputeAlgo}, format, initial?): {scale: number[], overflow: boolean[], final}",
  summary:
    "Replay Transformer Engine's DelayedScaling for one FP8 tensor from its amax at every step: the scale each step casts with (from the amax history of the steps before it), whether the step overflowed, and the state left at the end. The history's roll, a zero or infinite amax, a scale beyond float32, a margin, resuming from a checkpoint and the rounding at E4M3's and E5M2's largest values all matter.",
  reference,
  checks: [
    { name: "the stub's example; the first steps: scale 1, then fp8Max / amax", points: 1, run: async (f) => {
        await expectCall(f, [[100, 100, 200], R(1), "fp8-e4m3"], { scale: [1, Math.fround(4.48), Math.fround(4.48)], overflow: [false, false, true], final: { amaxHistory: [0], scale: Math.fround(2.24) } }, { name: "delayedScalingTrace", hint: `the stub's @example; ${see}` });
        await same(f, [[3, 5, 7], R(8), "fp8-e4m3"], `TE starts every tensor at scale 1; the next scale comes from the amaxes seen so far; ${see}`);
        await same(f, [[0.01, 0.02], R(2), "fp8-e5m2"], "gradients use E5M2, whose largest value is 57344");
    } },
    { name: "the history window: a spike is remembered for exactly amaxHistoryLen updates; most_recent uses this step's amax only", points: 1, run: async (f) => {
        for (const L of [2, 3, 4, 5]) await same(f, [spikes(20, 4, 64), R(L), "fp8-e4m3"], `with a spike every 4 steps, a history of 3 forgets it and a history of 4 does not: count which steps the window holds; ${see}`);
        await same(f, [[50, 10, 10, 40, 5], R(4, "most_recent"), "fp8-e4m3"], "most_recent ignores the rest of the history");
        await same(f, [[50, 10, 10, 40, 5], R(4, "max"), "fp8-e4m3"], "max takes the largest amax of the window");
    } },
    { name: "margin and float32 arithmetic, up to a scale beyond float32", points: 1, run: async (f) => {
        await same(f, [[3, 3, 7, 1], R(2, "max", 2), "fp8-e4m3"], "the margin divides the scale by 2^margin; every scale is a float32");
        await same(f, [[3, 3], R(1, "max", -1), "fp8-e5m2"], "a negative margin multiplies the scale");
        await same(f, [[1e-40, 1e-40], R(1), "fp8-e4m3"], "448 / 1e-40 overflows float32: TE uses the largest float32 instead");
    } },
    { name: "overflow at the format's edge: E4M3's tie rounds down, E5M2's rounds up", points: 1, run: async (f) => {
        await same(f, [[464, 1], R(1), "fp8-e4m3"], "at scale 1, 464 is the tie between 448 and 480; 448's last fraction bit is 0, so the tie rounds to 448: no overflow");
        await same(f, [[464.5, 1], R(1), "fp8-e4m3"], "above the tie the cast would round beyond 448");
        await same(f, [[456, 1], R(1), "fp8-e4m3"], "between 448 and the tie the value still rounds to 448");
        await same(f, [[61440, 1], R(1), "fp8-e5m2"], "E5M2's tie at 61440 lies between 57344 (fraction 11, odd) and 65536: it rounds up, beyond the largest value");
        await same(f, [[60000, 1], R(1), "fp8-e5m2"], "below E5M2's tie the value rounds to 57344");
    } },
    { name: "special values and resuming: a zero amax keeps everything, Infinity freezes the scale, a resumed history counts", points: 1, run: async (f) => {
        await same(f, [[10, 0, 0, 1, 1, 1], R(2), "fp8-e4m3"], "a step whose amax is 0 does not roll the history and keeps the scale");
        await same(f, [[10, Infinity, 10, 10, 10, 10], R(3), "fp8-e4m3"], "an infinite amax overflows; while it is in the window the max is not finite, so the scale is kept");
        await same(f, [[10, Infinity, 5, 5], R(2, "most_recent"), "fp8-e5m2"], "most_recent with an infinite amax keeps the scale too");
        const initial = { amaxHistory: [0, 0, 50], scale: Math.fround(448 / 50) };
        await same(f, [[10, 40, 5, 5], R(3), "fp8-e4m3", initial], "the history you resume from is part of the window: its 50 still counts");
        await same(f, [[1000], R(2), "fp8-e5m2", { amaxHistory: [0, 2], scale: 4 }], "the first step casts with the resumed scale, not with 1");
    } },
    { name: "random traces", points: 2, run: (f) => property(
        fc.record({
          amaxes: fc.array(fc.oneof({ weight: 8, arbitrary: fc.float({ min: 0, max: Math.fround(1e5), noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(0, Infinity) }), { maxLength: 30 }),
          L: fc.integer({ min: 1, max: 6 }), margin: fc.integer({ min: -1, max: 3 }), algo: fc.constantFrom("max" as const, "most_recent" as const), format: fc.constantFrom("fp8-e4m3" as const, "fp8-e5m2" as const),
        }),
        ({ amaxes, L, margin, algo, format }) => same(f, [amaxes, R(L, algo, margin), format], see).then(() => {}),
        { numRuns: 60 },
    ) },
    { name: "bad input throws a RangeError naming the field", points: 1, run: async (f) => {
        const t = (args: unknown[], re: RegExp, hint: string) => expectThrows(f as AnyFunction, args, re, { class: RangeError, hint, name: "delayedScalingTrace" });
        await t([[1, NaN], R(2), "fp8-e4m3"], /amaxes\[1\]/, "an amax is never NaN: TE's amax ignores NaN elements");
        await t([[1, -2], R(2), "fp8-e4m3"], /amaxes\[1\]/, "an amax is a maximum of absolute values");
        await t([[1], R(4), "fp8-e4m3", { amaxHistory: [0, 0, 0], scale: 1 }], /amaxHistory/, "the history you resume from must have amaxHistoryLen entries");
        await t([[1], R(0), "fp8-e4m3"], /amaxHistoryLen/, "amaxHistoryLen is an integer >= 1");
        await t([[1], R(2, "max", 0.5), "fp8-e4m3"], /margin/, "margin is an integer");
    } },
  ],
});
