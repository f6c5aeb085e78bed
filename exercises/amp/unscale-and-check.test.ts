import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { unscaleGrads } from "../../lib/amp/index.js";
import type { unscaleAndCheck } from "./unscale-and-check.js";

const reference: typeof unscaleAndCheck = (grads, scale) => unscaleGrads(grads, scale);
const f32 = (...v: number[]) => Float32Array.from(v);

export default defineExercise({
  id: "4.3",
  title: "unscale and check for inf/NaN",
  chapter: "amp",
  file: "exercises/amp/unscale-and-check.ts",
  exportName: "unscaleAndCheck",
  signature: "unscaleAndCheck(grads: Float32Array[], scale: number): {grads: Float32Array[], foundInf: boolean}",
  summary:
    "Multiply every scaled gradient by fp32(1/scale) into new Float32Arrays and report whether any element of any tensor is ±Infinity or NaN, as GradScaler.unscale_ does before the optimizer step. Inputs stay unchanged; a scale that is not positive and finite throws a RangeError.",
  reference,
  checks: [
    { name: "power-of-two scale", points: 1, run: async (f) => {
        await expectSame(f, reference, [[f32(65536, -32768, 3)], 65536], { hint: "multiply by 1/scale; the result is a new Float32Array per tensor" });
    } },
    { name: "inf or NaN in any tensor", points: 2, run: async (f) => {
        await expectSame(f, reference, [[f32(1, 2), f32(3, Infinity)], 2], { hint: "look at every tensor, not only the first" });
        await expectSame(f, reference, [[f32(NaN), f32(1)], 2], { hint: "NaN is not finite either: Number.isFinite catches both" });
        await expectSame(f, reference, [[f32(-Infinity)], 1], { hint: "−Infinity counts too" });
    } },
    { name: "multiplies by fp32(1/scale)", points: 2, run: async (f) => {
        await expectSame(f, reference, [[f32(1, 5, 7, 1e-3, 3.3)], 3], { hint: "PyTorch multiplies by Math.fround(1/scale), which differs from dividing by scale for scales that are not powers of two" });
    } },
    { name: "empty inputs", points: 1, run: async (f) => {
        await expectSame(f, reference, [[], 4], { hint: "no tensors: no inf, an empty list" });
        await expectSame(f, reference, [[new Float32Array(0)], 4]);
    } },
    { name: "bad scale throws", points: 1, run: async (f) => {
        await expectThrows(f, [[f32(1)], 0], /scale/, { hint: "a scale of 0 would divide by zero" });
        await expectThrows(f, [[f32(1)], NaN], /scale/);
    } },
    { name: "random gradients and scales", points: 2, run: (f) => property(
        fc.record({
          grads: fc.array(fc.array(fc.float(), { maxLength: 8 }).map((a) => Float32Array.from(a)), { maxLength: 4 }),
          scale: fc.oneof(fc.integer({ min: 0, max: 24 }).map((k) => 2 ** k), fc.double({ min: 0.5, max: 1e6, noNaN: true })),
        }),
        ({ grads, scale }) => expectSame(f, reference, [grads, scale], { hint: "foundInf looks at the gradients you were given (as PyTorch's kernel does), not at the products, which may overflow when 1/scale > 1" }).then(() => {}),
        { numRuns: 60 },
    ) },
  ],
});
