/**
 * Fast rounding to the two FP8 formats, for the inner loops of FP8 training
 * (lib/amp/fp8), where millions of values are cast per step.
 *
 * `round(format, x, {saturate})` is the definition (round.ts); this is the
 * fast path, tested equal to it value by value (fp8Rounder.test.ts). It rounds
 * with the float64 "magic number" addition: adding C = 2^52 · q to a value a
 * smaller than C lands in a binade whose spacing is exactly q, so the float64
 * adder itself rounds a to the nearest multiple of q, ties to even (C/q is even,
 * so the even multiple is the even significand); subtracting C is exact.
 */
import { getFormat } from "./formats.js";
import type { RoundOptions } from "./round.js";

/**
 * The two FP8 formats of the OCP specification, by their course names.
 * @see OCP 8-bit Floating Point Specification (OFP8) rev. 1.0, Table 1; PyTorch torch.float8_e4m3fn, torch.float8_e5m2
 */
export type Fp8FormatName = "fp8-e4m3" | "fp8-e5m2";

const f64 = new Float64Array(1);
const hi = new Uint32Array(f64.buffer, 4, 1); // little-endian: the high word holds sign, exponent and the top of the fraction

/**
 * A function that rounds a number to the nearest FP8 value of `format`, ties
 * to even, with subnormals and signed zeros, equal to
 * `(x) => round(format, x, options)`.
 *
 * Overflow (a result beyond maxFinite after rounding): E5M2 gives ±Infinity and
 * E4M3 (no infinities) NaN, as PyTorch's casts; with `{saturate: true}` both
 * give ±maxFinite, as NVIDIA's `__NV_SATFINITE` conversions (which Transformer
 * Engine's casts use). NaN stays NaN; ±Infinity inputs follow the same rule.
 *
 * @param format "fp8-e4m3" | "fp8-e5m2"
 * @param options `{saturate}` (default false)
 * @returns a function number → number (the FP8 value, as a number)
 * @throws {TypeError} `format must be fp8-e4m3 or fp8-e5m2 for fp8Rounder, got "bf16"`
 * @example fp8Rounder("fp8-e4m3")(464) // 448 (a tie: 448's fraction 110 is even)
 * @example fp8Rounder("fp8-e4m3")(465) // NaN (beyond 448: E4M3 has no infinity)
 * @example fp8Rounder("fp8-e4m3", { saturate: true })(1e6) // 448
 * @example fp8Rounder("fp8-e5m2")(61440) // Infinity (a tie: 57344's fraction 11 is odd)
 * @example fp8Rounder("fp8-e4m3")(2 ** -10) // 0 (half the smallest subnormal 2^-9: a tie, to the even 0)
 * @see {@link round} (the definition); IEEE 754-2008 §4.3.1 (roundTiesToEven); OCP OFP8 v1.0 §5 (saturation);
 *   NVIDIA CUDA Math API, `__nv_cvt_float_to_fp8` and the `__nv_fp8_e4m3` constructors (`__NV_SATFINITE`)
 */
export function fp8Rounder(format: Fp8FormatName, options: RoundOptions = {}): (x: number) => number {
  if (format !== "fp8-e4m3" && format !== "fp8-e5m2") {
    throw new TypeError(`format must be fp8-e4m3 or fp8-e5m2 for fp8Rounder, got ${JSON.stringify(format)}`);
  }
  const f = getFormat(format);
  const saturate = options.saturate === true;
  const max = f.maxFinite, m = f.mantissaBits, emin = f.emin, emax = f.emax;
  const over = saturate ? max : f.hasInfinity ? Infinity : NaN;
  // magic[e - emin] = 2^52 · quantum of binade e, for e in [emin, emax]; below emin the subnormals share emin's quantum
  const magic = Float64Array.from({ length: emax - emin + 1 }, (_, i) => 2 ** (52 + emin + i - m));
  return (x: number): number => {
    if (x !== x) return NaN;
    const neg = x < 0 || (x === 0 && 1 / x < 0);
    const a = neg ? -x : x;
    let r: number;
    if (a === Infinity) r = saturate || !f.hasInfinity ? over : Infinity;
    else {
      f64[0] = a;
      const e = ((hi[0] >>> 20) & 0x7ff) - 1023; // floor(log2 a) for normal float64 a; very small a gives e < emin
      if (e > emax) r = over; // at least 2^(emax+1) > maxFinite
      else {
        const c = magic[e < emin ? 0 : e - emin];
        r = a + c - c; // rounds to the nearest multiple of the binade's quantum, ties to even
        if (r > max) r = over;
      }
    }
    return neg ? -r : r;
  };
}
