import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, property } from "../harness/index.js";
import { updateScale } from "../../lib/amp/index.js";
import type { gradScalerUpdate, ScaleOptions } from "./update-scale.js";

const reference: typeof gradScalerUpdate = (scale, tracker, foundInf, options) => updateScale(scale, tracker, foundInf, options);
const defaults: ScaleOptions = { growthFactor: 2, backoffFactor: 0.5, growthInterval: 2000 };

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

export default defineExercise({
  id: "4.2",
  title: "GradScaler.update as a pure function",
  chapter: "amp",
  file: "exercises/amp/update-scale.ts",
  exportName: "gradScalerUpdate",
  signature: "gradScalerUpdate(scale, growthTracker, foundInf, {growthFactor, backoffFactor, growthInterval}): {scale, growthTracker}",
  summary:
    "Return the next loss scale and growth tracker as PyTorch's GradScaler.update (_amp_update_scale_) computes them: back off and reset on inf/NaN; count this clean step, and grow (then reset) when the count reaches growthInterval. The scale is float32 and never grows to Infinity; bad options throw a RangeError naming the field.",
  reference,
  checks: [
    { name: "backoff on inf/NaN resets the tracker", points: 1, run: async (f) => {
        await expectSame(f, reference, [65536, 1500, true, defaults], { hint: "an overflow multiplies by backoffFactor AND sets growthTracker to 0" });
    } },
    { name: "growth on the growthInterval-th clean step", points: 2, run: async (f) => {
        await expectSame(f, reference, [65536, 1999, false, defaults], { hint: "this step counts: successful = tracker + 1 is compared with growthInterval" });
        await expectSame(f, reference, [65536, 1998, false, defaults], { hint: "one step short of the interval: only the tracker moves" });
    } },
    { name: "step-by-step trace (interval 3)", points: 2, run: async (f) => {
        await trace(f, [false, false, false, false, true, false, false, false, false], { ...defaults, growthInterval: 3 }, 1024, "after a growth the tracker restarts from 0");
    } },
    { name: "float32 scale, no growth to Infinity", points: 1, run: async (f) => {
        await expectSame(f, reference, [2 ** 127, 0, false, { ...defaults, growthInterval: 1 }], { hint: "2^128 is Infinity in float32: keep the old scale (the tracker still resets)" });
        await expectSame(f, reference, [1, 0, true, { ...defaults, backoffFactor: 0.1 }], { hint: "PyTorch stores the scale in a float32 tensor: Math.fround the product" });
    } },
    { name: "bad options throw", points: 1, run: async (f) => {
        await expectThrows(f, [1, 0, false, { ...defaults, growthFactor: 1 }], /growthFactor/, { hint: "growthFactor must be > 1" });
        await expectThrows(f, [1, 0, false, { ...defaults, backoffFactor: 1.5 }], /backoffFactor/, { hint: "backoffFactor must be in (0, 1)" });
        await expectThrows(f, [1, 0, false, { ...defaults, growthInterval: -1 }], /growthInterval/, { hint: "growthInterval must be an integer >= 1" });
    } },
    { name: "random traces", points: 2, run: (f) => property(
        fc.record({ infs: fc.array(fc.boolean(), { maxLength: 25 }), interval: fc.integer({ min: 1, max: 4 }) }),
        ({ infs, interval }) => trace(f, infs, { ...defaults, growthInterval: interval }, 2 ** 16, "compare with the rules in the stub's comment"),
        { numRuns: 40 },
    ) },
  ],
});
