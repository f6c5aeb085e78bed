import type { decodeFp16 } from "../decode-fp16.js";

function fields(bits: number): [number, number, number] {
  if (!Number.isInteger(bits) || bits < 0 || bits > 0xffff) throw new RangeError(`bits must be an integer in [0, 65535], got ${bits}`);
  return [bits >> 15 ? -1 : 1, (bits >> 10) & 0x1f, bits & 0x3ff];
}

export const mutants: Record<string, typeof decodeFp16> = {
  "forgets subnormals (implicit 1 also for exponent 0)": (bits) => {
    const [s, e, f] = fields(bits);
    if (e === 31) return f ? NaN : s * Infinity;
    if (e === 0 && f === 0) return s * 0;
    return s * (1 + f / 1024) * 2 ** (e - 15);
  },
  "bias 16 instead of 15": (bits) => {
    const [s, e, f] = fields(bits);
    if (e === 31) return f ? NaN : s * Infinity;
    if (e === 0) return s * f * 2 ** -25;
    return s * (1 + f / 1024) * 2 ** (e - 16);
  },
  "exponent 31 decoded as a normal number": (bits) => {
    const [s, e, f] = fields(bits);
    if (e === 0) return s * f * 2 ** -24;
    return s * (1 + f / 1024) * 2 ** (e - 15);
  },
  "ignores the sign bit": (bits) => {
    const [, e, f] = fields(bits);
    if (e === 31) return f ? NaN : Infinity;
    if (e === 0) return f * 2 ** -24;
    return (1 + f / 1024) * 2 ** (e - 15);
  },
  "no input check": (bits) => {
    const s = bits >> 15 ? -1 : 1, e = (bits >> 10) & 0x1f, f = bits & 0x3ff;
    if (e === 31) return f ? NaN : s * Infinity;
    if (e === 0) return s * f * 2 ** -24;
    return s * (1 + f / 1024) * 2 ** (e - 15);
  },
};
