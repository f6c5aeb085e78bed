/**
 * Transformer Engine's `DelayedScaling` recipe: its options, their defaults,
 * and the FP8 format each tensor of a GEMM uses.
 */
import { FORMATS } from "../../precision/formats.js";
import type { Fp8FormatName } from "../../precision/fp8Rounder.js";

/** TE's `Format`: "HYBRID" = E4M3 in the forward pass, E5M2 for gradients; "E4M3" everywhere (pure E5M2 is refused). */
export type Fp8Format = "HYBRID" | "E4M3";

/** How the amax of the history window becomes the amax of the scale: its largest value, or the newest. */
export type AmaxComputeAlgo = "max" | "most_recent";

/**
 * The options of `transformer_engine.common.recipe.DelayedScaling`, camelCased.
 * @see NVIDIA/TransformerEngine transformer_engine/common/recipe/__init__.py (class DelayedScaling) at d8815c4
 */
export interface DelayedScalingOptions {
  /** Integer; the scale is divided by 2^margin (headroom above the amax). TE default 0. */
  margin: number;
  /** TE default "HYBRID". */
  fp8Format: Fp8Format;
  /** Steps of amax kept per tensor, integer >= 1. TE default 1024. */
  amaxHistoryLen: number;
  /** TE default "max". */
  amaxComputeAlgo: AmaxComputeAlgo;
}

/**
 * TE's defaults: `DelayedScaling(margin=0, fp8_format=Format.HYBRID, amax_history_len=1024, amax_compute_algo="max")`.
 * @example DELAYED_SCALING_DEFAULTS.amaxHistoryLen // 1024
 * @see NVIDIA/TransformerEngine transformer_engine/common/recipe/__init__.py (class DelayedScaling) at d8815c4 (2026-08-14)
 */
export const DELAYED_SCALING_DEFAULTS: Readonly<DelayedScalingOptions> = Object.freeze({ margin: 0, fp8Format: "HYBRID", amaxHistoryLen: 1024, amaxComputeAlgo: "max" });

/**
 * The recipe with TE's defaults filled in and every field checked.
 * @param options any subset of the fields
 * @returns a complete, validated recipe (a new object)
 * @throws {RangeError} `fp8Format must be "HYBRID" or "E4M3", got "E5M2" (pure E5M2 training is not supported)`;
 *   `amaxHistoryLen must be an integer >= 1, got 0`; `amaxComputeAlgo must be "max" or "most_recent", got "mean"`;
 *   `margin must be an integer, got 0.5`
 * @example delayedScaling({ margin: 1 }) // { margin: 1, fp8Format: "HYBRID", amaxHistoryLen: 1024, amaxComputeAlgo: "max" }
 * @see NVIDIA/TransformerEngine transformer_engine/common/recipe/__init__.py `DelayedScaling.__post_init__`
 *   ("Pure E5M2 training is not supported.") and `margin: int`
 */
export function delayedScaling(options: Partial<DelayedScalingOptions> = {}): DelayedScalingOptions {
  const r = { ...DELAYED_SCALING_DEFAULTS, ...options };
  if (r.fp8Format !== "HYBRID" && r.fp8Format !== "E4M3") {
    throw new RangeError(`fp8Format must be "HYBRID" or "E4M3", got ${JSON.stringify(r.fp8Format)}${String(r.fp8Format) === "E5M2" ? " (pure E5M2 training is not supported)" : ""}`);
  }
  if (!Number.isInteger(r.amaxHistoryLen) || r.amaxHistoryLen < 1) throw new RangeError(`amaxHistoryLen must be an integer >= 1, got ${r.amaxHistoryLen}`);
  if (r.amaxComputeAlgo !== "max" && r.amaxComputeAlgo !== "most_recent") {
    throw new RangeError(`amaxComputeAlgo must be "max" or "most_recent", got ${JSON.stringify(r.amaxComputeAlgo)}`);
  }
  if (!Number.isInteger(r.margin)) throw new RangeError(`margin must be an integer, got ${r.margin}`);
  return r;
}

/**
 * The FP8 formats of a recipe: forward tensors (inputs, weights) and backward tensors (output gradients).
 * @param fp8Format "HYBRID" or "E4M3"
 * @returns `{forward, backward}` format names of lib/precision
 * @throws {RangeError} `fp8Format must be "HYBRID" or "E4M3", got "E5M2"`
 * @example fp8TensorFormats("HYBRID") // { forward: "fp8-e4m3", backward: "fp8-e5m2" }
 * @see TE `Format` (HYBRID: "FP8 tensors in the forward pass are in e4m3 format, FP8 tensors in the backward pass are in e5m2 format");
 *   Micikevicius et al. 2022, FP8 Formats for Deep Learning, §4
 */
export function fp8TensorFormats(fp8Format: Fp8Format): { forward: Fp8FormatName; backward: Fp8FormatName } {
  if (fp8Format === "HYBRID") return { forward: "fp8-e4m3", backward: "fp8-e5m2" };
  if (fp8Format === "E4M3") return { forward: "fp8-e4m3", backward: "fp8-e4m3" };
  throw new RangeError(`fp8Format must be "HYBRID" or "E4M3", got ${JSON.stringify(fp8Format)}`);
}

/**
 * The largest finite value of an FP8 format (TE's `fp8_dtype_max`: 448 for E4M3, 57344 for E5M2), from lib/precision's FORMATS.
 * @param format "fp8-e4m3" | "fp8-e5m2"
 * @returns maxFinite of the format
 * @throws {RangeError} `format must be fp8-e4m3 or fp8-e5m2, got "bf16"`
 * @example fp8Max("fp8-e5m2") // 57344
 * @see OCP OFP8 v1.0, Table 1; TE transformer_engine/common/recipe/delayed_scaling.cu `fp8_dtype_max`
 */
export function fp8Max(format: Fp8FormatName): number {
  if (format !== "fp8-e4m3" && format !== "fp8-e5m2") throw new RangeError(`format must be fp8-e4m3 or fp8-e5m2, got ${JSON.stringify(format)}`);
  return FORMATS[format].maxFinite;
}
