import type { encodeFp16 } from "../encode-fp16.js";

interface Options { subnormals?: boolean; rne?: boolean; overflow?: "inf" | "max"; bias?: number }

function encodeWith(x: number, o: Options = {}): number {
  const bias = o.bias ?? 15;
  if (Number.isNaN(x)) return 0x7e00;
  const s = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  const rnd = (r: number) => {
    if (o.rne === false) return Math.floor(r);
    const n = Math.floor(r), d = r - n;
    return d > 0.5 || (d === 0.5 && n % 2 === 1) ? n + 1 : n;
  };
  const overflow = o.overflow === "max" ? s | 0x7bff : s | 0x7c00;
  if (a === Infinity) return overflow;
  const minNormal = 2 ** (1 - bias);
  if (a < minNormal) {
    if (o.subnormals === false) return s;
    const m = rnd(a / 2 ** (1 - bias - 10));
    return s | m; // m = 1024 carries into the smallest normal
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  const m = rnd((a / 2 ** e - 1) * 1024);
  const bits = (e + bias) * 1024 + m; // a carry m = 1024 bumps the exponent
  if (bits >= 0x7c00) return overflow;
  return s | bits;
}

export const mutants: Record<string, typeof encodeFp16> = {
  "flushes subnormals to zero": (x) => encodeWith(x, { subnormals: false }),
  "truncates instead of rounding to nearest even": (x) => encodeWith(x, { rne: false }),
  "overflow saturates at 65504 (0x7bff)": (x) => encodeWith(x, { overflow: "max" }),
  "bias 16": (x) => encodeWith(x, { bias: 16 }),
};
