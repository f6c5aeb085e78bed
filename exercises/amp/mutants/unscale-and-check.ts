import type { unscaleAndCheck } from "../unscale-and-check.js";

const guard = (s: number) => { if (!(s > 0 && Number.isFinite(s))) throw new RangeError("scale"); };

export const mutants: Record<string, typeof unscaleAndCheck> = {
  "divides by the scale in float64 instead of multiplying by fp32(1/scale)": (grads, scale) => {
    guard(scale);
    return { grads: grads.map((g) => g.map((v) => v / scale)), foundInf: grads.some((g) => g.some((v) => !Number.isFinite(v))) };
  },
  "checks only the first tensor": (grads, scale) => {
    guard(scale);
    const inv = Math.fround(1 / scale);
    return { grads: grads.map((g) => g.map((v) => v * inv)), foundInf: (grads[0] ?? new Float32Array()).some((v) => !Number.isFinite(v)) };
  },
  "misses NaN (checks for ±Infinity only)": (grads, scale) => {
    guard(scale);
    const inv = Math.fround(1 / scale);
    return { grads: grads.map((g) => g.map((v) => v * inv)), foundInf: grads.some((g) => g.some((v) => Math.abs(v) === Infinity)) };
  },
  "multiplies by the scale instead of dividing": (grads, scale) => {
    guard(scale);
    return { grads: grads.map((g) => g.map((v) => v * scale)), foundInf: grads.some((g) => g.some((v) => !Number.isFinite(v))) };
  },
};
