import * as fc from "fast-check";
import { CheckFailure, callSafely, defineExercise, expectCall, formatCall, formatValue, isNotImplemented, property } from "../harness/index.js";
import { ampStep, castArray, initAmpState, type AmpConfig } from "../../lib/amp/index.js";
import type { ampSgdStep } from "./amp-sgd-step.js";

const SECTION = "the-amp-loop-step-by-step";

/** The reference runs the course's ampStep with a model whose backward returns the given fp16 gradient. */
const reference: typeof ampSgdStep = (master, scaledGrad16, scale, lr) => {
  if (!(typeof scale === "number" && scale > 0 && Number.isFinite(scale))) throw new RangeError(`scale must be a positive finite number, got ${scale}`);
  const cfg: AmpConfig = { precision: "fp16", lossScaling: scale, optimizer: { kind: "sgd", lr } };
  const model = { lossAndGrads: () => ({ loss: 0, grads: [Float32Array.from(scaledGrad16)] }) };
  const { state, record } = ampStep(model, initAmpState([master], cfg), null, cfg);
  return { master: state.master[0]!, skipped: record.skipped };
};
const f32 = (...v: number[]) => Float32Array.from(v);

/** Distance between x and the next float32 away from zero (ulp of |x|'s binade); 2^-149 at 0. */
export function ulp32(x: number): number {
  const a = Math.abs(Math.fround(x));
  if (a === 0 || a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

/**
 * The contract's comparison: same `skipped`; a skipped step returns the weights exactly; otherwise each
 * element within ulp(lr·g) + ulp(result), where g = fp32(scaledGrad16·fp32(1/scale)).
 */
async function expectStep(f: typeof ampSgdStep, args: Parameters<typeof ampSgdStep>, hint: string): Promise<void> {
  const expected = reference(...args);
  const [master, g16, scale, lr] = args;
  const call = formatCall("ampSgdStep", args);
  const got = await callSafely(f, args, { hint, name: "ampSgdStep" });
  if (!got || !(got.master instanceof Float32Array) || typeof got.skipped !== "boolean" || got.master.length !== master.length) {
    throw new CheckFailure({ call, detail: "must return {master: Float32Array of the same length, skipped: boolean}", expected: formatValue(expected), received: formatValue(got), hint });
  }
  if (got.skipped !== expected.skipped || expected.skipped) {
    await expectCall(f, args, expected, { hint, name: "ampSgdStep" });
    return;
  }
  const inv = Math.fround(1 / scale);
  for (let i = 0; i < master.length; i++) {
    const e = expected.master[i]!, r = got.master[i]!;
    const g = Math.fround(g16[i]! * inv);
    const tol = ulp32(lr * g) + Math.max(ulp32(e), ulp32(r));
    if (!(Math.abs(r - e) <= tol)) {
      throw new CheckFailure({ call, detail: `wrong value at .master[${i}]`, expected: formatValue(e), received: formatValue(r), tolerance: `ulp(lr·g) + ulp(result) = ${formatValue(tol)}`, hint });
    }
  }
}

export default defineExercise({
  id: "4.1",
  title: "one AMP step on a parameter vector",
  chapter: "amp",
  section: SECTION,
  file: "exercises/amp/amp-sgd-step.ts",
  exportName: "ampSgdStep",
  signature: "ampSgdStep(master: Float32Array, scaledGrad16: Float32Array, scale: number, lr: number): {master: Float32Array, skipped: boolean}",
  summary:
    "Given fp32 weights and the fp16 gradient of scale·loss, return the fp32 weights after GradScaler.step and plain SGD, and whether the step was skipped (inf/NaN in the scaled gradients). Graded per element within ulp(lr·g) + ulp(result) (float32), so rounding lr·g first, rounding once and PyTorch's fused multiply-add all pass; a bad scale throws a RangeError.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectStep(f, [f32(1), f32(2), 65536, 1], `the @example of the stub; see the page's section #${SECTION}`);
    } },
    { name: "a small update survives in the fp32 weights", points: 2, run: async (f) => {
        await expectStep(f, [f32(1, -1, 2), f32(2, 3, -0.5), 65536, 1], "the update is far below fp16's spacing near 1: see the page's section #why-fp32-master-weights");
    } },
    { name: "unscaled gradients stay fp32", points: 2, run: async (f) => {
        await expectStep(f, [f32(0, 0), f32(1, 3), 2 ** 30, 2 ** 20], "the unscaled gradient is far below fp16's range: see the page's section #unscale-then-check-unscale-before-clipping");
    } },
    { name: "skip on inf/NaN, weights unchanged", points: 2, run: async (f) => {
        const hint = `an overflowed gradient skips the step: see the page's section #${SECTION}`;
        await expectStep(f, [f32(1, 2), f32(1, Infinity), 1024, 0.1], hint);
        await expectStep(f, [f32(1, 2), f32(NaN, 1), 1024, 0.1], hint);
        await expectStep(f, [f32(1, 2, 3), f32(-Infinity, 0.5, 1), 1024, 0.1], hint);
        await expectStep(f, [f32(1, 2, 3), f32(Infinity, NaN, 1), 8, 0.1], `${hint} (a row with both Infinity and NaN)`);
    } },
    { name: "rounding: one rounding or PyTorch's order both pass", points: 1, run: async (f) => {
        // master ≈ lr·g: the orders differ by several ulps of the result here; the contract accepts both.
        await expectStep(f, [f32(0.0001689911150606349), f32(0.002910614013671875), 1, 0.1], "compute the update in float32 from the fp32 weights");
    } },
    { name: "bad scale throws a RangeError", points: 1, run: async (f) => {
        for (const scale of [0, -2, NaN, Infinity]) {
          const call = formatCall("ampSgdStep", [f32(1), f32(1), scale, 0.1]);
          let err: unknown = null;
          try { await f(f32(1), f32(1), scale, 0.1); } catch (e) { if (isNotImplemented(e)) throw e; err = e; }
          if (!(err instanceof RangeError) || !/scale/.test(err.message)) {
            throw new CheckFailure({ call, detail: err ? `threw ${(err as Error).name}: ${(err as Error).message}` : "returned instead of throwing", expected: "a RangeError whose message names scale", hint: "the contract names the error: a scale that is not a positive finite number" });
          }
        }
    } },
    { name: "random steps", points: 2, run: (f) => property(
        fc.record({
          master: fc.array(fc.float({ min: -4, max: 4, noNaN: true }), { minLength: 1, maxLength: 6 }),
          k: fc.integer({ min: 0, max: 24 }),
          lr: fc.constantFrom(1, 0.1, 1e-3),
          seed: fc.integer({ min: 1, max: 1000 }),
        }),
        ({ master, k, lr, seed }) => {
          const g = castArray("fp16", Float32Array.from(master, (_, i) => Math.sin(seed * (i + 1)) * 2 ** (k - 8)));
          return expectStep(f, [Float32Array.from(master), g, 2 ** k, lr], `see the page's section #${SECTION}`);
        },
        { numRuns: 50 },
    ) },
  ],
});
