import type { sumFp16 } from "../sum-fp16.js";

/** fp16 rounding for the mutants (ties to even, overflow to ±Infinity), written independently of lib. */
function toFp16(x: number, o: { ties?: "even" | "up"; overflow?: "inf" | "max" } = {}): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  const q = 2 ** (Math.max(e, -14) - 10);
  const r = a / q, n = Math.floor(r), d = r - n;
  const m = o.ties === "up" ? (d >= 0.5 ? n + 1 : n) : d > 0.5 || (d === 0.5 && n % 2 === 1) ? n + 1 : n;
  const v = m * q;
  if (v > 65504) return Math.sign(x) * (o.overflow === "max" ? 65504 : Infinity);
  return Math.sign(x) * v;
}

export const mutants: Record<string, typeof sumFp16> = {
  "sums exactly and rounds once at the end": (values) => toFp16(values.reduce((s, x) => s + x, 0)),
  "accumulates in float32 (Math.fround) instead of fp16": (values) => toFp16(values.reduce((s, x) => Math.fround(s + x), 0)),
  "rounds ties up instead of to even": (values) => values.reduce((s, x) => toFp16(s + x, { ties: "up" }), 0),
  "clamps overflow to 65504": (values) => values.reduce((s, x) => toFp16(s + x, { overflow: "max" }), 0),
};
