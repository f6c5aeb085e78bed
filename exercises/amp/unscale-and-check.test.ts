import * as fc from "fast-check";
import { defineExercise, expectSame, property, expectThrows, type AnyFunction } from "../harness/index.js";
import { unscaleGrads } from "../../lib/amp/index.js";
import type { unscaleAndCheck } from "./unscale-and-check.js";

const SECTION = "unscale-then-check-unscale-before-clipping";
const see = `see the page's section #${SECTION}`;
const reference: typeof unscaleAndCheck = (grads, scale) => unscaleGrads(grads, scale);
const f32 = (...v: number[]) => Float32Array.from(v);

async function expectRangeError(f: typeof unscaleAndCheck, args: Parameters<typeof unscaleAndCheck>, hint: string) {
  await expectThrows(f as AnyFunction, args as unknown[], /scale/, { class: RangeError, hint });
}

export default defineExercise({
  id: "4.3",
  title: "unscale and check for inf/NaN",
  chapter: "amp",
  section: SECTION,
  file: "exercises/amp/unscale-and-check.ts",
  exportName: "unscaleAndCheck",
  signature: "unscaleAndCheck(grads: Float32Array[], scale: number): {grads: Float32Array[], foundInf: boolean}",
  summary:
    "Return the unscaled gradients as GradScaler.unscale_ computes them (new Float32Arrays, multiplier fp32(1/scale)) and whether any gradient, tested as given (still scaled), is ±Infinity or NaN. Inputs stay unchanged; a scale that is not positive and finite throws a RangeError.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectSame(f, reference, [[f32(65536, 32768)], 65536], { hint: `the @example of the stub; ${see}`, name: "unscaleAndCheck" });
    } },
    { name: "power-of-two scale", points: 1, run: async (f) => {
        await expectSame(f, reference, [[f32(65536, -32768, 3), f32(-0, 1)], 65536], { hint: `one new Float32Array per tensor; ${see}`, name: "unscaleAndCheck" });
    } },
    { name: "inf or NaN in any tensor", points: 2, run: async (f) => {
        await expectSame(f, reference, [[f32(1, 2), f32(3, Infinity)], 2], { hint: "look at every tensor, not only the first", name: "unscaleAndCheck" });
        await expectSame(f, reference, [[f32(NaN), f32(1)], 2], { hint: "NaN marks the step too", name: "unscaleAndCheck" });
        await expectSame(f, reference, [[f32(-Infinity)], 1], { hint: "−Infinity marks the step too", name: "unscaleAndCheck" });
        await expectSame(f, reference, [[f32(1), f32(Infinity, NaN, 2)], 4], { hint: "a row holding both Infinity and NaN", name: "unscaleAndCheck" });
    } },
    { name: "the test looks at the gradients as given", points: 1, run: async (f) => {
        // scale < 1: the inverse is > 1 and a finite gradient times it overflows float32; that does not mark the step
        await expectSame(f, reference, [[f32(3e38, -3e38, 1)], 2 ** -4], { hint: `which values does GradScaler's kernel test? ${see}`, name: "unscaleAndCheck" });
    } },
    { name: "multiplies by fp32(1/scale)", points: 2, run: async (f) => {
        await expectSame(f, reference, [[f32(1, 5, 7, 1e-3, 3.3)], 3], { hint: `the multiplier is stored as float32 in PyTorch; ${see}`, name: "unscaleAndCheck" });
    } },
    { name: "empty inputs", points: 1, run: async (f) => {
        await expectSame(f, reference, [[], 4], { hint: "no tensors: no inf, an empty list", name: "unscaleAndCheck" });
        await expectSame(f, reference, [[new Float32Array(0)], 4], { name: "unscaleAndCheck" });
    } },
    { name: "bad scale throws a RangeError", points: 1, run: async (f) => {
        await expectRangeError(f, [[f32(1)], 0], "a scale of 0 would divide by zero");
        await expectRangeError(f, [[f32(1)], -1], "a scale is positive");
        await expectRangeError(f, [[f32(1)], NaN], "NaN is not a scale");
        await expectRangeError(f, [[f32(1)], Infinity], "Infinity as a scale would turn every gradient into 0 (or NaN): the contract rejects it");
    } },
    { name: "random gradients and scales", points: 2, run: (f) => property(
        fc.record({
          grads: fc.array(fc.array(fc.float(), { maxLength: 8 }).map((a) => Float32Array.from(a)), { maxLength: 4 }),
          scale: fc.oneof(fc.integer({ min: -8, max: 24 }).map((k) => 2 ** k), fc.double({ min: 0.01, max: 1e6, noNaN: true })),
        }),
        ({ grads, scale }) => expectSame(f, reference, [grads, scale], { hint: see, name: "unscaleAndCheck" }).then(() => {}),
        { numRuns: 60 },
    ) },
  ],
});
