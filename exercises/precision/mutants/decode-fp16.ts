import type { decodeFp16 } from "../decode-fp16.js";

type Mutant = { impl: typeof decodeFp16; caughtBy: string | string[] };

function fields(bits: number): [number, number, number] {
  if (typeof bits !== "number" || !Number.isInteger(bits) || bits < 0 || bits > 0xffff) throw new RangeError(`bits must be an integer in [0, 65535], got ${bits}`);
  return [bits >> 15 ? -1 : 1, (bits >> 10) & 0x1f, bits & 0x3ff];
}
function decodeFrom([s, e, f]: [number, number, number]): number {
  if (e === 31) return f ? NaN : s * Infinity;
  if (e === 0) return s * f * 2 ** -24;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

export const mutants: Record<string, Mutant> = {
  "forgets subnormals (implicit 1 also for exponent 0)": { caughtBy: "zeros and subnormals", impl: (bits) => {
    const [s, e, f] = fields(bits);
    if (e === 31) return f ? NaN : s * Infinity;
    if (e === 0 && f === 0) return s * 0;
    return s * (1 + f / 1024) * 2 ** (e - 15);
  } },
  "bias 16 instead of 15": { caughtBy: ["the contract's example", "normal numbers (1, -2, 1/3, 65504)"], impl: (bits) => {
    const [s, e, f] = fields(bits);
    if (e === 31) return f ? NaN : s * Infinity;
    if (e === 0) return s * f * 2 ** -25;
    return s * (1 + f / 1024) * 2 ** (e - 16);
  } },
  "exponent 31 decoded as a normal number": { caughtBy: "infinities and NaN", impl: (bits) => {
    const [s, e, f] = fields(bits);
    if (e === 0) return s * f * 2 ** -24;
    return s * (1 + f / 1024) * 2 ** (e - 15);
  } },
  "ignores the sign bit": { caughtBy: ["normal numbers (1, -2, 1/3, 65504)", "zeros and subnormals"], impl: (bits) => {
    const [, e, f] = fields(bits);
    return decodeFrom([1, e, f]);
  } },
  "no input check": { caughtBy: "rejects bad input with a RangeError", impl: (bits) => decodeFrom([bits >> 15 ? -1 : 1, (bits >> 10) & 0x1f, bits & 0x3ff]) },
  "throws a TypeError instead of a RangeError": { caughtBy: "rejects bad input with a RangeError", impl: (bits) => {
    if (typeof bits !== "number" || !Number.isInteger(bits) || bits < 0 || bits > 0xffff) throw new TypeError(`bits must be an integer in [0, 65535], got ${bits}`);
    return decodeFrom(fields(bits));
  } },
  "the message does not name the value received": { caughtBy: "rejects bad input with a RangeError", impl: (bits) => {
    if (typeof bits !== "number" || !Number.isInteger(bits) || bits < 0 || bits > 0xffff) throw new RangeError("bits must be an integer in [0, 65535]");
    return decodeFrom(fields(bits));
  } },
  "accepts 65536 (off by one at the top)": { caughtBy: "rejects bad input with a RangeError", impl: (bits) => {
    if (typeof bits !== "number" || !Number.isInteger(bits) || bits < 0 || bits > 0x10000) throw new RangeError(`bits must be an integer in [0, 65535], got ${bits}`);
    return decodeFrom([bits >> 15 & 1 ? -1 : 1, (bits >> 10) & 0x1f, bits & 0x3ff]);
  } },
  "treats the number −0 as the sign-bit pattern 0x8000": { caughtBy: "-0 is the pattern 0x0000", impl: (bits) => (Object.is(bits, -0) ? -0 : decodeFrom(fields(bits))) },
};
