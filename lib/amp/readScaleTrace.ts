/**
 * The inverse of {@link updateScale}: what a logged loss-scale trace says
 * about the steps that were skipped and the scaler's settings.
 */

/** What {@link readScaleTrace} finds; a setting the trace does not show is null. */
export interface ScaleTraceReading {
  /** The steps (0-based) whose gradients held an inf or NaN: skipped, and the scale backed off. */
  skipped: number[];
  growthFactor: number | null;
  backoffFactor: number | null;
  /** Determined by a growth that follows a known growth tracker: the trace's start (`fromStart`), a skip or a growth. */
  growthInterval: number | null;
}

/**
 * Reads a GradScaler trace: `scales[i]` is the scale before step i and `scales[N]` the scale after the last
 * `update()`. A scale that falls marks a skipped step (S·backoff), one that rises a growth (S·growth) on the
 * growth_interval-th clean step since the growth tracker was last 0 (at construction, after a skip, after a
 * growth); a scale that stays is a clean step (or a growth that float32 could not hold). The interval is
 * known from a growth whose counting started inside the trace: from its start only when `fromStart`
 * (the tracker was 0), otherwise from a skip or an earlier growth. All factors of the trace must agree.
 * @param scales N + 1 float32 scales, each positive and finite (N >= 0)
 * @param fromStart whether the trace starts at the scaler's construction (tracker 0)
 * @returns the skipped steps and the settings the trace shows
 * @throws {RangeError} `scales[3] must be a positive finite number, got 0`; `not a GradScaler trace: …` when
 *   factors disagree, a factor is 1, or growth intervals disagree
 * @example readScaleTrace([65536, 65536, 131072, 65536, 65536, 131072], true)
 *   // { skipped: [2], growthFactor: 2, backoffFactor: 0.5, growthInterval: 2 }
 * @see pytorch/pytorch aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp `_amp_update_scale_cpu_kernel`; torch/amp/grad_scaler.py `update`
 */
export function readScaleTrace(scales: readonly number[], fromStart: boolean): ScaleTraceReading {
  scales.forEach((s, i) => {
    if (typeof s !== "number" || !(s > 0) || !Number.isFinite(s)) throw new RangeError(`scales[${i}] must be a positive finite number, got ${s}`);
  });
  const out: ScaleTraceReading = { skipped: [], growthFactor: null, backoffFactor: null, growthInterval: null };
  const agree = (key: "growthFactor" | "backoffFactor" | "growthInterval", v: number, step: number) => {
    if (out[key] !== null && out[key] !== v) throw new RangeError(`not a GradScaler trace: ${key} ${out[key]} before step ${step}, ${v} at it`);
    out[key] = v;
  };
  let clean = 0, known = fromStart; // clean steps since the tracker was last 0, and whether that 0 lies in the trace
  for (let i = 0; i + 1 < scales.length; i++) {
    const r = scales[i + 1]! / scales[i]!;
    if (r < 1) { out.skipped.push(i); agree("backoffFactor", r, i); clean = 0; known = true; }
    else if (r > 1) { agree("growthFactor", r, i); if (known) agree("growthInterval", clean + 1, i); clean = 0; known = true; }
    else clean++;
  }
  return out;
}
