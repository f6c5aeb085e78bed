import type { Mutant } from "../../harness/index.js";
import type { unscaleAndCheck } from "../unscale-and-check.js";

type F = typeof unscaleAndCheck;
const guard = (s: number) => { if (!(s > 0 && Number.isFinite(s))) throw new RangeError(`scale must be a positive finite number, got ${s}`); };
const anyBad = (grads: Float32Array[]) => grads.some((g) => g.some((v) => !Number.isFinite(v)));
const times = (grads: Float32Array[], k: number) => grads.map((g) => g.map((v) => v * k));

export const mutants: Record<string, Mutant<F>> = {
  "divides by the scale in float64 instead of multiplying by fp32(1/scale)": { impl: (grads, scale) => { guard(scale); return { grads: grads.map((g) => g.map((v) => v / scale)), foundInf: anyBad(grads) }; }, caughtBy: "multiplies by fp32(1/scale)" },
  "checks only the first tensor": { impl: (grads, scale) => { guard(scale); return { grads: times(grads, Math.fround(1 / scale)), foundInf: anyBad(grads.slice(0, 1)) }; }, caughtBy: "inf or NaN in any tensor" },
  "misses NaN (checks for ±Infinity only)": { impl: (grads, scale) => { guard(scale); return { grads: times(grads, Math.fround(1 / scale)), foundInf: grads.some((g) => g.some((v) => Math.abs(v) === Infinity)) }; }, caughtBy: "inf or NaN in any tensor" },
  "multiplies by the scale instead of dividing": { impl: (grads, scale) => { guard(scale); return { grads: times(grads, scale), foundInf: anyBad(grads) }; }, caughtBy: "the stub's example" },
  "tests the products, not the gradients as given": { impl: (grads, scale) => { guard(scale); const out = times(grads, Math.fround(1 / scale)); return { grads: out, foundInf: anyBad(out) }; }, caughtBy: "the test looks at the gradients as given" },
  "accepts Infinity as a scale (checks only scale > 0)": { impl: (grads, scale) => { if (!(scale > 0)) throw new RangeError(`scale must be positive, got ${scale}`); return { grads: times(grads, Math.fround(1 / scale)), foundInf: anyBad(grads) }; }, caughtBy: "bad scale throws a RangeError" },
  "throws a plain Error for a bad scale": { impl: (grads, scale) => { if (!(scale > 0 && Number.isFinite(scale))) throw new Error(`scale must be a positive finite number, got ${scale}`); return { grads: times(grads, Math.fround(1 / scale)), foundInf: anyBad(grads) }; }, caughtBy: "bad scale throws a RangeError" },
  "unscales into fp16-sized zeros (flushes values below 2^-24)": { impl: (grads, scale) => { guard(scale); return { grads: grads.map((g) => g.map((v) => { const x = Math.fround(v * Math.fround(1 / scale)); return Math.abs(x) < 2 ** -24 ? 0 : x; })), foundInf: anyBad(grads) }; }, caughtBy: "random gradients and scales" },
};
