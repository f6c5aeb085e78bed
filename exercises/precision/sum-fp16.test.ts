import * as fc from "fast-check";
import { defineExercise, expectSame, property } from "../harness/index.js";
import { accumulateReference, round, formatWithBits } from "../../lib/precision/index.js";
import type { sumFp16 } from "./sum-fp16.js";

const reference: typeof sumFp16 = (values) => accumulateReference(Float32Array.from(values), [values.length], "fp16")[0]!;
const format = (v: unknown) => formatWithBits("fp16", v);
const fp16Values = (min: number, max: number, maxLength: number) =>
  fc.array(fc.double({ min, max, noNaN: true }).map((x) => round("fp16", x)), { maxLength });
const same = (f: typeof sumFp16, values: number[], hint: string, label?: string) =>
  expectSame(f, reference, [values], { name: "sumFp16", format, hint, label });

export default defineExercise({
  id: "1.4",
  title: "sum with an fp16 accumulator",
  chapter: "precision",
  file: "exercises/precision/sum-fp16.ts",
  exportName: "sumFp16",
  signature: "sumFp16(values: number[]): number",
  summary:
    "Sum fp16 values in order with an fp16 accumulator: after every addition round the running total to the nearest fp16 (ties to even, overflow to ±Infinity). 4096 ones give 2048: the accumulator stagnates once adding the addend is at most half its spacing (at 2048 the spacing is 2: 2048 + 1 is a tie and rounds to the even 2048).",
  reference,
  checks: [
    { name: "small exact sums and the empty sum", points: 1, run: async (f) => {
        for (const v of [[], [1, 2, 3], [0.5, 0.25, -0.125], [-0]]) await same(f, v, "when every partial sum is an fp16 value the result is the exact sum; the empty sum is 0");
    } },
    { name: "stagnation: 4096 ones give 2048", points: 2, run: async (f) => {
        await same(f, Array(4096).fill(1), "round the accumulator to fp16 after EVERY addition, not once at the end: at 2048 the spacing is 2 and 2048 + 1 rounds back to 2048", "sumFp16([1, 1, … (4096 ones)])");
        await same(f, Array(3000).fill(0.7998046875), "the same stagnation with addends below 1: the running total stops growing", "sumFp16([0.7998046875 × 3000])");
    } },
    { name: "ties to even inside the sum", points: 1, run: async (f) => {
        for (const v of [[2048, 1], [2050, 1], [1, 2 ** -11], [1, 3 * 2 ** -11]]) await same(f, v, "a tie goes to the neighbour whose last fraction bit is 0: 2048 + 1 → 2048, 2050 + 1 → 2052");
    } },
    { name: "overflow to Infinity", points: 1, run: async (f) => {
        for (const v of [[65504, 16], [65504, 32], [60000, 6000, -6000], [-65504, -65504]]) await same(f, v, "a running total that rounds beyond 65504 becomes ±Infinity and stays there (Infinity − 6000 is still Infinity)");
    } },
    { name: "random fp16 vectors", points: 2, run: (f) => property(fp16Values(-100, 100, 300), async (v) => { await same(f, v, "compare with the cases above"); }, { numRuns: 100 }) },
  ],
});
