import type { roundToBf16 } from "../round-bf16.js";

type Mutant = { impl: typeof roundToBf16; caughtBy: string | string[] };

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const fromBits = (b: number) => { u32[0] = b >>> 0; return f32[0]; };
const bitsOf = (x: number) => { f32[0] = x; return u32[0]; };
const MAX = 3.3895313892515355e38;
const rne = (x: number) => fromBits((((bitsOf(x) + 0x7fff + ((bitsOf(x) >>> 16) & 1)) >>> 16) << 16) >>> 0);

/** Rounds on float64 arithmetic: q is the spacing at x; `roundUnits` decides r = |x|/q (or x/q when signed). */
function viaUnits(x: number, o: { signed?: boolean; subnormalTiesUp?: boolean; overflowFirst?: boolean } = {}): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (o.overflowFirst && Math.abs(x) > MAX) return Math.sign(x) * Infinity;
  const e = Math.floor(Math.log2(Math.abs(x)));
  const q = 2 ** (Math.max(e, -126) - 7);
  const r = (o.signed ? x : Math.abs(x)) / q;
  const n = Math.floor(r), d = r - n;
  let m = d > 0.5 || (d === 0.5 && n % 2 === 1) ? n + 1 : n; // JS %: −3 % 2 is −1, so a signed odd floor "looks even"
  if (o.subnormalTiesUp && e < -126) m = Math.floor(r + 0.5);
  const v = (o.signed ? 1 : Math.sign(x)) * m * q;
  return Math.abs(v) > MAX ? Math.sign(x) * Infinity : v;
}

export const mutants: Record<string, Mutant> = {
  "truncates the low 16 bits": { caughtBy: ["the contract's examples", "round to nearest, not truncation"], impl: (x) => (Number.isNaN(x) ? NaN : fromBits(bitsOf(x) & 0xffff0000)) },
  "rounds ties away from zero": { caughtBy: ["the contract's examples", "ties to even"], impl: (x) => (Number.isNaN(x) ? NaN : fromBits(((bitsOf(x) + 0x8000) >>> 16) << 16)) },
  "saturates overflow at the largest bf16": { caughtBy: "overflow is decided after rounding", impl: (x) => {
    if (Number.isNaN(x) || !Number.isFinite(x)) return x;
    const r = rne(x);
    return Number.isFinite(r) ? r : Math.sign(x) * MAX;
  } },
  "flushes subnormals to zero": { caughtBy: "float32 subnormals", impl: (x) => {
    if (Number.isNaN(x)) return NaN;
    if (Math.abs(x) < 2 ** -126) return x < 0 || Object.is(x, -0) ? -0 : 0;
    return rne(x);
  } },
  "rounds in float64 with Math.round (ties up, not to even)": { caughtBy: ["the contract's examples", "ties to even"], impl: (x) => {
    if (!Number.isFinite(x) || x === 0) return x;
    const e = Math.floor(Math.log2(Math.abs(x)));
    const q = 2 ** (Math.max(e, -126) - 7);
    const r = Math.sign(x) * Math.round(Math.abs(x) / q) * q;
    return Math.abs(r) > MAX ? Math.sign(x) * Infinity : r;
  } },
  "rounds the signed value: negative ties keep an odd neighbour (JS % of a negative number)": { caughtBy: "ties to even", impl: (x) => viaUnits(x, { signed: true }) },
  "ties among subnormals go up (Math.round in the subnormal branch)": { caughtBy: "float32 subnormals", impl: (x) => viaUnits(x, { subnormalTiesUp: true }) },
  "overflow decided before rounding (|x| > max → Infinity)": { caughtBy: "overflow is decided after rounding", impl: (x) => viaUnits(x, { overflowFirst: true }) },
  "a fraction that rounds up to 128 is masked, not carried into the exponent": { caughtBy: "rounds up into the next binade", impl: (x) => {
    if (Number.isNaN(x) || !Number.isFinite(x)) return x;
    const b = bitsOf(x), top = b & 0xff800000, low = b & 0x7fffff; // sign and exponent | 23 fraction bits
    const q = low / 0x10000, n = Math.floor(q), d = q - n;
    const frac = d > 0.5 || (d === 0.5 && n % 2 === 1) ? n + 1 : n;
    const r = fromBits((top | ((frac & 0x7f) << 16)) >>> 0); // frac = 128 loses its carry
    return r;
  } },
};
