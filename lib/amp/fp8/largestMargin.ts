/**
 * The inverse problem of delayed scaling's margin: how much headroom can a
 * tensor be given before its smallest value is lost?
 */
import { fp8Rounder, type Fp8FormatName } from "../../precision/fp8Rounder.js";
import { amaxAndScaleUpdate } from "./amaxAndScaleUpdate.js";
import { fp8Max } from "./DelayedScaling.js";

/**
 * The largest integer margin m >= 0 such that, cast with TE's delayed scale
 * computed from this tensor's own amax, scale = fp32(fp32(fp8Max · 2^−m) / amax)
 * (FLT_MAX if that overflows), the smallest nonzero |x| of the tensor does not
 * become zero: fp8(fp32(|x|min · scale)) ≠ 0. Every larger value then survives
 * too, and no value overflows (m >= 0). Zeros (±0) are ignored.
 * @param values (n) the tensor, float32, n up to millions
 * @param format "fp8-e4m3" | "fp8-e5m2"
 * @returns m, or null when even margin 0 flushes the smallest value (the tensor spans more than the format)
 * @throws {RangeError} `values must be finite, got Infinity at 3`; `values must hold a nonzero value`
 * @example largestMargin(Float32Array.of(448, 1), "fp8-e4m3") // 9: 1 · 2^−9 is E4M3's smallest subnormal
 * @example largestMargin(Float32Array.of(448, 2 ** -10), "fp8-e4m3") // null: 2^−10 is half the smallest subnormal, a tie to 0
 * @see {@link amaxAndScaleUpdate} (the scale); OCP OFP8 v1.0, Table 1 (smallest subnormals 2^−9 and 2^−16)
 */
export function largestMargin(values: Float32Array, format: Fp8FormatName): number | null {
  const cast = fp8Rounder(format), max = fp8Max(format);
  let amax = 0, smallest = Infinity;
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (!Number.isFinite(x)) throw new RangeError(`values must be finite, got ${x} at ${i}`);
    const a = Math.abs(x);
    if (a > amax) amax = a;
    if (a > 0 && a < smallest) smallest = a;
  }
  if (amax === 0) throw new RangeError("values must hold a nonzero value");
  let m = 0;
  for (;; m++) { // the scale halves with each step of m, so the first margin that flushes ends the search (by m ≈ 300 the scale is 0)
    const { scale } = amaxAndScaleUpdate([amax], 1, max, { margin: m, amaxComputeAlgo: "most_recent" });
    if (cast(Math.fround(smallest * scale)) === 0) break;
  }
  return m === 0 ? null : m - 1;
}
