/**
 * Delayed scaling over a run, from the amax of one tensor at every step: the
 * scale each step uses and whether the step's largest value overflowed it.
 */
import { fp8Rounder, type Fp8FormatName } from "../../precision/fp8Rounder.js";
import { amaxAndScaleUpdate } from "./amaxAndScaleUpdate.js";
import { delayedScaling, fp8Max, type DelayedScalingOptions } from "./DelayedScaling.js";

/** The per-tensor state TE keeps and checkpoints: the amax history and the scale. */
export interface DelayedScalingState {
  /** (amaxHistoryLen) amaxes; slot 0 is the current step's (0 after every update). */
  amaxHistory: number[];
  scale: number;
}

/** What {@link scaleTrace} returns. */
export interface ScaleTraceResult {
  /** The scale each step cast with. */
  scale: number[];
  /** Whether the step's amax, times its scale, rounded beyond the format's largest value (the saturating cast clipped it). */
  overflow: boolean[];
  /** The state after the last step's update. */
  final: DelayedScalingState;
}

/**
 * Replays Transformer Engine's delayed scaling for one tensor whose amax at
 * step t is `amaxes[t]`: step t casts with the current scale, its amax is
 * max-ed into slot 0 of the history (TE's atomicMax), then
 * {@link amaxAndScaleUpdate} rolls the history and computes the next scale.
 * The step overflowed when fp8(fp32(amax · scale)) is beyond the format's largest
 * value before saturation (E4M3: above 464, the tie at 464 rounding down to 448;
 * E5M2: from 61440 up, where the tie rounds up).
 * @param amaxes (T) per-step amaxes, each >= 0 or +Infinity (a tensor holding ±Infinity)
 * @param recipe margin, amaxHistoryLen, amaxComputeAlgo (defaults: TE's)
 * @param format the tensor's format: "fp8-e4m3" (inputs, weights) or "fp8-e5m2" (HYBRID's gradients)
 * @param initial a state to resume from (a checkpoint), default TE's start: scale 1, history of zeros
 * @returns per-step scales and overflow flags, and the final state
 * @throws {RangeError} `amaxes[2] must be an amax >= 0, got NaN`; `initial.amaxHistory must have amaxHistoryLen = 4 entries, got 3`;
 *   the recipe's and the update's messages
 * @example scaleTrace([100, 100, 200], { amaxHistoryLen: 1 }, "fp8-e4m3")
 *   // { scale: [1, 4.48, 4.48], overflow: [false, false, true], … } (4.48 is the float32 4.480000019073486; 200 · 4.48 = 896 > 464)
 * @example scaleTrace([100, 100, 200], { amaxHistoryLen: 1, margin: 1 }, "fp8-e4m3").overflow // [false, false, false]: 200 · 2.24 = 448
 * @see NVIDIA/TransformerEngine transformer_engine/common/recipe/delayed_scaling.cu and transformer_engine/pytorch/quantization.py
 *   (DelayedScalingRecipeState: scale = ones, amax_history = zeros; `_persistent_state_buffers`) at d0067d0
 */
export function scaleTrace(amaxes: readonly number[], recipe: Partial<DelayedScalingOptions>, format: Fp8FormatName, initial?: DelayedScalingState): ScaleTraceResult {
  const r = delayedScaling(recipe), max = fp8Max(format), plain = fp8Rounder(format);
  amaxes.forEach((a, t) => { if (typeof a !== "number" || !(a >= 0)) throw new RangeError(`amaxes[${t}] must be an amax >= 0, got ${a}`); });
  if (initial && initial.amaxHistory?.length !== r.amaxHistoryLen) {
    throw new RangeError(`initial.amaxHistory must have amaxHistoryLen = ${r.amaxHistoryLen} entries, got ${initial.amaxHistory?.length}`);
  }
  initial?.amaxHistory.forEach((a, i) => { if (typeof a !== "number" || !(a >= 0)) throw new RangeError(`initial.amaxHistory[${i}] must be an amax >= 0, got ${a}`); });
  if (initial && !(initial.scale > 0 && Number.isFinite(initial.scale))) throw new RangeError(`initial.scale must be a positive finite number, got ${initial.scale}`);
  let state: DelayedScalingState = initial ? { amaxHistory: [...initial.amaxHistory], scale: initial.scale } : { amaxHistory: new Array(r.amaxHistoryLen).fill(0), scale: 1 };
  const scale: number[] = [], overflow: boolean[] = [];
  for (const a of amaxes) {
    scale.push(state.scale);
    overflow.push(!Number.isFinite(plain(Math.fround(a * state.scale))));
    const history = [...state.amaxHistory];
    history[0] = Math.max(history[0], a);
    const next = amaxAndScaleUpdate(history, state.scale, max, r);
    state = { amaxHistory: next.amaxHistory, scale: next.scale };
  }
  return { scale, overflow, final: state };
}
