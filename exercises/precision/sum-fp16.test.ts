import * as fc from "fast-check";
import { defineExercise, expectSame, property } from "../harness/index.js";
import { accumulateReference, round, formatWithBits } from "../../lib/precision/index.js";
import type { sumFp16 } from "./sum-fp16.js";

const reference: typeof sumFp16 = (values) => accumulateReference(Float32Array.from(values), [values.length], "fp16")[0]!;
const format = (v: unknown) => formatWithBits("fp16", v);
const ACCUMULATION = "see the page's section \"Accumulation: why sums need more precision than storage\" (src/precision.md#accumulation-why-sums-need-more-precision-than-storage)";
const ROUNDING = "see the page's section \"Rounding: to nearest, ties to even\" (src/precision.md#rounding-to-nearest-ties-to-even)";
const RANGE = "see the page's section \"Range: overflow, underflow and subnormals\" (src/precision.md#range-overflow-underflow-and-subnormals)";
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
  section: "accumulation-why-sums-need-more-precision-than-storage",
  summary:
    "Sum fp16 values in order the way a loop with an fp16 running total does: every addition is one IEEE half-precision addition (ties to even, overflow to ±Infinity). 4096 ones give 2048; the page's accumulation section shows why.",
  reference,
  checks: [
    { name: "the contract's examples", points: 1, run: async (f) => {
        await same(f, Array(4096).fill(1), `the stub's example: 4096 ones give 2048; ${ACCUMULATION}`, "sumFp16([1, 1, … (4096 ones)])");
        for (const v of [[65504, 15], [65504, 16]]) await same(f, v, `the stub's examples: [65504, 15] → 65504, [65504, 16] → Infinity; ${RANGE}`);
    } },
    { name: "small exact sums and the empty sum", points: 1, run: async (f) => {
        for (const v of [[], [1, 2, 3], [0.5, 0.25, -0.125], [-0]]) await same(f, v, "when every partial sum is an fp16 value nothing is rounded away; the empty sum is 0");
    } },
    { name: "stagnation: 4096 ones give 2048", points: 2, run: async (f) => {
        await same(f, Array(4096).fill(1), `every addition is rounded to fp16, not only the last one; ${ACCUMULATION}`, "sumFp16([1, 1, … (4096 ones)])");
        await same(f, Array(3000).fill(0.7998046875), `the same stagnation with addends below 1; ${ACCUMULATION}`, "sumFp16([0.7998046875 × 3000])");
    } },
    { name: "ties to even inside the sum", points: 1, run: async (f) => {
        // [-2048, -1] and [-1, -2^-11] end on ties whose lower (more negative) neighbour is odd
        for (const v of [[2048, 1], [2050, 1], [1, 2 ** -11], [1, 3 * 2 ** -11], [-2048, -1], [-1, -(2 ** -11)]]) await same(f, v, `a tie goes to the even neighbour, for negative totals too; ${ROUNDING}`);
    } },
    { name: "overflow to Infinity", points: 1, run: async (f) => {
        for (const v of [[65504, 15], [-65504, -15], [65504, 16], [65504, 32], [60000, 6000, -6000], [-65504, -65504]]) await same(f, v, `overflow is decided after rounding, and Infinity stays Infinity; ${RANGE}`);
    } },
    { name: "random fp16 vectors", points: 2, run: (f) => property(fp16Values(-100, 100, 300), async (v) => { await same(f, v, "compare with the cases above"); }, { numRuns: 100 }) },
  ],
});
