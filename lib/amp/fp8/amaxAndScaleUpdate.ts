/**
 * One delayed-scaling update of one tensor, as Transformer Engine runs it
 * after a step: roll the amax history, take its max (or the newest amax),
 * and turn that amax into the scale of the next step.
 */
import type { AmaxComputeAlgo } from "./DelayedScaling.js";

/**
 * The largest finite float32, TE's scale when fp8_max / amax overflows float32.
 * @example FLT_MAX // 3.4028234663852886e38
 * @see C `FLT_MAX`; TE delayed_scaling.cu (`std::numeric_limits<float>::max()`)
 */
export const FLT_MAX = 3.4028234663852886e38;

/** CUDA's fmaxf: the larger of a and b, and the other one when one is NaN. */
const fmaxf = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b));

/**
 * The delayed-scaling update of one tensor after a step, exactly as Transformer
 * Engine's fused kernel (`amax_and_scale_update_after_reduction`, PyTorch's
 * default path):
 *
 * - `amaxHistory[0]` is this step's amax, `amaxHistory[1..L−1]` the L − 1 before it, oldest first;
 * - if this step's amax is not 0 the history rolls: the new history is
 *   [0, h₂, …, h_{L−1}, h₀] (the oldest value h₁ leaves, slot 0 is cleared for the
 *   next step), and amax = max(h₀ … h_{L−1}) ("max") or h₀ ("most_recent"),
 *   NaN ignored as CUDA's fmaxf ignores it; if this step's amax is 0 (a tensor
 *   never cast, or all zeros) nothing rolls and amax = 0;
 * - scale = fp32(fp32(fp8Max · 2^−margin) / amax) when amax is finite and > 0,
 *   else the previous scale; a scale that overflows float32 becomes FLT_MAX.
 *
 * So the scale of step i is computed from the amaxes of steps i − L … i − 1.
 *
 * @param amaxHistory (L) amaxes, ≥ 0, +Infinity or NaN; not modified
 * @param scale the scale used this step (a float32 >= 0: TE starts every tensor at 1; a margin past float32's range gives 0)
 * @param fp8Max the format's largest value: 448 (E4M3) or 57344 (E5M2)
 * @param recipe `{margin, amaxComputeAlgo}` of a {@link DelayedScalingOptions}
 * @returns the new history (a new array), the next step's scale, and the amax it came from
 * @throws {RangeError} `amaxHistory must be a non-empty array of amaxes >= 0, got -1 at 2`; `scale must be a finite number >= 0, got Infinity`
 * @example amaxAndScaleUpdate([3.5, 0, 7], 1, 448, { margin: 0, amaxComputeAlgo: "max" })
 *   // { amaxHistory: [0, 7, 3.5], scale: 64, amax: 7 }
 * @example amaxAndScaleUpdate([0, 5, 7], 2, 448, { margin: 0, amaxComputeAlgo: "max" })
 *   // { amaxHistory: [0, 5, 7], scale: 2, amax: 0 } (nothing recorded this step: no roll, scale kept)
 * @see NVIDIA/TransformerEngine transformer_engine/common/recipe/delayed_scaling.cu (`kernel_bulk`, last changed 830ef60)
 *   and transformer_engine/pytorch/quantization.py (`reduce_and_update_fp8_tensors`, `_default_sf_compute`) at d0067d0;
 *   recipe/__init__.py `DelayedScaling` ("new_scaling_factor = (FP8_MAX / amax) / (2 ^ margin)")
 */
export function amaxAndScaleUpdate(amaxHistory: ArrayLike<number>, scale: number, fp8Max: number, recipe: { margin: number; amaxComputeAlgo: AmaxComputeAlgo }): { amaxHistory: number[]; scale: number; amax: number } {
  const L = amaxHistory?.length;
  if (!(L >= 1)) throw new RangeError(`amaxHistory must be a non-empty array of amaxes >= 0, got ${L === 0 ? "an empty array" : String(amaxHistory)}`);
  for (let i = 0; i < L; i++) {
    const a = amaxHistory[i];
    if (typeof a !== "number" || a < 0) throw new RangeError(`amaxHistory must be a non-empty array of amaxes >= 0, got ${a} at ${i}`);
  }
  if (!(scale >= 0 && Number.isFinite(scale))) throw new RangeError(`scale must be a finite number >= 0, got ${scale}`);
  const last = amaxHistory[0];
  const history = Array.from(amaxHistory);
  let windowMax = 0;
  if (last !== 0) {
    for (let i = 0; i < L; i++) {
      const a = i < L - 1 ? amaxHistory[i + 1] : last; // the rolled history, slot by slot
      windowMax = fmaxf(windowMax, a);
      history[i] = i > 0 ? a : 0;
    }
  }
  const amax = recipe.amaxComputeAlgo === "most_recent" ? last : windowMax;
  const scaledMax = Math.fround(fp8Max * Math.fround(2 ** -recipe.margin));
  let next = Number.isFinite(amax) && amax > 0 ? Math.fround(scaledMax / amax) : scale;
  if (next === Infinity) next = FLT_MAX;
  return { amaxHistory: history, scale: next, amax };
}
