/**
 * MXFP8 (OCP Microscaling): blocks of 32 consecutive E4M3 values sharing one
 * power-of-two scale stored as E8M0, and the two rules in use for choosing it.
 */
import { binade } from "../../precision/binade.js";
import { FORMATS } from "../../precision/formats.js";
import { fp8Rounder } from "../../precision/fp8Rounder.js";

/**
 * Elements per MX block (OCP MX v1.0: k = 32 for every MX format).
 * @example MX_BLOCK_SIZE // 32
 * @see OCP Microscaling Formats (MX) Specification v1.0 (MXFP8: k = 32, scale E8M0, elements E4M3 or E5M2)
 */
export const MX_BLOCK_SIZE = 32;

/**
 * The E8M0 exponent e of one MX block (its scale is X = 2^e) from the block's amax:
 * - "ocp", the MX specification's conversion (and Microsoft's reference code): e = ⌊log2 amax⌋ − 8, where 8 is
 *   the exponent of E4M3's largest binade; the block's largest element then lies in [256, 512), and the elements
 *   above 448 are clamped to 448;
 * - "te", Transformer Engine's MXFP8 recipe: e = ⌈log2(fp32(amax / 448))⌉ (the float32 exponent, raised by one when
 *   the mantissa is not zero), so nothing is clamped but the block may use only half of E4M3's top binade.
 * An all-zero block gets −127; e is clamped to E8M0's range [−127, 127].
 * @param amax max |x| of the block, finite and >= 0
 * @param rule "ocp" (default) or "te"
 * @returns e, an integer in [−127, 127]
 * @throws {RangeError} `amax must be a finite number >= 0, got NaN`
 * @example mxScaleExponent(500) // 0: X = 1, and 500 is clamped to 448
 * @example mxScaleExponent(500, "te") // 1: X = 2, 500 becomes 250
 * @see OCP MX v1.0, conversion of scalar floats to MX (shared exponent = floor(log2(max |V|)) − emax_elem); microsoft/microxcaling mx/mx_ops.py
 *   `_quantize_mx` at 7bc4195 (shared_exp − emax, saturate_normals); NVIDIA/TransformerEngine docs/features/low_precision_training/mxfp8/mxfp8.rst at d0067d0
 */
export function mxScaleExponent(amax: number, rule: "ocp" | "te" = "ocp"): number {
  if (typeof amax !== "number" || !(amax >= 0) || !Number.isFinite(amax)) throw new RangeError(`amax must be a finite number >= 0, got ${amax}`);
  if (rule !== "ocp" && rule !== "te") throw new RangeError(`rule must be "ocp" or "te", got ${JSON.stringify(rule)}`);
  if (amax === 0) return -127;
  const e4m3 = FORMATS["fp8-e4m3"];
  let e: number;
  if (rule === "ocp") e = binade(amax) - e4m3.emax;
  else {
    const r = Math.fround(amax / e4m3.maxFinite);
    if (r === 0) return -127;
    e = binade(r) + (2 ** binade(r) === r ? 0 : 1);
  }
  return Math.max(-127, Math.min(127, e));
}

/**
 * Quantizes a vector to MXFP8: every block of 32 consecutive values (the last may be shorter) gets its E8M0
 * exponent from {@link mxScaleExponent}, and each element becomes fp8_e4m3(x / 2^e), saturating.
 * @param values (n) float32 values, finite
 * @param rule "ocp" (default) or "te"
 * @returns the dequantized values (a new array), the exponent of each block, and how many elements were clamped to ±448
 * @throws {RangeError} `values must be finite, got NaN at 4`
 * @example quantizeMx(Float32Array.of(500, 1)).clamped // 1 (the OCP rule clamps 500 to 448)
 * @example quantizeMx(Float32Array.of(500, 1), "te").clamped // 0
 * @see {@link mxScaleExponent}
 */
export function quantizeMx(values: Float32Array, rule: "ocp" | "te" = "ocp"): { data: Float32Array; exponents: number[]; clamped: number } {
  const cast = fp8Rounder("fp8-e4m3", { saturate: true }), plain = fp8Rounder("fp8-e4m3");
  const data = new Float32Array(values.length), exponents: number[] = [];
  let clamped = 0;
  for (let b = 0; b < values.length; b += MX_BLOCK_SIZE) {
    const end = Math.min(values.length, b + MX_BLOCK_SIZE);
    let amax = 0;
    for (let i = b; i < end; i++) {
      if (!Number.isFinite(values[i])) throw new RangeError(`values must be finite, got ${values[i]} at ${i}`);
      amax = Math.max(amax, Math.abs(values[i]));
    }
    const e = mxScaleExponent(amax, rule);
    exponents.push(e);
    for (let i = b; i < end; i++) {
      const s = values[i] / 2 ** e; // exact: a power of two (unless it reaches float64's range, which float32 inputs cannot)
      if (!Number.isFinite(plain(s))) clamped++; // beyond 448 after rounding: saturated
      data[i] = cast(s) * 2 ** e;
    }
  }
  return { data, exponents, clamped };
}
