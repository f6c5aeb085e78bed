import { f16round } from "@petamoriken/float16";
import type { Mutant } from "../../harness/index.js";
import type { ampSgdStep } from "../amp-sgd-step.js";

type F = typeof ampSgdStep;
const bad = (g: Float32Array) => g.some((v) => !Number.isFinite(v));
const guard = (s: number) => { if (!(s > 0 && Number.isFinite(s))) throw new RangeError(`scale must be a positive finite number, got ${s}`); };
/** A correct step with one part replaced. */
function step(m: Float32Array, g: Float32Array, s: number, lr: number, o: { skip?: (g: Float32Array) => boolean; unscale?: (v: number, s: number) => number; store?: (w: number) => number; check?: (s: number) => void } = {}) {
  (o.check ?? guard)(s);
  if ((o.skip ?? bad)(g)) return { master: m.slice(), skipped: true };
  const un = o.unscale ?? ((v: number, sc: number) => Math.fround(v * Math.fround(1 / sc)));
  const store = o.store ?? ((w: number) => w);
  return { master: m.map((w, i) => store(Math.fround(w - Math.fround(lr * un(g[i]!, s))))), skipped: false };
}

export const mutants: Record<string, Mutant<F>> = {
  "updates an fp16 copy (no fp32 weights)": { impl: (m, g, s, lr) => step(m, g, s, lr, { store: f16round }), caughtBy: "a small update survives in the fp32 weights" },
  "unscales into fp16": { impl: (m, g, s, lr) => step(m, g, s, lr, { unscale: (v, sc) => f16round(v * Math.fround(1 / sc)) }), caughtBy: "unscaled gradients stay fp32" },
  "forgets to unscale": { impl: (m, g, s, lr) => step(m, g, s, lr, { unscale: (v) => v }), caughtBy: ["the stub's example", "a small update survives in the fp32 weights"] },
  "does not skip on inf/NaN": { impl: (m, g, s, lr) => step(m, g, s, lr, { skip: () => false }), caughtBy: "skip on inf/NaN, weights unchanged" },
  "skips on +Infinity only (misses NaN and −Infinity)": { impl: (m, g, s, lr) => step(m, g, s, lr, { skip: (x) => x.some((v) => v === Infinity) }), caughtBy: "skip on inf/NaN, weights unchanged" },
  "skips on NaN only (Number.isNaN)": { impl: (m, g, s, lr) => step(m, g, s, lr, { skip: (x) => x.some((v) => Number.isNaN(v)) }), caughtBy: "skip on inf/NaN, weights unchanged" },
  "accepts any scale (no validation)": { impl: (m, g, s, lr) => step(m, g, s, lr, { check: () => {} }), caughtBy: "bad scale throws a RangeError" },
  "throws a plain Error for a bad scale": { impl: (m, g, s, lr) => step(m, g, s, lr, { check: (sc) => { if (!(sc > 0 && Number.isFinite(sc))) throw new Error(`scale must be a positive finite number, got ${sc}`); } }), caughtBy: "bad scale throws a RangeError" },
  "accepts Infinity as a scale (checks only s > 0)": { impl: (m, g, s, lr) => step(m, g, s, lr, { check: (sc) => { if (!(sc > 0)) throw new RangeError(`scale must be positive, got ${sc}`); } }), caughtBy: "bad scale throws a RangeError" },
  "adds the update (w + lr·g)": { impl: (m, g, s, lr) => { const r = step(m, g, s, -lr); return r; }, caughtBy: ["the stub's example", "random steps"] },
};
