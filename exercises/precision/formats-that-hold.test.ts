import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, largeArray, property } from "../harness/index.js";
import { decode, FORMATS, FORMAT_NAMES, formatsThatHold as libFormatsThatHold, round, ulp } from "../../lib/precision/index.js";
import type { formatsThatHold } from "./formats-that-hold.js";

type F = typeof formatsThatHold;

const reference: F = (values) => libFormatsThatHold(values);

const LAYOUT = "see the page's section \"One layout, six formats\" (src/precision.md#one-layout-six-formats)";
const RANGE = "see the page's section \"Range: overflow, underflow and subnormals\" (src/precision.md#range-overflow-underflow-and-subnormals)";
const SPACING = "see the page's section \"How far apart are neighbouring values?\" (src/precision.md#how-far-apart-are-neighbouring-values)";
const same = (f: F, values: number[], hint: string) => expectSame(f, reference, [values], { name: "formatsThatHold", hint, signedZero: true });
const EACH = FORMAT_NAMES.map((n) => FORMATS[n]);

/** A NaN with another payload than the default one (read from float32 bits). */
const nanWithPayload = new Float32Array(new Uint32Array([0x7fa00001]).buffer)[0]!;

export default defineExercise({
  id: "1.1",
  kind: "concept",
  title: "which formats could hold this tensor?",
  chapter: "precision",
  file: "exercises/precision/formats-that-hold.ts",
  exportName: "formatsThatHold",
  signature: "formatsThatHold(values: number[]): FormatName[]",
  section: "how-far-apart-are-neighbouring-values",
  summary:
    "A tensor printed at full precision: return every format of the chapter (fp32, tf32, bf16, fp16, fp8-e5m2, fp8-e4m3, in that order) that holds each of its values exactly, so that it could have been stored in it without rounding. Use the layouts, the range and the spacing of the page where the page does not: ±0 and NaN are values of every format, ±Infinity of all but fp8-e4m3; a million values must work. A non-number throws a TypeError naming its index.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await same(f, [0.5, -3, 2 ** -20], `the stub's example: 2^−20 is an fp16 subnormal but below fp8's range; ${RANGE}`);
    } },
    { name: "each format's largest value, and the next value above it", points: 2, run: async (f) => {
        for (const fmt of EACH) {
          await same(f, [fmt.maxFinite], `the largest finite value belongs to its format (and to the wider ones); ${RANGE}`);
          await same(f, [-(fmt.maxFinite + ulp(fmt.name, fmt.maxFinite))], `just above the largest finite value is out of the format's range; ${RANGE}`);
        }
        await same(f, [464, 480], "fp8-e4m3's largest value is 448: its pattern S.1111.111 is NaN, not 480");
    } },
    { name: "each format's smallest subnormal, and half of it", points: 1, run: async (f) => {
        for (const fmt of EACH) {
          await same(f, [fmt.minSubnormal], `below the smallest normal value the subnormals continue down to 2^(emin − m); ${RANGE}`);
          await same(f, [-fmt.minSubnormal / 2, fmt.minNormal - fmt.minSubnormal], `half the smallest subnormal is not a value; the largest subnormal is; ${RANGE}`);
        }
    } },
    { name: "precision: the last fraction bit of each format, in any binade", points: 2, run: async (f) => {
        for (const fmt of EACH) {
          const m = fmt.mantissaBits;
          for (const scale of [1, 3, 0.75, -(2 ** -10), 2 ** 12 * 5]) {
            await same(f, [scale * (1 + 2 ** -m)], `m fraction bits: in [2^e, 2^(e+1)) the values are 2^(e − m) apart; ${SPACING}`);
            await same(f, [scale * (1 + 2 ** -(m + 1))], `one bit more than the format has; ${SPACING}`);
          }
        }
    } },
    { name: "special values: ±0, NaN (any payload), ±Infinity", points: 1, run: async (f) => {
        for (const v of [[0], [-0], [NaN], [nanWithPayload, 1], [Infinity], [-Infinity, 2], [Infinity, NaN, -0]]) {
          await same(f, v, `every format has ±0 and NaN; fp8-e4m3 has no infinity; ${LAYOUT}`);
        }
    } },
    { name: "float64 values that no format holds", points: 1, run: async (f) => {
        for (const x of [0.1, 1 / 3, 2 ** -1074, 1 + 2 ** -30, 1e300]) await same(f, [1, x], "a float64 value with more significant bits or more range than fp32 has");
    } },
    { name: "next to a power of two, and far from 1", points: 1, run: async (f) => {
        // just below a power of two: the exponent is the one below (Math.round(Math.log2(x)) gives the one above)
        const xs = [2 ** 29, 2 ** 29 * (1 - 2 ** -24), 2 ** -29 * (1 + 2 ** -7), 2 ** 100 * (1 - 2 ** -8), 2 ** -130, 2 ** -126 * (1 - 2 ** -23), 8, 1 - 2 ** -11, 2 ** 15 * (1 - 2 ** -3)];
        for (const x of xs) await same(f, [x], `the binade of x is [2^e, 2^(e+1)) with 2^e ≤ |x|: a rounded logarithm can land in the next one; ${SPACING}`);
    } },
    { name: "random tensors drawn from each format", points: 1, run: (f) => property(
        fc.tuple(fc.constantFrom(...EACH), fc.array(fc.nat(), { minLength: 1, maxLength: 12 })),
        async ([fmt, raw]) => { await same(f, raw.map((b) => decode(fmt.name, b % 2 ** fmt.bits)), `values of ${fmt.name}: which wider formats hold them too? ${SPACING}`); },
        { numRuns: 200 }) },
    { name: "bad input: a TypeError naming the index", points: 1, run: async (f) => {
        await expectThrows(f, [[1, 2, 3, "4" as unknown as number]], /values\[3\] must be a number, got string/, { class: TypeError, hint: "the contract's error: name the index of the entry" });
        await expectThrows(f, [[null as unknown as number]], /values\[0\] must be a number/, { class: TypeError });
    } },
    { name: "a million values (a loop, not a spread)", points: 1, run: async (f) => {
        // a million bf16 values, the last of which is not one: every value counts, the last one too
        const bf16 = largeArray(1_000_000, 11, (i, r) => (i === 999_999 ? 1 + 2 ** -12 : round("bf16", (2 * r() - 1) * 2 ** (40 * r() - 20))));
        await same(f, bf16, "a million values (the last one is not a bf16 value): spreading them into Math.max(...) or a recursion overflows the stack");
    } },
  ],
});
