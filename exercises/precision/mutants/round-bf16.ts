import type { roundToBf16 } from "../round-bf16.js";

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const fromBits = (b: number) => { u32[0] = b >>> 0; return f32[0]; };
const bitsOf = (x: number) => { f32[0] = x; return u32[0]; };

export const mutants: Record<string, typeof roundToBf16> = {
  "truncates the low 16 bits": (x) => (Number.isNaN(x) ? NaN : fromBits(bitsOf(x) & 0xffff0000)),
  "rounds ties away from zero": (x) => (Number.isNaN(x) ? NaN : fromBits(((bitsOf(x) + 0x8000) >>> 16) << 16)),
  "saturates overflow at the largest bf16": (x) => {
    if (Number.isNaN(x) || !Number.isFinite(x)) return x;
    const u = bitsOf(x);
    const r = fromBits((((u + 0x7fff + ((u >>> 16) & 1)) >>> 16) << 16) >>> 0);
    return Number.isFinite(r) ? r : Math.sign(x) * 3.3895313892515355e38;
  },
  "flushes subnormals to zero": (x) => {
    if (Number.isNaN(x)) return NaN;
    if (Math.abs(x) < 2 ** -126) return x < 0 || Object.is(x, -0) ? -0 : 0;
    const u = bitsOf(x);
    return fromBits((((u + 0x7fff + ((u >>> 16) & 1)) >>> 16) << 16) >>> 0);
  },
  "rounds in float64 with Math.round (ties up, not to even)": (x) => {
    if (!Number.isFinite(x) || x === 0) return x;
    const e = Math.floor(Math.log2(Math.abs(x)));
    const q = 2 ** (Math.max(e, -126) - 7);
    const r = Math.sign(x) * Math.round(Math.abs(x) / q) * q;
    return Math.abs(r) > 3.3895313892515355e38 ? Math.sign(x) * Infinity : r;
  },
};
