/**
 * Which of the chapter's formats hold every value of a tensor exactly: the
 * dtypes it could have been stored in without rounding.
 */
import { FORMAT_NAMES, type FormatName } from "./formats.js";
import { isRepresentable } from "./round.js";

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * A float32 value whose pattern has its `low` fraction bits zero (tf32: 13, bf16: 16) is a value
 * of the format with fp32's exponent and `23 − low` fraction bits; subnormals too, as the quantum
 * 2^(−126 − m) is a multiple of float32's 2^−149.
 */
const truncatedFp32 = (low: number) => (x: number): boolean => {
  if (Number.isNaN(x) || !Number.isFinite(x)) return true;
  f32[0] = x;
  return f32[0] === x && (u32[0]! & ((1 << low) - 1)) === 0;
};

/** Fast membership tests for the wide formats; {@link isRepresentable} for the others. */
const TESTS: Record<FormatName, (x: number) => boolean> = {
  "fp32": truncatedFp32(0),
  "tf32": truncatedFp32(13),
  "bf16": truncatedFp32(16),
  "fp16": (x) => isRepresentable("fp16", x),
  "fp8-e5m2": (x) => isRepresentable("fp8-e5m2", x),
  "fp8-e4m3": (x) => isRepresentable("fp8-e4m3", x),
};

/**
 * The formats (in {@link FORMAT_NAMES} order, widest first) in which every one of `values` is
 * exactly a value: ±0 and NaN belong to every format, ±Infinity to every format but fp8-e4m3
 * (E4M3FN has no infinity), and a finite x belongs to a format when |x| ≤ maxFinite and x is a
 * multiple of the spacing 2^(max(⌊log₂|x|⌋, emin) − m).
 * @param values any numbers (float64), any length; all six formats for none
 * @returns a new array of format names
 * @throws {TypeError} `values[3] must be a number, got string`
 * @example formatsThatHold([0.5, -3, 2 ** -20]) // ["fp32", "tf32", "bf16", "fp16"]
 * @example formatsThatHold([448, Infinity]) // ["fp32", "tf32", "bf16", "fp16", "fp8-e5m2"]
 * @see IEEE 754-2008 §3.3–3.4 (the values of a binary format); OCP 8-bit Floating Point Specification (OFP8) v1.0, §5.1 (E4M3, no infinities)
 */
export function formatsThatHold(values: readonly number[]): FormatName[] {
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== "number") throw new TypeError(`values[${i}] must be a number, got ${values[i] === null ? "null" : typeof values[i]}`);
  }
  return FORMAT_NAMES.filter((name) => {
    const holds = TESTS[name];
    for (let i = 0; i < values.length; i++) if (!holds(values[i]!)) return false;
    return true;
  });
}
