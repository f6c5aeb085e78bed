import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, largeArray, property } from "../harness/index.js";
import { lossScaleRange as libLossScaleRange } from "../../lib/amp/index.js";
import type { lossScaleRange } from "./loss-scale-range.js";

type F = typeof lossScaleRange;
const reference: F = (grads, f) => libLossScaleRange(grads, f);

const SECTION = "what-fp16-does-to-gradients";
const see = "see the page's section \"What fp16 does to gradients\" (src/amp.md#what-fp16-does-to-gradients)";
const f32 = (xs: number[]) => Float32Array.from(xs);
const same = (f: F, grads: Float32Array, frac: number, hint: string) => expectSame(f, reference, [grads, frac], { name: "lossScaleRange", hint });
/** A gradient m·2^e with m in [1, 2), in float32. */
const grad = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 6, arbitrary: fc.tuple(fc.double({ min: 1, max: 2, noNaN: true, maxExcluded: true }), fc.integer({ min: -60, max: 24 }), fc.boolean()).map(([m, e, s]) => Math.fround((s ? -1 : 1) * m * 2 ** e)) },
);

export default defineExercise({
  id: "4.1",
  kind: "concept",
  title: "which loss scales fit a step's gradients?",
  chapter: "amp",
  section: SECTION,
  file: "exercises/amp/loss-scale-range.ts",
  exportName: "lossScaleRange",
  signature: "lossScaleRange(grads: Float32Array, maxUnderflowFraction: number): { minLog2, maxLog2 } | null",
  summary:
    "The inverse of the page's exponent histogram: the power-of-two loss scales S = 2^k (k in [−126, 127]) under which a step's fp32 gradients, scaled and rounded to fp16, do not overflow and lose at most a given share of the nonzero ones to underflow. fp16's edges decide (65504 and 65520, the tie at 2^−25); a million gradients must work; an inf or NaN gradient admits no scale.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectCall(f, [f32([1e-9, 3e-6, 0.25]), 0], { minLog2: 5, maxLog2: 17 }, { name: "lossScaleRange", hint: `the stub's example; ${see}` });
    } },
    { name: "overflow: 65504 fits, 65520 rounds to Infinity", points: 2, run: async (f) => {
        for (const g of [65504, 65520, 65519, -65520, 32760, 32768, 0.99951171875, 1, 1.9998779296875 * 2 ** -10]) {
          await same(f, f32([g]), 0, `the largest k: S·g must round to a finite fp16 value; values from 65520 up round to Infinity; ${see}`);
        }
    } },
    { name: "underflow: the tie at 2^−25 rounds to 0", points: 2, run: async (f) => {
        for (const g of [2 ** -25, 3 * 2 ** -26, 2 ** -25 * (1 + 2 ** -20), 2 ** -40, -(2 ** -30) * 1.5]) {
          await same(f, f32([g]), 0, `the smallest k: S·g must not round to 0; exactly halfway to the smallest subnormal 2^−24 rounds to the even 0; ${see}`);
        }
    } },
    { name: "the allowed share of underflows", points: 2, run: async (f) => {
        const g = f32([1e-12, 2e-11, 3e-9, 4e-7, 5e-5, 6e-3, 0, 0, 0.5, 1e-10]);
        for (const frac of [0, 0.1, 0.125, 0.25, 0.5, 0.75, 1]) await same(f, g, frac, "count the nonzero gradients that become 0 and compare with the share of the nonzero ones (zeros of fp32 do not count)");
    } },
    { name: "no scale fits: null", points: 1, run: async (f) => {
        for (const [g, frac] of [[[2 ** -120, 2 ** 120], 0], [[1, NaN], 1], [[Infinity], 1], [[-Infinity, 1], 0.5]] as const) {
          await same(f, f32([...g]), frac, "when the two ends cross, or a gradient is already inf or NaN, no scale helps: null");
        }
        await same(f, f32([]), 0, "no gradient: every k fits");
        await same(f, f32([0, -0]), 0, "zeros only: every k fits");
    } },
    { name: "random gradients", points: 2, run: (f) => property(fc.tuple(fc.array(grad, { maxLength: 40 }), fc.constantFrom(0, 0.01, 0.1, 1 / 3, 0.5, 1)),
        async ([g, frac]) => { await same(f, f32(g), frac, `compare with the cases above; ${see}`); }, { numRuns: 200 }) },
    { name: "bad input: a RangeError naming maxUnderflowFraction", points: 1, run: async (f) => {
        for (const frac of [-0.1, 1.5, NaN, "0.1" as unknown as number]) await expectThrows(f, [f32([1]), frac], /maxUnderflowFraction/, { class: RangeError, name: "lossScaleRange", hint: "the contract's error" });
    } },
    { name: "a million gradients", points: 1, run: async (f) => {
        const g = Float32Array.from(largeArray(1_000_000, 3, (_i, r) => (r() < 0.1 ? 0 : (r() - 0.5) * 2 ** (40 * r() - 30))));
        await same(f, g, 0.001, "a million gradients: a loop over them (per k, or by binning their exponents), no spread into Math.min/Math.max");
    } },
  ],
});
