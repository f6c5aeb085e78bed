import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, fail, property } from "../harness/index.js";
import { decode, toHex } from "../../lib/precision/index.js";
import type { decodeFp16 } from "./decode-fp16.js";

const reference: typeof decodeFp16 = (bits) => decode("fp16", bits);
const label = (bits: number) => `decodeFp16(${typeof bits === "number" && Number.isInteger(bits) && bits >= 0 && bits < 0x10000 ? toHex("fp16", bits) : JSON.stringify(bits) ?? String(bits)})`;
const LAYOUT = "see the page's section \"One layout, six formats\" (src/precision.md#one-layout-six-formats)";
const same = (f: typeof decodeFp16, bits: number, hint: string) =>
  expectSame(f, reference, [bits], { label: label(bits), hint, signedZero: true });

/** Fails unless f(bad) throws a RangeError whose message matches `pattern` and names the value. */
async function expectRangeError(f: typeof decodeFp16, bad: unknown, pattern: RegExp, hint: string): Promise<void> {
  const call = label(bad as number);
  await expectThrows(f, [bad as number], pattern, { label: call, hint });
  try {
    await f(bad as number);
  } catch (err) {
    const e = err as Error;
    if (e?.name !== "RangeError") fail(`${call} threw ${e?.name ?? typeof err}, the contract asks for a RangeError`, hint);
    if (!String(e.message).includes(String(bad))) fail(`${call} threw "${e.message}", which does not name the value received (${String(bad)})`, hint);
  }
}

export default defineExercise({
  id: "1.1",
  title: "decode fp16 bits",
  chapter: "precision",
  file: "exercises/precision/decode-fp16.ts",
  exportName: "decodeFp16",
  signature: "decodeFp16(bits: number): number",
  section: "one-layout-six-formats",
  summary:
    "Return the value of a 16-bit IEEE 754 half-precision pattern (an integer in [0, 65535]): zeros, subnormals, normal numbers, ±Infinity and NaN. −0 is the number 0, the pattern 0x0000. Anything else throws a RangeError naming the value. The layout is derived in \"One layout, six formats\".",
  reference,
  checks: [
    { name: "the contract's example", points: 1, run: async (f) => {
        await same(f, 0x3555, `the stub's example: 0x3555 is 0.333251953125; ${LAYOUT}`);
    } },
    { name: "normal numbers (1, -2, 1/3, 65504)", points: 1, run: async (f) => {
        for (const b of [0x3c00, 0xc000, 0x3555, 0x7bff, 0x0400]) await same(f, b, `normal numbers have an implicit leading 1; ${LAYOUT}`);
    } },
    { name: "zeros and subnormals", points: 2, run: async (f) => {
        for (const b of [0x0000, 0x8000, 0x0001, 0x03ff, 0x8200]) await same(f, b, `exponent field 0 is special (and 0x8000 is −0); ${LAYOUT}`);
    } },
    { name: "infinities and NaN", points: 1, run: async (f) => {
        for (const b of [0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xffff]) await same(f, b, `the all-ones exponent field is special; ${LAYOUT}`);
    } },
    { name: "-0 is the pattern 0x0000", points: 1, run: async (f) => {
        await expectSame(f, reference, [-0], { label: "decodeFp16(-0)", signedZero: true, hint: "−0 is the number 0, a valid input: the pattern 0x0000, whose value is +0 (the sign is bit 15 of the pattern, not the sign of the number)" });
    } },
    { name: "all 65,536 patterns", points: 2, run: async (f) => {
        for (let b = 0; b < 0x10000; b++) await same(f, b, `compare the sign, the exponent field and the fraction field with the contract; ${LAYOUT}`);
    } },
    { name: "rejects bad input with a RangeError", points: 1, run: async (f) => {
        for (const bad of [70000, 65536, -1, 1.5, NaN, Infinity, "15360"]) {
          await expectRangeError(f, bad, /^bits must be an integer in \[0, 65535\]/, "the contract names the error class, the start of the message and the value; check the input before decoding");
        }
    } },
    { name: "random patterns", points: 1, run: (f) => property(fc.integer({ min: 0, max: 0xffff }), async (b) => { await same(f, b, LAYOUT); }, { numRuns: 200 }) },
  ],
});
