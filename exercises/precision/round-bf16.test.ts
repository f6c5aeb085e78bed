import * as fc from "fast-check";
import { defineExercise, expectSame, property } from "../harness/index.js";
import { round, formatWithBits, FORMATS } from "../../lib/precision/index.js";
import type { roundToBf16 } from "./round-bf16.js";

const reference: typeof roundToBf16 = (x) => round("bf16", x);
const format = (v: unknown) => formatWithBits("bf16", v);
const ROUNDING = "see the page's section \"Rounding: to nearest, ties to even\" (src/precision.md#rounding-to-nearest-ties-to-even)";
const RANGE = "see the page's section \"Range: overflow, underflow and subnormals\" (src/precision.md#range-overflow-underflow-and-subnormals)";
const same = (f: typeof roundToBf16, x: number, hint: string) =>
  expectSame(f, reference, [Math.fround(x)], { name: "roundToBf16", format, hint, signedZero: true });
const MAX = FORMATS.bf16.maxFinite;

export default defineExercise({
  id: "1.2",
  kind: "concept",
  title: "round to bfloat16",
  chapter: "precision",
  file: "exercises/precision/round-bf16.ts",
  exportName: "roundToBf16",
  signature: "roundToBf16(x: number): number",
  section: "rounding-to-nearest-ties-to-even",
  summary:
    "Implement roundToBf16(x): the bf16 value nearest to the float32 x, as PyTorch's cast computes it (ties to even, subnormals kept, overflow to ±Infinity, NaN stays NaN). Failures show each value with its own bf16 pattern, or say that it is not a bf16 value.",
  reference,
  checks: [
    { name: "the contract's examples", points: 2, run: async (f) => {
        for (const x of [1.01171875, 1.00390625]) await same(f, x, `the stub's examples: 1.01171875 → 1.015625 and 1.00390625 → 1; ${ROUNDING}`);
    } },
    { name: "bf16 values come back unchanged", points: 1, run: async (f) => {
        for (const x of [1, -2, 0.5, 3.140625, 1.5e-39 - (1.5e-39 % 2 ** -133), MAX]) await same(f, x, "a value that is already bf16 must not change");
    } },
    { name: "round to nearest, not truncation", points: 1, run: async (f) => {
        for (const x of [1.0078125 * (1 + 2 ** -9), 3.14159265, -3.14159265, 0.1, 1 - 2 ** -24]) await same(f, x, `the nearest bf16 value, which may be the one above; ${ROUNDING}`);
    } },
    { name: "ties to even", points: 1, run: async (f) => {
        // −1.00390625 and −257 are ties whose lower (more negative) neighbour is odd
        for (const x of [1.01171875, 1.00390625, -1.01171875, -1.00390625, 257, 259, -257]) await same(f, x, `exactly halfway: the even neighbour, for negative numbers too; ${ROUNDING}`);
    } },
    { name: "rounds up into the next binade", points: 1, run: async (f) => {
        for (const x of [2 - 2 ** -8, 2 - 2 ** -9, -(4 - 2 ** -7), 2 ** -126 - 2 ** -135]) await same(f, x, "when the fraction rounds up past its largest value, the exponent grows by one (and the largest subnormal can round up to the smallest normal)");
    } },
    { name: "overflow is decided after rounding", points: 1, run: async (f) => {
        for (const x of [MAX + 2 ** 119 - 2 ** 104, -(MAX + 2 ** 119 - 2 ** 104), MAX + 2 ** 119, 3.4028234663852886e38]) await same(f, x, `a value above the largest bf16 can still round down to it; only a value that rounds beyond it overflows; ${RANGE}`);
    } },
    { name: "infinities, NaN, signed zero", points: 1, run: async (f) => {
        for (const x of [Infinity, -Infinity, NaN, -0, 0, -3.4e38]) await same(f, x, "NaN stays NaN; ±Infinity and ±0 stay themselves, sign included");
    } },
    { name: "float32 subnormals", points: 1, run: async (f) => {
        // 5·2^-134 and 7·2^-134 are ties among subnormals where ties-up and ties-to-even differ
        for (const x of [2 ** -149, 2 ** -133, 3 * 2 ** -134, 5 * 2 ** -134, -5 * 2 ** -134, 7 * 2 ** -134, 2 ** -134, 1.7e-39, -1e-40]) await same(f, x, `bf16 has subnormals, and their ties go to even too; ${RANGE}`);
    } },
    { name: "random float32 values", points: 3, run: (f) => property(fc.float(), async (x) => { await same(f, x, "compare with the cases above"); }, { numRuns: 500 }) },
  ],
});
