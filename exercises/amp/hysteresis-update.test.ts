import * as fc from "fast-check";
import { defineExercise, expectCall, expectThrows, property } from "../harness/index.js";
import { dynamicLossScaleUpdate } from "../../lib/amp/index.js";
import type { hysteresisUpdate, HysteresisOptions, ScalerState } from "./hysteresis-update.js";

const reference: typeof hysteresisUpdate = (state, overflow, o) => dynamicLossScaleUpdate(state, overflow, { ...o, initScale: state.curScale });
const notes: HysteresisOptions = { scaleWindow: 100, minScale: 1e-10, delayedShift: 2, consecutiveHysteresis: false }; // the notes' ZeRO-2 config
const start = (scale = 65536, hyst = 2): ScalerState => ({ curScale: scale, curIter: 0, lastOverflowIter: -1, curHysteresis: hyst });

async function trace(f: typeof hysteresisUpdate, overflows: boolean[], o: HysteresisOptions, s0: ScalerState, hint: string) {
  let mine = s0, ref = s0;
  for (let i = 0; i < overflows.length; i++) {
    ref = reference(ref, overflows[i]!, o);
    mine = await expectCall(f, [mine, overflows[i]!, o], ref, { name: "hysteresisUpdate", hint: `iteration ${i} of [${overflows.map((x) => (x ? "overflow" : "ok")).join(", ")}]: ${hint}` });
  }
}

export default defineExercise({
  id: "4.4",
  title: "DeepSpeed's loss scale update with hysteresis",
  chapter: "amp",
  file: "exercises/amp/hysteresis-update.ts",
  exportName: "hysteresisUpdate",
  signature: "hysteresisUpdate(state: {curScale, curIter, lastOverflowIter, curHysteresis}, overflow: boolean, options): state",
  summary:
    "Implement DynamicLossScaler.update_scale from DeepSpeed: overflows first spend the hysteresis, then halve the scale (floored at min_loss_scale, an error when already at the minimum); the scale doubles every loss_scale_window clean iterations since the last overflow; consecutive_hysteresis refills the hysteresis after every clean iteration.",
  reference,
  checks: [
    { name: "the notes' config: hysteresis 2", points: 2, run: (f) => trace(f, [true, true, true], notes, start(), "the first overflow only spends hysteresis; the second halves") },
    { name: "hysteresis refills only at growth without consecutive_hysteresis", points: 2, run: async (f) => {
        await trace(f, [true, false, true], notes, start(), "a clean iteration does not refill hysteresis unless consecutive_hysteresis is set");
        await trace(f, [true, false, true], { ...notes, consecutiveHysteresis: true }, start(), "with consecutive_hysteresis every clean iteration refills it");
    } },
    { name: "growth every scaleWindow clean iterations since the last overflow", points: 2, run: async (f) => {
        const o = { ...notes, scaleWindow: 3, delayedShift: 1 };
        await trace(f, [false, false, false, false, false, false, false], o, start(65536, 1), "stable = curIter − lastOverflowIter − 1 must be > 0 and a multiple of the window");
        await trace(f, [false, true, false, false, false, false], o, start(65536, 1), "an overflow restarts the count from its iteration");
    } },
    { name: "floor at minScale, then DeepSpeed's error", points: 1, run: async (f) => {
        const o = { ...notes, minScale: 1.5, delayedShift: 1 };
        await expectCall(f, [start(2, 1), true, o], reference(start(2, 1), true, o), { hint: "max(curScale / 2, minScale)" });
        await expectThrows(f, [start(1.5, 1), true, o], /already at minimum/, { hint: "at the minimum DeepSpeed raises instead of going lower" });
    } },
    { name: "random overflow sequences", points: 2, run: (f) => property(
        fc.record({ ovs: fc.array(fc.boolean(), { maxLength: 30 }), hyst: fc.integer({ min: 1, max: 3 }), win: fc.integer({ min: 1, max: 4 }), consec: fc.boolean() }),
        ({ ovs, hyst, win, consec }) => trace(f, ovs, { scaleWindow: win, minScale: 2 ** -40, delayedShift: hyst, consecutiveHysteresis: consec }, start(2 ** 16, hyst), "compare with the rules in the stub's comment"),
        { numRuns: 50 },
    ) },
  ],
});
