import { notImplemented } from "../harness/index.js";

/** What a loss-scale trace shows; a setting the trace cannot show is null. */
export interface ScaleTraceReading {
  /** The steps (0-based) whose gradients held an inf or NaN. */
  skipped: number[];
  growthFactor: number | null;
  backoffFactor: number | null;
  growthInterval: number | null;
}

/**
 * Exercise 4.3 — read a loss-scale trace.
 *
 * What: a training log kept GradScaler's scale: `scales[i]` is the scale used
 * at step i (0-based) and the last entry the scale after the last step's
 * `update()`, N + 1 values for N steps. Work out which steps were skipped
 * (their gradients held an inf or NaN) and the scaler's growth_factor,
 * backoff_factor and growth_interval, each as far as the trace shows it.
 * Input: `scales`, positive finite float32 values (not modified);
 * `fromStart`: true when the log begins right after the scaler was built,
 * false when it begins somewhere in the middle of training.
 * Output: `{ skipped, growthFactor, backoffFactor, growthInterval }`:
 * skipped in increasing order; a factor is null when the trace never shows
 * it; the interval is null unless the trace determines it exactly.
 * Convention: `update()` as in PyTorch's `_amp_update_scale_` (the page's
 * "PyTorch's GradScaler" section and exercise 4.2), with a float32 scale that
 * never grows to Infinity, and factors that are powers of two (the defaults,
 * 2 and 0.5, are). The growth tracker of a scaler built fresh is 0; in the
 * middle of training it is unknown.
 * Errors: a scale that is not a positive finite number throws a RangeError
 * naming its index (`scales[3] must be a positive finite number, got 0`); a
 * trace no GradScaler can make (two different backoff factors, two different
 * intervals, …) throws a RangeError whose message starts `not a GradScaler
 * trace`.
 * Example: readScaleTrace([65536, 65536, 131072, 65536, 65536, 131072], true)
 * → { skipped: [2], growthFactor: 2, backoffFactor: 0.5, growthInterval: 2 }.
 *
 * @param scales the scale before every step, and after the last
 * @param fromStart whether the trace begins when the scaler was built
 * @returns what the trace shows
 * @throws {RangeError} as above
 */
export function readScaleTrace(scales: number[], fromStart: boolean): ScaleTraceReading {
  return notImplemented("4.3");
}
