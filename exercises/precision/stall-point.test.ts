import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { decode, FORMATS, stallPoint as libStallPoint, STALL_FORMATS } from "../../lib/precision/index.js";
import type { stallPoint, AccumulatorFormat } from "./stall-point.js";

type F = typeof stallPoint;
const reference: F = (format, addend) => libStallPoint(format, addend);

const ACC = "see the page's section \"Accumulation: why sums need more precision than storage\" (src/precision.md#accumulation-why-sums-need-more-precision-than-storage)";
const ROUNDING = "see the page's section \"Rounding: to nearest, ties to even\" (src/precision.md#rounding-to-nearest-ties-to-even)";
const RANGE = "see the page's section \"Range: overflow, underflow and subnormals\" (src/precision.md#range-overflow-underflow-and-subnormals)";
const same = (f: F, format: AccumulatorFormat, addend: number, hint: string) => expectSame(f, reference, [format, addend], { name: "stallPoint", hint });

/** The positive finite values of a format, from random bit patterns. */
const addends = (format: AccumulatorFormat) => fc.nat().map((b) => Math.abs(decode(format, b % 2 ** FORMATS[format].bits))).filter((a) => a > 0 && Number.isFinite(a));

export default defineExercise({
  id: "1.4",
  kind: "concept",
  title: "where does a running sum stop?",
  chapter: "precision",
  file: "exercises/precision/stall-point.ts",
  exportName: "stallPoint",
  signature: "stallPoint(format: AccumulatorFormat, addend: number): { total: number; additions: number }",
  section: "accumulation-why-sums-need-more-precision-than-storage",
  summary:
    "A running total kept in fp32, bf16, fp16 or an fp8 format adds the same positive value again and again, rounded after every addition. Return where it stops changing and after how many additions (or what overflow gives, if it comes first). The page shows ones in fp16 stopping at 2048; work out every other case, ties, subnormal addends and fp8's overflow included. Bad format or addend: a RangeError naming it.",
  reference,
  checks: [
    { name: "the stub's example: ones in fp16", points: 1, run: async (f) => {
        await same(f, "fp16", 1, `the page's accumulator of ones; ${ACC}`);
    } },
    { name: "ones in every format", points: 1, run: async (f) => {
        for (const fmt of STALL_FORMATS.filter((x) => x !== "fp32")) await same(f, fmt, 1, `the same stall as fp16's, with this format's fraction bits; ${ACC}`);
    } },
    { name: "addends that are not powers of two", points: 2, run: async (f) => {
        for (const [fmt, a] of [["fp16", 3], ["fp16", 0.0999755859375], ["bf16", 1.5], ["bf16", 7], ["fp8-e5m2", 1.25], ["fp16", 1000]] as const) {
          await same(f, fmt, a, `the additions are rounded long before the total stops: some round up, some down; ${ROUNDING}`);
        }
    } },
    { name: "a tie at the stall goes to the even total", points: 2, run: async (f) => {
        // with addend 3 (or 5) the total meets ties whose even neighbour is sometimes above, sometimes below
        for (const [fmt, a] of [["fp16", 5], ["bf16", 3], ["fp8-e4m3", 3], ["fp8-e5m2", 3]] as const) {
          await same(f, fmt, a, `a total + addend exactly halfway between two values goes to the one whose last fraction bit is 0; ${ROUNDING}`);
        }
    } },
    { name: "subnormal addends", points: 1, run: async (f) => {
        for (const fmt of STALL_FORMATS.filter((x) => x !== "fp32")) {
          await same(f, fmt, FORMATS[fmt].minSubnormal, `below the smallest normal value the spacing stays at the smallest subnormal; ${RANGE}`);
          await same(f, fmt, 3 * FORMATS[fmt].minSubnormal, RANGE);
        }
    } },
    { name: "overflow before the stall: Infinity, or NaN in fp8-e4m3", points: 2, run: async (f) => {
        for (const [fmt, a] of [["fp8-e4m3", 64], ["fp8-e4m3", 448], ["fp8-e5m2", 8192], ["fp16", 32768], ["fp16", 65504], ["bf16", FORMATS.bf16.maxFinite]] as const) {
          await same(f, fmt, a, `a total that rounds beyond the largest value overflows: Infinity, or NaN in fp8-e4m3 (no infinity); ${RANGE}`);
        }
    } },
    { name: "random addends in every narrow format", points: 1, run: (f) => property(
        fc.constantFrom(...STALL_FORMATS.filter((x) => x !== "fp32")).chain((fmt) => addends(fmt).map((a) => [fmt, a] as const)),
        async ([fmt, a]) => { await same(f, fmt, a, `compare with the cases above; ${ACC}`); }, { numRuns: 150 }) },
    { name: "bad input: a RangeError naming the field", points: 1, run: async (f) => {
        await expectThrows(f, ["tf32" as AccumulatorFormat, 1], /\bformat\b/, { class: RangeError, hint: "tf32 is not a storage format: the contract lists five" });
        for (const [fmt, a] of [["fp16", 0.1], ["fp16", 0], ["fp16", -1], ["bf16", Infinity], ["fp8-e4m3", 500], ["fp16", NaN]] as const) {
          await expectThrows(f, [fmt, a], /\baddend\b/, { class: RangeError, hint: "the addend must be a positive finite value of the format" });
        }
    } },
    { name: "fp32: sixteen million additions (a loop, not a recursion)", points: 1, run: async (f) => {
        await same(f, "fp32", 1, "ones in fp32 stop at 2^24 after 2^24 additions: a loop of 16 million steps is fine, a recursion overflows the stack");
    } },
  ],
});
