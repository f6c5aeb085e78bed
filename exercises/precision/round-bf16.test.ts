import * as fc from "fast-check";
import { defineExercise, expectSame, property } from "../harness/index.js";
import { round, formatWithBits, FORMATS } from "../../lib/precision/index.js";
import type { roundToBf16 } from "./round-bf16.js";

const reference: typeof roundToBf16 = (x) => round("bf16", x);
const format = (v: unknown) => formatWithBits("bf16", v);
const same = (f: typeof roundToBf16, x: number, hint: string) =>
  expectSame(f, reference, [Math.fround(x)], { name: "roundToBf16", format, hint, signedZero: true });

export default defineExercise({
  id: "1.2",
  title: "round to bfloat16",
  chapter: "precision",
  file: "exercises/precision/round-bf16.ts",
  exportName: "roundToBf16",
  signature: "roundToBf16(x: number): number",
  summary:
    "Implement roundToBf16(x): the nearest bf16 value to the float32 x, ties to even, NaN stays NaN, overflow goes to ±Infinity (as PyTorch's cast), subnormals kept. Expected and received values are shown with their bf16 bit patterns.",
  reference,
  checks: [
    { name: "bf16 values come back unchanged", points: 1, run: async (f) => {
        for (const x of [1, -2, 0.5, 3.140625, 1.5e-39 - (1.5e-39 % 2 ** -133), FORMATS.bf16.maxFinite]) await same(f, x, "a value that is already bf16 must not change");
    } },
    { name: "round to nearest, not truncation", points: 1, run: async (f) => {
        for (const x of [1.0078125 * (1 + 2 ** -9), 3.14159265, -3.14159265, 0.1, 1 - 2 ** -24]) await same(f, x, "keep 7 fraction bits and round on the 16 dropped bits: above half an ulp rounds up (away from zero for negatives)");
    } },
    { name: "ties to even", points: 1, run: async (f) => {
        for (const x of [1.01171875, 1.00390625, -1.01171875, 257, 259]) await same(f, x, "the dropped bits are exactly half an ulp; round to the even neighbour");
    } },
    { name: "overflow, infinities, NaN, signed zero", points: 1, run: async (f) => {
        for (const x of [3.4028234663852886e38, -3.4e38, 3.3961e38, Infinity, -Infinity, NaN, -0, 0]) await same(f, x, "beyond the largest bf16 (after rounding) give ±Infinity; NaN → NaN; keep the sign of zero");
    } },
    { name: "float32 subnormals", points: 1, run: async (f) => {
        for (const x of [2 ** -149, 2 ** -133, 3 * 2 ** -134, 1.7e-39, -1e-40]) await same(f, x, "bf16 has subnormals: the rounding quantum below 2^-126 is 2^-133, do not flush to zero");
    } },
    { name: "random float32 values", points: 2, run: (f) => property(fc.float(), async (x) => { await same(f, x, "compare with the cases above"); }, { numRuns: 500 }) },
  ],
});
