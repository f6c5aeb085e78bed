/**
 * Current ("just-in-time") scaling: the scale of a tensor, or of one tile of
 * it, from its own amax, as Transformer Engine computes it for
 * `Float8CurrentScaling` and `Float8BlockScaling`.
 */
import { FLT_MAX } from "./amaxAndScaleUpdate.js";
import { binade } from "../../precision/binade.js";

/** Options of {@link scaleFromAmax}. */
export interface ScaleFromAmaxOptions {
  /** Round the scale down to a power of two (TE: `power_2_scale`, the default of Float8BlockScaling). Default false. */
  powerOf2Scales?: boolean;
  /** A floor for the amax (TE: `amax_epsilon`, default 0). */
  amaxEpsilon?: number;
}

/**
 * The scale that maps `amax` onto the format's largest value: fp32(fp8Max / amax).
 * An amax of 0, ±Infinity or NaN gives 1; a quotient that overflows float32
 * gives FLT_MAX; with `powerOf2Scales` the scale is rounded down to a power of
 * two (its float32 mantissa bits cleared), so x·scale is exact.
 * @param amax max |x| over the tensor or tile (an amax below `amaxEpsilon` is raised to it)
 * @param fp8Max 448 (E4M3) or 57344 (E5M2)
 * @param options `{powerOf2Scales, amaxEpsilon}`
 * @returns the scale, a positive float32
 * @throws {RangeError} `fp8Max must be a positive finite number, got 0`
 * @example scaleFromAmax(3, 448) // 149.3333282470703 (fp32(448 / 3))
 * @example scaleFromAmax(3, 448, { powerOf2Scales: true }) // 128
 * @example scaleFromAmax(0, 448) // 1
 * @see NVIDIA/TransformerEngine transformer_engine/common/recipe/recipe_common.cuh (`compute_scale_from_amax`) at d0067d0;
 *   recipe/__init__.py (Float8CurrentScaling, Float8BlockScaling: `power_2_scale`)
 */
export function scaleFromAmax(amax: number, fp8Max: number, options: ScaleFromAmaxOptions = {}): number {
  if (!(fp8Max > 0 && Number.isFinite(fp8Max))) throw new RangeError(`fp8Max must be a positive finite number, got ${fp8Max}`);
  const eps = options.amaxEpsilon ?? 0;
  const a = amax < eps ? eps : amax; // NaN < eps is false: NaN is handled below, as in TE
  if (!Number.isFinite(a) || a === 0) return 1;
  let scale = Math.fround(fp8Max / a);
  if (scale === Infinity) scale = FLT_MAX;
  if (options.powerOf2Scales) scale = 2 ** binade(scale); // clears the mantissa: the largest power of two <= scale
  return scale;
}
