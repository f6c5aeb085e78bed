import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, property, expectThrows, type AnyFunction } from "../harness/index.js";
import { updateScale } from "../../lib/amp/index.js";
import type { gradScalerUpdate, ScaleOptions } from "./update-scale.js";

const SECTION = "py-torchs-grad-scaler";
const reference: typeof gradScalerUpdate = (scale, tracker, foundInf, options) => updateScale(scale, tracker, foundInf, options);
const defaults: ScaleOptions = { growthFactor: 2, backoffFactor: 0.5, growthInterval: 2000 };
const see = "see the page's section \"PyTorch's GradScaler\" (src/amp.md#py-torchs-grad-scaler)";

/** Runs `f` over a sequence of inf flags from (scale, 0) and compares every step with the reference. */
async function trace(f: typeof gradScalerUpdate, infs: boolean[], o: ScaleOptions, scale0: number, hint: string) {
  let mine = { scale: scale0, growthTracker: 0 };
  let ref = { scale: scale0, growthTracker: 0 };
  for (let i = 0; i < infs.length; i++) {
    const args: Parameters<typeof gradScalerUpdate> = [mine.scale, mine.growthTracker, infs[i]!, o];
    ref = reference(ref.scale, ref.growthTracker, infs[i]!, o);
    mine = await expectCall(f, args, ref, { hint: `step ${i + 1} of the trace [${infs.map((x) => (x ? "inf" : "ok")).join(", ")}]: ${hint}`, name: "gradScalerUpdate" });
  }
}

/** Asserts a throw of class `cls` whose message matches `pattern` (the contract names both). */
async function expectRangeError(f: typeof gradScalerUpdate, args: Parameters<typeof gradScalerUpdate>, pattern: RegExp, hint: string) {
  await expectThrows(f as AnyFunction, args as unknown[], pattern, { class: RangeError, hint });
}

export default defineExercise({
  id: "4.2",
  kind: "transcription",
  title: "GradScaler.update as a pure function",
  chapter: "amp",
  section: SECTION,
  file: "exercises/amp/update-scale.ts",
  exportName: "gradScalerUpdate",
  signature: "gradScalerUpdate(scale, growthTracker, foundInf, {growthFactor, backoffFactor, growthInterval}): {scale, growthTracker}",
  summary:
    "Return the next loss scale and growth tracker exactly as torch.amp.GradScaler.update() (the _amp_update_scale_ kernel) leaves them after one iteration. The scale is float32 and never grows to Infinity; bad inputs (options, a scale that is not positive and finite, a bad tracker) throw a RangeError naming the field.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectSame(f, reference, [65536, 1999, false, defaults], { hint: `the @example of the stub; ${see}`, name: "gradScalerUpdate" });
    } },
    { name: "backoff on inf/NaN resets the tracker", points: 1, run: async (f) => {
        await expectSame(f, reference, [65536, 1500, true, defaults], { hint: `what happens to the tracker after an overflow? ${see}`, name: "gradScalerUpdate" });
    } },
    { name: "growth on the growthInterval-th clean step", points: 1, run: async (f) => {
        await expectSame(f, reference, [65536, 1998, false, defaults], { hint: `one step short of the interval; ${see}`, name: "gradScalerUpdate" });
        await expectSame(f, reference, [2 ** 10, 0, false, { ...defaults, growthInterval: 1 }], { hint: `growthInterval 1: every clean step grows; ${see}`, name: "gradScalerUpdate" });
    } },
    { name: "step-by-step trace (interval 3)", points: 1, run: async (f) => {
        await trace(f, [false, false, false, false, true, false, false, false, false], { ...defaults, growthInterval: 3 }, 1024, `compare with the page's trace table; ${see}`);
    } },
    { name: "float32 scale, no growth to Infinity", points: 1, run: async (f) => {
        await expectSame(f, reference, [2 ** 127, 0, false, { ...defaults, growthInterval: 1 }], { hint: `2^128 is Infinity in float32; ${see}`, name: "gradScalerUpdate" });
        await expectSame(f, reference, [1, 0, true, { ...defaults, backoffFactor: 0.1 }], { hint: "the scale is a float32 tensor in PyTorch", name: "gradScalerUpdate" });
        await expectSame(f, reference, [3, 0, false, { ...defaults, growthFactor: 1.1, growthInterval: 1 }], { hint: "the scale is a float32 tensor in PyTorch", name: "gradScalerUpdate" });
    } },
    { name: "bad options throw a RangeError naming the field", points: 1, run: async (f) => {
        await expectRangeError(f, [1, 0, false, { ...defaults, growthFactor: 1 }], /growthFactor/, "the contract lists the bad options");
        await expectRangeError(f, [1, 0, false, { ...defaults, growthFactor: Infinity }], /growthFactor/, "a growth factor must be finite");
        await expectRangeError(f, [1, 0, false, { ...defaults, backoffFactor: 1.5 }], /backoffFactor/, "backoffFactor lies in (0, 1)");
        await expectRangeError(f, [1, 0, false, { ...defaults, backoffFactor: 0 }], /backoffFactor/, "backoffFactor lies in (0, 1)");
        await expectRangeError(f, [1, 0, false, { ...defaults, growthInterval: -1 }], /growthInterval/, "growthInterval is an integer >= 1");
        await expectRangeError(f, [1, 0, false, { ...defaults, growthInterval: 2.5 }], /growthInterval/, "growthInterval is an integer >= 1");
    } },
    { name: "bad scale or tracker throws a RangeError", points: 1, run: async (f) => {
        await expectRangeError(f, [Infinity, 0, true, defaults], /scale/, "Infinity is not a scale: the contract asks for a positive finite number");
        await expectRangeError(f, [0, 0, false, defaults], /scale/, "a scale must be positive");
        await expectRangeError(f, [NaN, 0, false, defaults], /scale/, "NaN is not a scale");
        await expectRangeError(f, [1, -1, false, defaults], /growthTracker/, "the tracker counts steps: an integer >= 0");
        await expectRangeError(f, [1, 0.5, false, defaults], /growthTracker/, "the tracker counts steps: an integer >= 0");
    } },
    { name: "random traces", points: 1, run: (f) => property(
        fc.record({ infs: fc.array(fc.boolean(), { maxLength: 25 }), interval: fc.integer({ min: 1, max: 4 }), growth: fc.constantFrom(2, 1.5, 4), backoff: fc.constantFrom(0.5, 0.25, 0.3) }),
        ({ infs, interval, growth, backoff }) => trace(f, infs, { growthFactor: growth, backoffFactor: backoff, growthInterval: interval }, 2 ** 16, see),
        { numRuns: 40 },
    ) },
  ],
});
