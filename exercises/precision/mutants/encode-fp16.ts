import type { encodeFp16 } from "../encode-fp16.js";

type Mutant = { impl: typeof encodeFp16; caughtBy: string | string[] };

interface Options {
  subnormals?: boolean; rne?: boolean; overflow?: "inf" | "max"; bias?: number;
  /** round x/q with its sign (JS %: −3 % 2 is −1, so an odd negative floor looks even) */
  signed?: boolean;
  subnormalTiesUp?: boolean;
  overflowFirst?: boolean;
  /** a fraction that rounds to 1024 is masked to 0 instead of carried into the exponent */
  maskCarry?: boolean;
}

function encodeWith(x: number, o: Options = {}): number {
  const bias = o.bias ?? 15;
  if (Number.isNaN(x)) return 0x7e00;
  const s = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  const rnd = (r: number, tiesUp = false) => {
    if (o.rne === false) return Math.floor(r);
    if (tiesUp) return Math.floor(r + 0.5);
    if (o.signed && s) { const n = Math.floor(-r), d = -r - n; return -(d > 0.5 || (d === 0.5 && n % 2 === 1) ? n + 1 : n); }
    const n = Math.floor(r), d = r - n;
    return d > 0.5 || (d === 0.5 && n % 2 === 1) ? n + 1 : n;
  };
  const overflow = o.overflow === "max" ? s | 0x7bff : s | 0x7c00;
  if (a === Infinity) return overflow;
  if (o.overflowFirst && a > 65504) return overflow;
  const minNormal = 2 ** (1 - bias);
  if (a < minNormal) {
    if (o.subnormals === false) return s;
    const m = rnd(a / 2 ** (1 - bias - 10), o.subnormalTiesUp);
    return s | m; // m = 1024 carries into the smallest normal
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  const m = rnd((a / 2 ** e - 1) * 1024);
  const bits = o.maskCarry ? (e + bias) * 1024 + (m & 0x3ff) : (e + bias) * 1024 + m; // a carry m = 1024 bumps the exponent
  if (bits >= 0x7c00) return overflow;
  return s | bits;
}

export const mutants: Record<string, Mutant> = {
  "flushes subnormals to zero": { caughtBy: ["the contract's examples", "subnormals"], impl: (x) => encodeWith(x, { subnormals: false }) },
  "truncates instead of rounding to nearest even": { caughtBy: "ties to even", impl: (x) => encodeWith(x, { rne: false }) },
  "overflow saturates at 65504 (0x7bff)": { caughtBy: "overflow and infinities", impl: (x) => encodeWith(x, { overflow: "max" }) },
  "bias 16": { caughtBy: ["the contract's examples", "normal numbers"], impl: (x) => encodeWith(x, { bias: 16 }) },
  "rounds the signed value: negative ties keep an odd neighbour (JS % of a negative number)": { caughtBy: "ties to even", impl: (x) => encodeWith(x, { signed: true }) },
  "ties among subnormals go up": { caughtBy: "subnormals", impl: (x) => encodeWith(x, { subnormalTiesUp: true }) },
  "overflow decided before rounding (|x| > 65504 → Infinity)": { caughtBy: "overflow and infinities", impl: (x) => encodeWith(x, { overflowFirst: true }) },
  "a fraction that rounds up to 1024 is masked, not carried into the exponent": { caughtBy: "rounds up into the next binade", impl: (x) => encodeWith(x, { maskCarry: true }) },
};
