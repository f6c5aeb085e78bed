import type { sumFp16 } from "../sum-fp16.js";

type Mutant = { impl: typeof sumFp16; caughtBy: string | string[] };

/** fp16 rounding for the mutants (ties to even, overflow to ±Infinity), written independently of lib. */
function toFp16(x: number, o: { ties?: "even" | "up"; overflow?: "inf" | "max" | "before"; signed?: boolean } = {}): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (o.overflow === "before" && Math.abs(x) > 65504) return Math.sign(x) * Infinity;
  const a = Math.abs(x);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  const q = 2 ** (Math.max(e, -14) - 10);
  if (o.signed) { // rounds x/q with its sign: JS's −3 % 2 is −1, so an odd negative floor looks even
    const r = x / q, n = Math.floor(r), d = r - n;
    const m = d > 0.5 || (d === 0.5 && n % 2 === 1) ? n + 1 : n;
    return Math.abs(m * q) > 65504 ? Math.sign(x) * Infinity : m * q;
  }
  const r = a / q, n = Math.floor(r), d = r - n;
  const m = o.ties === "up" ? (d >= 0.5 ? n + 1 : n) : d > 0.5 || (d === 0.5 && n % 2 === 1) ? n + 1 : n;
  const v = m * q;
  if (v > 65504) return Math.sign(x) * (o.overflow === "max" ? 65504 : Infinity);
  return Math.sign(x) * v;
}

export const mutants: Record<string, Mutant> = {
  "sums exactly and rounds once at the end": { caughtBy: ["the contract's examples", "stagnation: 4096 ones give 2048"], impl: (values) => toFp16(values.reduce((s, x) => s + x, 0)) },
  "accumulates in float32 (Math.fround) instead of fp16": { caughtBy: "stagnation: 4096 ones give 2048", impl: (values) => toFp16(values.reduce((s, x) => Math.fround(s + x), 0)) },
  "rounds ties up instead of to even": { caughtBy: ["the contract's examples", "ties to even inside the sum"], impl: (values) => values.reduce((s, x) => toFp16(s + x, { ties: "up" }), 0) },
  "clamps overflow to 65504": { caughtBy: ["the contract's examples", "overflow to Infinity"], impl: (values) => values.reduce((s, x) => toFp16(s + x, { overflow: "max" }), 0) },
  "overflow decided before rounding (a total above 65504 → Infinity)": { caughtBy: ["the contract's examples", "overflow to Infinity"], impl: (values) => values.reduce((s, x) => toFp16(s + x, { overflow: "before" }), 0) },
  "rounds the signed total: negative ties keep an odd neighbour (JS % of a negative number)": { caughtBy: "ties to even inside the sum", impl: (values) => values.reduce((s, x) => toFp16(s + x, { signed: true }), 0) },
};
