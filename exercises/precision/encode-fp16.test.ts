import * as fc from "fast-check";
import { callSafely, defineExercise, expectSame, fail, property } from "../harness/index.js";
import { encode, toHex, decode } from "../../lib/precision/index.js";
import { formatValue } from "../harness/index.js";
import type { encodeFp16 } from "./encode-fp16.js";

const reference: typeof encodeFp16 = (x) => encode("fp16", x);
// A received pattern is shown with its own value; anything that is not a pattern is shown as it is.
const format = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 0 && v < 0x10000 ? `${toHex("fp16", v)} (= ${formatValue(decode("fp16", v))})` : `${formatValue(v)} (not a 16-bit pattern)`);
const LAYOUT = "see the page's section \"One layout, six formats\" (src/precision.md#one-layout-six-formats)";
const ROUNDING = "see the page's section \"Rounding: to nearest, ties to even\" (src/precision.md#rounding-to-nearest-ties-to-even)";
const RANGE = "see the page's section \"Range: overflow, underflow and subnormals\" (src/precision.md#range-overflow-underflow-and-subnormals)";
const same = (f: typeof encodeFp16, x: number, hint: string) =>
  expectSame(f, reference, [Math.fround(x)], { name: "encodeFp16", format, hint });

export default defineExercise({
  id: "1.3",
  kind: "concept",
  title: "encode fp16 with subnormals",
  chapter: "precision",
  file: "exercises/precision/encode-fp16.ts",
  exportName: "encodeFp16",
  signature: "encodeFp16(x: number): number",
  section: "range-overflow-underflow-and-subnormals",
  summary:
    "Return the 16-bit pattern of the fp16 value nearest to the float32 x, as PyTorch's x.half() stores it: ties to even, subnormals and signed zeros kept, overflow to ±Infinity, NaN to a NaN pattern.",
  reference,
  checks: [
    { name: "the contract's examples", points: 1, run: async (f) => {
        for (const x of [1, -2, 65504, 2 ** -24, 0.1]) await same(f, x, `the stub's examples; ${LAYOUT}`);
    } },
    { name: "normal numbers", points: 1, run: async (f) => {
        for (const x of [1, -2, 65504, 0.1, 1 / 3, 2 ** -14, 1000.5]) await same(f, x, `${LAYOUT}`);
    } },
    { name: "subnormals", points: 3, run: async (f) => {
        // 5·2^-25 and 7·2^-25 are ties among subnormals where ties-up and ties-to-even differ
        for (const x of [2 ** -24, 2 ** -14 - 2 ** -24, 1e-5, -3e-6, 3 * 2 ** -25, 5 * 2 ** -25, -5 * 2 ** -25, 7 * 2 ** -25]) await same(f, x, `below the smallest normal the exponent field is 0 and the ties still go to even; ${RANGE}`);
    } },
    { name: "underflow to signed zero", points: 1, run: async (f) => {
        for (const x of [0, -0, 2 ** -25, -(2 ** -25), 1e-8, -1e-30]) await same(f, x, `tiny values become a zero of the same sign; ${RANGE}`);
    } },
    { name: "ties to even", points: 1, run: async (f) => {
        // −(1 + 2^-11) and −2049 are ties whose lower (more negative) neighbour is odd
        for (const x of [1 + 2 ** -11, 1 + 3 * 2 ** -11, 2049, 2051, -(1 + 2 ** -11), -2049, -(1 + 3 * 2 ** -11)]) await same(f, x, `exactly halfway: the even neighbour, for negative numbers too; ${ROUNDING}`);
    } },
    { name: "rounds up into the next binade", points: 1, run: async (f) => {
        for (const x of [2 - 2 ** -11, 2 - 2 ** -12, -(4096 - 1), 2 ** -14 - 2 ** -26]) await same(f, x, "when the fraction rounds up past its largest value, the exponent field grows by one (and the largest subnormal can round up to the smallest normal, 0x0400)");
    } },
    { name: "overflow and infinities", points: 1, run: async (f) => {
        for (const x of [65519, 65519.99, -65519, 65520, 1e6, -1e6, Infinity, -Infinity]) await same(f, x, `overflow is decided after rounding: a value above 65504 that rounds to 65504 does not overflow; ${RANGE}`);
    } },
    { name: "NaN gives a NaN pattern", points: 1, run: async (f) => {
        const got = await callSafely(f, [NaN], { name: "encodeFp16" });
        if (typeof got !== "number" || !Number.isInteger(got) || got < 0 || got > 0xffff || !Number.isNaN(decode("fp16", got))) {
          fail(`encodeFp16(NaN) returned ${format(got)}, expected a NaN pattern such as 0x7e00`, LAYOUT);
        }
    } },
    { name: "random float32 values", points: 2, run: (f) => property(fc.float({ noNaN: true }), async (x) => { await same(f, x, "compare with the cases above"); }, { numRuns: 500 }) },
  ],
});
