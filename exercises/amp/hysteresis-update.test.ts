import * as fc from "fast-check";
import { defineExercise, expectCall, expectThrows, property } from "../harness/index.js";
import { dynamicLossScaleUpdate } from "../../lib/amp/index.js";
import type { hysteresisUpdate, HysteresisOptions, ScalerState } from "./hysteresis-update.js";

const SECTION = "deep-speeds-dynamic-loss-scaler-and-the-notes-config";
const see = "see the page's section \"DeepSpeed's DynamicLossScaler and the notes' config\" (src/amp.md#deep-speeds-dynamic-loss-scaler-and-the-notes-config)";
/** DeepSpeed ≥ 0.17.1 (the lib default release). */
const reference: typeof hysteresisUpdate = (state, overflow, o) => dynamicLossScaleUpdate(state, overflow, { ...o, initScale: state.curScale });
const notes: HysteresisOptions = { scaleWindow: 100, minScale: 1, delayedShift: 2, consecutiveHysteresis: false }; // the notes' ZeRO-2 block, with a min_loss_scale current DeepSpeed accepts
const start = (scale = 65536, hyst = 2): ScalerState => ({ curScale: scale, curIter: 0, lastOverflowIter: -1, curHysteresis: hyst });

async function trace(f: typeof hysteresisUpdate, overflows: boolean[], o: HysteresisOptions, s0: ScalerState, hint: string) {
  let mine = s0, ref = s0;
  for (let i = 0; i < overflows.length; i++) {
    ref = reference(ref, overflows[i]!, o);
    mine = await expectCall(f, [mine, overflows[i]!, o], ref, { name: "hysteresisUpdate", hint: `iteration ${i} of [${overflows.map((x) => (x ? "overflow" : "ok")).join(", ")}]: ${hint}` });
  }
}

export default defineExercise({
  id: "4.5",
  kind: "concept",
  title: "DeepSpeed's loss scale update with hysteresis",
  chapter: "amp",
  section: SECTION,
  file: "exercises/amp/hysteresis-update.ts",
  exportName: "hysteresisUpdate",
  signature: "hysteresisUpdate(state: {curScale, curIter, lastOverflowIter, curHysteresis}, overflow: boolean, options): state",
  summary:
    "Return the state one call of DeepSpeed's DynamicLossScaler.update_scale(overflow) leaves, as DeepSpeed ≥ 0.17.1 does it: overflows spend the hysteresis before the scale halves (floored at min_loss_scale, DeepSpeed's error at the floor); growth follows that release's stable-interval rule; consecutive_hysteresis refills after every clean iteration.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectCall(f, [start(), true, notes], reference(start(), true, notes), { name: "hysteresisUpdate", hint: `the @example of the stub; ${see}` });
    } },
    { name: "the notes' config: hysteresis 2", points: 3, run: (f) => trace(f, [true, true, true], notes, start(), `what does the first overflow spend? ${see}`) },
    { name: "hysteresis refills only at growth without consecutive_hysteresis", points: 3, run: async (f) => {
        await trace(f, [true, false, true], notes, start(), `when does the hysteresis refill? ${see}`);
        await trace(f, [true, false, true], { ...notes, consecutiveHysteresis: true }, start(), `consecutive_hysteresis; ${see}`);
    } },
    { name: "growth on the (window + 1)-th clean iteration, then every window", points: 2, run: async (f) => {
        const o = { ...notes, scaleWindow: 3, delayedShift: 1 };
        await trace(f, [false, false, false, false, false, false, false], o, start(65536, 1), `which release's growth rule? ${see}`);
        await trace(f, [false, true, false, false, false, false], o, start(65536, 1), `count from the last overflow; ${see}`);
    } },
    { name: "floor at minScale, then DeepSpeed's error", points: 1, run: async (f) => {
        const o = { ...notes, minScale: 1.5, delayedShift: 1 };
        await expectCall(f, [start(2, 1), true, o], reference(start(2, 1), true, o), { name: "hysteresisUpdate", hint: `the floor; ${see}` });
        await expectThrows(f, [start(1.5, 1), true, o], /^Current loss scale already at minimum - cannot decrease scale anymore\. Exiting run\.$/, { name: "hysteresisUpdate", hint: "at the minimum DeepSpeed raises instead of going lower: use its message" });
        // at the minimum with hysteresis left, an overflow only spends it: DeepSpeed raises only when the scale would drop
        const h = { ...notes, minScale: 1.5, delayedShift: 3 };
        await expectCall(f, [start(1.5, 2), true, h], reference(start(1.5, 2), true, h), { name: "hysteresisUpdate", hint: "the error comes only when an overflow would lower the scale; one that spends hysteresis does not, even at the minimum" });
        await expectThrows(f, [start(1.5, 1), true, h], /^Current loss scale already at minimum/, { name: "hysteresisUpdate", hint: "the hysteresis spent, the next overflow at the minimum raises" });
    } },
    { name: "random overflow sequences", points: 2, run: (f) => property(
        fc.record({ ovs: fc.array(fc.boolean(), { maxLength: 30 }), hyst: fc.integer({ min: 1, max: 3 }), win: fc.integer({ min: 1, max: 4 }), consec: fc.boolean() }),
        ({ ovs, hyst, win, consec }) => trace(f, ovs, { scaleWindow: win, minScale: 2 ** -40, delayedShift: hyst, consecutiveHysteresis: consec }, start(2 ** 16, hyst), see),
        { numRuns: 50 },
    ) },
  ],
});
