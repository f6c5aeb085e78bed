/**
 * Spacing of representable values: ulp, nextUp, nextDown.
 */
import { getFormat } from "./formats.js";
import { binade } from "./binade.js";
import { encode } from "./encode.js";
import { decode } from "./decode.js";
import { isRepresentable } from "./round.js";

/**
 * The unit in the last place of x in `format`: the spacing of representable
 * values in x's binade, ulp(x) = 2^(max(floor(log2|x|), emin) − m); ulp(0) is
 * the min subnormal. Values beyond maxFinite get the ulp of their binade as if
 * the exponent range were unbounded.
 * @param format a format name
 * @param x a finite number
 * @returns a power of two
 * @throws {RangeError} `x must be a finite number, got Infinity`
 * @example ulp("fp16", 1) // 0.0009765625 (2^-10)
 * @example ulp("fp16", 2048) // 2
 * @example ulp("bf16", 1) // 0.0078125 (2^-7)
 * @see Goldberg 1991, "What every computer scientist should know about floating-point arithmetic", §1.2
 */
export function ulp(format: string, x: number): number {
  const f = getFormat(format);
  if (typeof x !== "number" || !Number.isFinite(x)) throw new RangeError(`x must be a finite number, got ${String(x)}`);
  if (x === 0) return f.minSubnormal;
  return 2 ** (Math.max(binade(Math.abs(x)), f.emin) - f.mantissaBits);
}

function checkRepresentable(format: string, x: number): void {
  if (typeof x !== "number" || Number.isNaN(x) || !isRepresentable(format, x)) {
    throw new RangeError(`x must be a non-NaN value representable in ${format}, got ${String(x)} (round it first)`);
  }
}

/**
 * The smallest representable value of `format` greater than x.
 * nextUp(±0) = minSubnormal; nextUp(maxFinite) = Infinity (fp8-e4m3 has no
 * infinity: there it throws); nextUp(−Infinity) = −maxFinite.
 * @param format a format name
 * @param x a value representable in `format`, not NaN
 * @returns the next value up
 * @throws {RangeError} when x is NaN, not representable, +Infinity, or the max of a format without infinity
 * @example nextUp("fp16", 1) // 1.0009765625
 * @example nextUp("fp16", 65504) // Infinity
 * @see IEEE 754-2008 §5.3.1 (nextUp)
 */
export function nextUp(format: string, x: number): number {
  checkRepresentable(format, x);
  const f = getFormat(format);
  if (x === Infinity) throw new RangeError(`x must be below +Infinity for nextUp, got Infinity`);
  if (x === -Infinity) return -f.maxFinite;
  if (x === 0) return f.minSubnormal;
  if (x < 0) return -nextDown(format, -x);
  if (x === f.maxFinite && !f.hasInfinity) throw new RangeError(`x is the largest ${format} value and ${format} has no infinity`);
  return decode(format, encode(format, x) + 1); // positive patterns are ordered like their values
}

/**
 * The largest representable value of `format` less than x: −nextUp(−x).
 * @param format a format name
 * @param x a value representable in `format`, not NaN
 * @returns the next value down
 * @throws {RangeError} as {@link nextUp}, mirrored
 * @example nextDown("fp16", 1) // 0.99951171875
 * @example nextDown("fp16", 0) // -5.960464477539063e-8
 * @see IEEE 754-2008 §5.3.1 (nextDown)
 */
export function nextDown(format: string, x: number): number {
  checkRepresentable(format, x);
  const f = getFormat(format);
  if (x === -Infinity) throw new RangeError(`x must be above -Infinity for nextDown, got -Infinity`);
  if (x === Infinity) return f.maxFinite;
  if (x === 0) return -f.minSubnormal;
  if (x < 0) return -nextUp(format, -x);
  return decode(format, encode(format, x) - 1);
}
