/**
 * The three ways the course scales FP8 tensors, as one validated setting:
 * per-tensor delayed scaling (TE `DelayedScaling`), per-tensor current
 * scaling (TE `Float8CurrentScaling`), and block-wise online scaling
 * (DeepSeek-V3; TE `Float8BlockScaling`).
 */
import type { Fp8FormatName } from "../../precision/fp8Rounder.js";
import { delayedScaling, fp8TensorFormats, type DelayedScalingOptions, type Fp8Format } from "./DelayedScaling.js";

/**
 * How the FP8 GEMMs of a training run scale their operands.
 * @see NVIDIA/TransformerEngine transformer_engine/common/recipe/__init__.py at d8815c4; DeepSeek-V3 Technical Report §3.3
 */
export type Fp8Scaling =
  | { kind: "delayed"; recipe?: Partial<DelayedScalingOptions> }
  | { kind: "current"; fp8Format?: Fp8Format }
  | { kind: "blockwise"; fp8Format?: Fp8Format; blockSize?: number; powerOf2Scales?: boolean };

/** A validated {@link Fp8Scaling} with every default filled in. */
export interface ResolvedFp8Scaling {
  kind: "delayed" | "current" | "blockwise";
  /** Formats of the forward tensors (inputs, weights) and of the output gradients. */
  formats: { forward: Fp8FormatName; backward: Fp8FormatName };
  /** The delayed-scaling recipe (kind "delayed" only). */
  recipe?: DelayedScalingOptions;
  /** Tile length along K (1 × blockSize activations and gradients, blockSize × blockSize weights); kind "blockwise" only. */
  blockSize?: number;
  powerOf2Scales?: boolean;
}

/**
 * Fills in the defaults and checks a scaling setting: delayed scaling takes TE's
 * `DelayedScaling` defaults (HYBRID, history 1024, "max", margin 0); current scaling
 * TE's `Float8CurrentScaling` default (HYBRID); block-wise scaling DeepSeek-V3's
 * (E4M3 for every tensor, 128-element tiles) with power-of-two scales (TE's Float8BlockScaling default).
 * @param s the setting
 * @returns the resolved setting (a new object)
 * @throws {RangeError} `scaling.kind must be "delayed", "current" or "blockwise", got "mx"`; `blockSize must be an integer >= 1, got 0`;
 *   the recipe's messages from {@link delayedScaling}
 * @example resolveFp8Scaling({ kind: "blockwise" }) // { kind: "blockwise", formats: { forward: "fp8-e4m3", backward: "fp8-e4m3" }, blockSize: 128, powerOf2Scales: true }
 * @see DeepSeek-V3 Technical Report §3.3.2 ("we adopt the E4M3 format on all tensors"; 1x128 and 128x128 tiles);
 *   TE recipe/__init__.py (Float8CurrentScaling and Float8BlockScaling defaults)
 */
export function resolveFp8Scaling(s: Fp8Scaling): ResolvedFp8Scaling {
  switch (s?.kind) {
    case "delayed": {
      const recipe = delayedScaling(s.recipe);
      return { kind: "delayed", formats: fp8TensorFormats(recipe.fp8Format), recipe };
    }
    case "current":
      return { kind: "current", formats: fp8TensorFormats(s.fp8Format ?? "HYBRID") };
    case "blockwise": {
      const blockSize = s.blockSize ?? 128;
      if (!Number.isInteger(blockSize) || blockSize < 1) throw new RangeError(`blockSize must be an integer >= 1, got ${blockSize}`);
      return { kind: "blockwise", formats: fp8TensorFormats(s.fp8Format ?? "E4M3"), blockSize, powerOf2Scales: s.powerOf2Scales ?? true };
    }
    default:
      throw new RangeError(`scaling.kind must be "delayed", "current" or "blockwise", got ${JSON.stringify((s as { kind?: unknown })?.kind)}`);
  }
}
