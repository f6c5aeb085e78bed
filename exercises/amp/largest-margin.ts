import { notImplemented } from "../harness/index.js";

/**
 * Exercise 4.7 — the largest margin a tensor can take.
 *
 * What: the inverse problem of delayed scaling's margin. A tensor is cast to
 * FP8 with the scale Transformer Engine would derive from its own amax and a
 * margin m: scale = fp32(fp32(fp8Max · 2^−m) / amax), or the largest float32
 * (3.4028234663852886e38) when that quotient overflows float32. Return the
 * largest integer m >= 0 for which the tensor's smallest nonzero magnitude does
 * not become zero in the cast: fp8(fp32(|x|min · scale)) ≠ 0, rounding to nearest
 * with ties to even and the format's subnormals (the chapter's section
 * "Margin, underflow and the inverse problem"). Return null when even m = 0
 * flushes it.
 *
 * Input: `values`, a Float32Array (up to millions of values, not modified) with
 * at least one nonzero value; zeros of either sign are ignored.
 * `format`: "fp8-e4m3" (largest value 448) or "fp8-e5m2" (57344).
 *
 * Errors (RangeError): a value that is not finite (`values must be finite …`);
 * no nonzero value (`values must hold a nonzero value`).
 *
 * Source: TE transformer_engine/common/recipe/delayed_scaling.cu (the scale);
 * OCP OFP8 v1.0 Table 1 (the formats).
 *
 * @param values the tensor
 * @param format the FP8 format
 * @returns the largest margin, or null
 * @throws {RangeError} on a non-finite value or a tensor of zeros
 * @example largestMargin(Float32Array.of(448, 1), "fp8-e4m3") // 9
 */
export function largestMargin(values: Float32Array, format: "fp8-e4m3" | "fp8-e5m2"): number | null {
  return notImplemented("4.7");
}
