import * as fc from "fast-check";
import { callSafely, defineExercise, expectSame, fail, property } from "../harness/index.js";
import { encode, toHex, decode, formatWithBits } from "../../lib/precision/index.js";
import type { encodeFp16 } from "./encode-fp16.js";

const reference: typeof encodeFp16 = (x) => encode("fp16", x);
const format = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 0 && v < 0x10000 ? `${toHex("fp16", v)} (= ${decode("fp16", v)})` : formatWithBits("fp16", v));
const same = (f: typeof encodeFp16, x: number, hint: string) =>
  expectSame(f, reference, [Math.fround(x)], { name: "encodeFp16", format, hint });

export default defineExercise({
  id: "1.3",
  title: "encode fp16 with subnormals",
  chapter: "precision",
  file: "exercises/precision/encode-fp16.ts",
  exportName: "encodeFp16",
  signature: "encodeFp16(x: number): number",
  summary:
    "Return the 16-bit pattern of the fp16 value nearest to the float32 x: round to nearest even, subnormals (exponent field 0, fraction = |x| / 2^-24 rounded) and signed zeros, overflow from 65520 to ±Infinity (0x7c00), NaN to a NaN pattern.",
  reference,
  checks: [
    { name: "normal numbers", points: 1, run: async (f) => {
        for (const x of [1, -2, 65504, 0.1, 1 / 3, 2 ** -14, 1000.5]) await same(f, x, "exponent field = floor(log2|x|) + 15, fraction = round((|x| / 2^e − 1) · 1024)");
    } },
    { name: "subnormals", points: 2, run: async (f) => {
        for (const x of [2 ** -24, 2 ** -14 - 2 ** -24, 1e-5, -3e-6, 3 * 2 ** -25, 2 ** -14 - 2 ** -26]) await same(f, x, "below 2^-14 the exponent field is 0 and the fraction is round(|x| / 2^-24); at the top it can round up into the smallest normal 0x0400");
    } },
    { name: "underflow to signed zero", points: 1, run: async (f) => {
        for (const x of [0, -0, 2 ** -25, -(2 ** -25), 1e-8, -1e-30]) await same(f, x, "below half of 2^-24 the result is ±0 (0x0000 / 0x8000); exactly half is a tie and goes to 0, the even pattern");
    } },
    { name: "ties to even", points: 1, run: async (f) => {
        for (const x of [1 + 2 ** -11, 1 + 3 * 2 ** -11, 2049, 2051, -(1 + 2 ** -11)]) await same(f, x, "exactly halfway: choose the pattern whose last bit is 0");
    } },
    { name: "overflow and infinities", points: 1, run: async (f) => {
        for (const x of [65519.99, 65520, 1e6, -1e6, Infinity, -Infinity]) await same(f, x, "values that round above 65504 (65520 and up) give ±Infinity, 0x7c00 or 0xfc00, not 0x7bff");
    } },
    { name: "NaN gives a NaN pattern", points: 1, run: async (f) => {
        const got = await callSafely(f, [NaN], { name: "encodeFp16" });
        if (typeof got !== "number" || !Number.isInteger(got) || got < 0 || got > 0xffff || !Number.isNaN(decode("fp16", got))) {
          fail(`encodeFp16(NaN) returned ${typeof got === "number" ? format(got) : String(got)}, expected a NaN pattern such as 0x7e00`, "exponent field 31 (all ones) and a non-zero fraction");
        }
    } },
    { name: "random float32 values", points: 2, run: (f) => property(fc.float({ noNaN: true }), async (x) => { await same(f, x, "compare with the cases above"); }, { numRuns: 500 }) },
  ],
});
