/**
 * The FP8 cast of a tensor with a scale, as Transformer Engine's quantize
 * kernels do it: q = fp8(fp32(x · scale)), saturating; the amax of x is
 * measured in the same pass, and the course also counts what the cast lost.
 */
import { fp8Rounder, type Fp8FormatName } from "../../precision/fp8Rounder.js";
import { FORMATS } from "../../precision/formats.js";

const rounders = new Map<Fp8FormatName, { cast: (x: number) => number; plain: (x: number) => number }>();
/** The saturating and the plain rounder of a format, made once. */
function roundersOf(format: Fp8FormatName) {
  let r = rounders.get(format);
  if (!r) rounders.set(format, (r = { cast: fp8Rounder(format, { saturate: true }), plain: fp8Rounder(format) }));
  return r;
}

/** A tensor cast to FP8 with one scale, and what the cast did. */
export interface Fp8Quantized {
  /** The FP8 values q = fp8(fp32(x · scale)) (as float32 numbers); dequantized, x ≈ q · scaleInv. */
  data: Float32Array;
  scale: number;
  /** fp32(1 / scale), what a GEMM multiplies its result by. */
  scaleInv: number;
  /** max |x| over the finite and infinite inputs (NaN ignored, as CUDA's fmaxf ignores it). */
  amax: number;
  /** Elements whose scaled value rounded beyond the format's largest value, clamped to ±max (saturated). */
  overflow: number;
  /** Nonzero elements that became ±0. */
  underflow: number;
}

/**
 * Casts every element to FP8 with one scale: q = fp8(fp32(x · scale)), round to
 * nearest even, saturating (`__NV_SATFINITE`: beyond the largest value gives
 * ±max, NaN stays NaN), and counts the elements that saturated (overflow) or
 * that were nonzero and became zero (underflow).
 * @param values (n) the tensor, not modified
 * @param scale the scale, a finite float32 >= 0
 * @param format "fp8-e4m3" | "fp8-e5m2"
 * @returns the FP8 values, the scale and its inverse, the amax and the two counts
 * @throws {RangeError} `scale must be a finite number >= 0, got NaN`; {TypeError} from fp8Rounder on another format
 * @example quantizeFp8(Float32Array.of(1, 500, 2 ** -12), 1, "fp8-e4m3")
 *   // { data: [1, 448, 0], scale: 1, scaleInv: 1, amax: 500, overflow: 1, underflow: 1 }
 * @see NVIDIA/TransformerEngine transformer_engine/common/cast/fp8/quantize_fp8.cuh (amax = fmaxf(amax, fabsf(elt)); out = OType(elt * scale)) at d0067d0;
 *   CUDA cuda_fp8.hpp (`__nv_fp8_e4m3(float)` converts with `__NV_SATFINITE`)
 */
export function quantizeFp8(values: Float32Array, scale: number, format: Fp8FormatName): Fp8Quantized {
  if (!(scale >= 0 && Number.isFinite(scale))) throw new RangeError(`scale must be a finite number >= 0, got ${scale}`);
  const { cast, plain } = roundersOf(format);
  const max = FORMATS[format].maxFinite;
  const data = new Float32Array(values.length);
  let amax = 0, overflow = 0, underflow = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    const a = Math.abs(x);
    if (a > amax) amax = a; // NaN compares false: ignored
    const s = Math.fround(x * scale);
    const q = cast(s);
    data[i] = q;
    if (Math.abs(s) > max && !Number.isFinite(plain(s))) overflow++; // saturated: the plain cast would give ±Infinity (E5M2) or NaN (E4M3)
    else if (q === 0 && x !== 0 && a === a) underflow++;
  }
  return { data, scale, scaleInv: Math.fround(1 / scale), amax, overflow, underflow };
}
