import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { decode, toHex } from "../../lib/precision/index.js";
import type { decodeFp16 } from "./decode-fp16.js";

const reference: typeof decodeFp16 = (bits) => decode("fp16", bits);
const label = (bits: number) => `decodeFp16(${toHex("fp16", bits)})`;
const same = (f: typeof decodeFp16, bits: number, hint: string) =>
  expectSame(f, reference, [bits], { label: label(bits), hint, signedZero: true });

export default defineExercise({
  id: "1.1",
  title: "decode fp16 bits",
  chapter: "precision",
  file: "exercises/precision/decode-fp16.ts",
  exportName: "decodeFp16",
  signature: "decodeFp16(bits: number): number",
  summary:
    "Return the value of a 16-bit IEEE 754 half-precision pattern: sign bit, 5 exponent bits with bias 15, 10 fraction bits; exponent 0 holds zeros and subnormals (f · 2^-24), exponent 31 holds ±Infinity and NaN. Bad input (not an integer in [0, 65535]) throws a RangeError.",
  reference,
  checks: [
    { name: "normal numbers (1, -2, 1/3, 65504)", points: 1, run: async (f) => {
        for (const b of [0x3c00, 0xc000, 0x3555, 0x7bff, 0x0400]) await same(f, b, "normal: (1 + fraction/1024) · 2^(exponent − 15)");
    } },
    { name: "zeros and subnormals", points: 2, run: async (f) => {
        for (const b of [0x0000, 0x8000, 0x0001, 0x03ff, 0x8200]) await same(f, b, "exponent field 0: no implicit leading 1, value = fraction · 2^-24 (and 0x8000 is -0)");
    } },
    { name: "infinities and NaN", points: 1, run: async (f) => {
        for (const b of [0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xffff]) await same(f, b, "exponent field 31: fraction 0 is ±Infinity, anything else is NaN");
    } },
    { name: "all 65,536 patterns", points: 2, run: async (f) => {
        for (let b = 0; b < 0x10000; b++) await same(f, b, "compare sign, exponent and fraction handling with the three cases of the contract");
    } },
    { name: "rejects bits outside [0, 65535]", points: 1, run: async (f) => {
        for (const bad of [70000, -1, 1.5, NaN]) await expectThrows(f, [bad], /bits/, { hint: "throw new RangeError(`bits must be an integer in [0, 65535], got ${bits}`)" });
    } },
    { name: "random patterns", points: 1, run: (f) => property(fc.integer({ min: 0, max: 0xffff }), async (b) => { await same(f, b, "see the contract"); }, { numRuns: 200 }) },
  ],
});
