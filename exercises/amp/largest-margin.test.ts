import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, property, type AnyFunction } from "../harness/index.js";
import { largestMargin as libLargestMargin } from "../../lib/amp/index.js";
import type { largestMargin } from "./largest-margin.js";

type F = typeof largestMargin;
const reference: F = (values, format) => libLargestMargin(values, format);
const SECTION = "margin-underflow-and-the-inverse-problem";
const see = "see the page's section \"Margin, underflow and the inverse problem\" (src/amp.md#margin-underflow-and-the-inverse-problem)";
const f32 = (...xs: number[]) => Float32Array.from(xs);
const same = (f: F, values: Float32Array, format: "fp8-e4m3" | "fp8-e5m2", hint: string) => expectSame(f, reference, [values, format], { name: "largestMargin", hint });

export default defineExercise({
  id: "4.7",
  kind: "concept",
  title: "the largest margin a tensor can take",
  chapter: "amp",
  section: SECTION,
  file: "exercises/amp/largest-margin.ts",
  exportName: "largestMargin",
  signature: "largestMargin(values: Float32Array, format: \"fp8-e4m3\" | \"fp8-e5m2\"): number | null",
  summary:
    "Delayed scaling's margin read backwards: the largest margin m >= 0 under which a tensor, cast to FP8 with the scale TE derives from its own amax, still keeps its smallest nonzero value; null when even m = 0 loses it. The smallest subnormals (2^−9, 2^−16), the tie at half of them, the float32 rounding of the scale and of the product, a scale beyond float32, signed zeros and a million values all matter.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectCall(f, [f32(448, 1), "fp8-e4m3"], 9, { name: "largestMargin", hint: `the stub's @example; ${see}` });
    } },
    { name: "the smallest subnormals of E4M3 and E5M2", points: 1, run: async (f) => {
        await same(f, f32(57344, 1), "fp8-e5m2", `E5M2's smallest subnormal is 2^-16 (OCP OFP8 Table 1); ${see}`);
        await same(f, f32(3, 0.001, 2), "fp8-e4m3", "the scale maps the amax to 448, the margin halves it m times");
        await same(f, f32(0.5, 1e-9, 0.25), "fp8-e5m2", "E5M2 reaches further down than E4M3");
    } },
    { name: "rounding at the underflow edge: the tie at half the smallest subnormal, and the float32 product", points: 2, run: async (f) => {
        await same(f, f32(448, 2 ** -10), "fp8-e4m3", "2^-10 is exactly half of E4M3's smallest subnormal: a tie, which rounds to the even neighbour 0");
        await same(f, f32(448, Math.fround(2 ** -10 * (1 + 2 ** -20))), "fp8-e4m3", "just above the tie the value rounds up to 2^-9");
        await same(f, f32(448, 0.75 * 2 ** -9), "fp8-e4m3", "a value between half the subnormal and the subnormal rounds up, it does not vanish");
        // |x|·scale is a float32 product: here it is just above a power of two in float64 but exactly that power in float32
        await same(f, f32(4.885793209075928, 0.010905788280069828), "fp8-e4m3", "x · scale is computed in float32 (TE multiplies in float) before the cast: round the product to float32 first");
    } },
    { name: "null when margin 0 already loses the value", points: 1, run: async (f) => {
        await same(f, f32(448, 2 ** -12), "fp8-e4m3", "no margin can help a tensor whose range is wider than the format's: return null");
        await same(f, f32(1e6, 1e-6), "fp8-e5m2", "ten binades more than E5M2 spans");
    } },
    { name: "signs and zeros", points: 1, run: async (f) => {
        await same(f, f32(-448, 0, -0, 1, -0.5), "fp8-e4m3", "magnitudes count, not signed values; −0 is a zero too");
        await same(f, f32(0, -3), "fp8-e4m3", "a tensor whose only nonzero value is negative");
    } },
    { name: "a tiny amax: the scale stops at the largest float32", points: 1, run: async (f) => {
        await same(f, f32(1e-40, 1e-41), "fp8-e4m3", "448 / 1e-40 overflows float32: TE's scale is the largest float32 for several margins in a row");
        await same(f, f32(2e-44, 1e-44), "fp8-e5m2", "float32 subnormal values");
    } },
    { name: "a million values", points: 1, run: async (f) => {
        const v = new Float32Array(1_000_000).map((_, i) => Math.fround(1 + (i % 977) / 1000));
        v[654321] = Math.fround(3e-5);
        await same(f, v, "fp8-e4m3", "a million values: no spread arguments (Math.min(...values) overflows the call stack), one pass");
    } },
    { name: "random tensors", points: 3, run: (f) => property(
        fc.tuple(fc.array(fc.oneof(fc.constant(0), fc.float({ min: Math.fround(-1e6), max: Math.fround(1e6), noNaN: true })), { minLength: 1, maxLength: 12 }), fc.constantFrom("fp8-e4m3" as const, "fp8-e5m2" as const)),
        async ([xs, format]) => { if (xs.some((x) => x !== 0)) await same(f, Float32Array.from(xs), format, see); },
        { numRuns: 80 },
    ) },
    { name: "bad input throws a RangeError", points: 1, run: async (f) => {
        const t = (args: unknown[], re: RegExp, hint: string) => expectThrows(f as AnyFunction, args, re, { class: RangeError, hint, name: "largestMargin" });
        await t([f32(1, NaN), "fp8-e4m3"], /finite/, "NaN has no magnitude: TE's amax would ignore it, but no scale can be derived for it here");
        await t([f32(1, Infinity), "fp8-e5m2"], /finite/, "an infinite amax gives no scale");
        await t([f32(0, -0), "fp8-e4m3"], /nonzero/, "a tensor of zeros has no smallest nonzero value");
        await t([new Float32Array(0), "fp8-e4m3"], /nonzero/, "an empty tensor neither");
    } },
  ],
});
