/**
 * What the sources say each schedule costs: bubble, activations, parameters and pipeline sends,
 * as closed forms in the pass times, to set beside what the event lists measure.
 */
import { resolveTimes, type ScheduleName, type StageTimes } from "./schedule.js";

/** A schedule's costs as its source writes them. */
export interface ScheduleClosedForm {
  /** Idle time inside the busiest device's span, ms; null where the source gives no closed form for these times. */
  bubbleMs: number | null;
  /** The formula, in the source's notation. */
  formula: string;
  /** Most micro-batches' activations a device holds, in micro-batches through one device's share of the layers (1F1B's p). */
  activations: number;
  /** Parameters per device, relative to 1F1B on the same p devices. */
  parameters: number;
  /** Activation messages between devices per step, relative to 1F1B. */
  sends: number;
  /** When the event list measures exactly `bubbleMs` (checked by the tests). */
  exactWhen: string;
  source: string;
}

/**
 * The closed forms of the sources for the bubble inside a device's span and for the memory of
 * 1F1B, ZB-H1, ZB-H2, ZB-V, DualPipe and DualPipeV, for one device's pass times F, B (input
 * gradient), W and DualPipe's overlapped F&B. Qi et al. give (p − 1)(F + B + W) for 1F1B,
 * (p − 1)(F + B − W) for ZB-H1 and (p − 1)(F + B − 2W) for ZB-H2, with p, p and 2p − 1 micro-batches
 * in flight (Table 2); ZB-V has zero bubble when F = B = W with p in flight (§6); the DualPipe
 * README gives (PP/2 − 1)(F&B + B′ − 3W) with B′ = B + W the full backward, activations PP + 1
 * stages and parameters 2× (for DualPipeV on p devices, PP = 2p stages of half a device each).
 * @param name one of "1f1b", "zb-h1", "zb-h2", "zb-v", "dualpipe", "dualpipe-v"
 * @param p devices (integer ≥ 1; even for DualPipe)
 * @param times one device's times (numbers; the first entry is used if arrays); `overlapped` is F&B (default F + B + W)
 * @returns the closed forms and the conditions under which the event list matches them
 * @throws {RangeError} `p must be an integer >= 1, got 0`; `p must be even for DualPipe, got 3`; `no closed form for "gpipe" here: use closedFormBubble`
 * @example scheduleClosedForm("dualpipe", 8, { forward: 1, backward: 1, weight: 1 }).bubbleMs // 6 = (8/2 − 1)(3 + 2 − 3), the README figure's idle cells per device
 * @see Qi et al. 2023, Table 2 and §6; deepseek-ai/DualPipe README at 3da1bbe; DeepSeek-V3 report §3.2.1
 */
export function scheduleClosedForm(name: ScheduleName, p: number, times: StageTimes): ScheduleClosedForm {
  if (!Number.isInteger(p) || p < 1) throw new RangeError(`p must be an integer >= 1, got ${p}`);
  const t = resolveTimes(times, p);
  const F = t.forward[0], B = t.backward[0], W = t.weight[0], FB = t.overlapped[0];
  const qi = "Qi et al. 2023, Table 2";
  switch (name) {
    case "1f1b": return { bubbleMs: (p - 1) * (F + B + W), formula: "(p − 1)(F + B + W)", activations: p, parameters: 1, sends: 1, exactWhen: "m ≥ p", source: qi };
    case "zb-h1": return { bubbleMs: (p - 1) * (F + B - W), formula: "(p − 1)(F + B − W)", activations: p, parameters: 1, sends: 1, exactWhen: "m ≥ p, W ≤ F and W ≤ B", source: qi };
    case "zb-h2": return { bubbleMs: (p - 1) * (F + B - 2 * W), formula: "(p − 1)(F + B − 2W)", activations: 2 * p - 1, parameters: 1, sends: 1, exactWhen: "m ≥ 2p − 1, W ≤ F and W ≤ B", source: qi };
    case "zb-v": return { bubbleMs: F === B && B === W ? 0 : null, formula: "0 when F = B = W", activations: p, parameters: 1, sends: 2, exactWhen: "m ≥ 2p − 1, F = B = W", source: "Qi et al. 2023 (arXiv v2), §6" };
    case "dualpipe":
      if (p % 2 !== 0) throw new RangeError(`p must be even for DualPipe, got ${p}`);
      return { bubbleMs: (p / 2 - 1) * (FB + (B + W) - 3 * W), formula: "(PP/2 − 1)(F&B + B′ − 3W), B′ = B + W", activations: p + 1, parameters: 2, sends: 1, exactWhen: "m ≥ 2p even, F = B, F&B ≥ F + B + W", source: "deepseek-ai/DualPipe README; DeepSeek-V3 report §3.2.1" };
    case "dualpipe-v": // PP = 2p stages, each half a device: chunk times are half the device's
      return { bubbleMs: (p - 1) * (FB + (B + W) - 3 * W) / 2, formula: "(PP/2 − 1)(F&B + B′ − 3W) with PP = 2p and chunk times", activations: (2 * p + 1) / 2, parameters: 1, sends: 2, exactWhen: "m ≥ 2p, F = B, F&B ≥ F + B + W", source: "deepseek-ai/DualPipe README" };
    default: throw new RangeError(`no closed form for ${JSON.stringify(name)} here: use closedFormBubble`);
  }
}
