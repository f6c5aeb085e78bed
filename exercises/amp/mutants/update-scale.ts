import type { Mutant } from "../../harness/index.js";
import type { gradScalerUpdate, ScaleOptions } from "../update-scale.js";

type F = typeof gradScalerUpdate;
const check = (o: ScaleOptions) => {
  if (!(o.growthFactor > 1 && Number.isFinite(o.growthFactor))) throw new RangeError(`growthFactor must be a finite number > 1, got ${o.growthFactor}`);
  if (!(o.backoffFactor > 0 && o.backoffFactor < 1)) throw new RangeError(`backoffFactor must be in (0, 1), got ${o.backoffFactor}`);
  if (!(Number.isInteger(o.growthInterval) && o.growthInterval >= 1)) throw new RangeError(`growthInterval must be an integer >= 1, got ${o.growthInterval}`);
};
const checkState = (s: number, t: number) => {
  if (!(s > 0 && Number.isFinite(s))) throw new RangeError(`scale must be a positive finite number, got ${s}`);
  if (!(Number.isInteger(t) && t >= 0)) throw new RangeError(`growthTracker must be an integer >= 0, got ${t}`);
};
/** A correct update with one part replaced. */
function update(s: number, t: number, inf: boolean, o: ScaleOptions, bug: Partial<{ validate: (o: ScaleOptions) => void; state: (s: number, t: number) => void; backoffTracker: (t: number) => number; late: boolean; round: (x: number) => number; capInf: boolean }> = {}) {
  (bug.validate ?? check)(o);
  (bug.state ?? checkState)(s, t);
  const round = bug.round ?? Math.fround;
  if (inf) return { scale: round(s * o.backoffFactor), growthTracker: bug.backoffTracker ? bug.backoffTracker(t) : 0 };
  const n = t + 1;
  if (bug.late ? t === o.growthInterval : n === o.growthInterval) {
    const g = round(s * o.growthFactor);
    return { scale: bug.capInf === false || Number.isFinite(Math.fround(g)) ? g : s, growthTracker: 0 };
  }
  return { scale: s, growthTracker: n };
}

export const mutants: Record<string, Mutant<F>> = {
  "compares the tracker before counting this step (grows one step late)": { impl: (s, t, inf, o) => update(s, t, inf, o, { late: true }), caughtBy: ["the stub's example", "growth on the growthInterval-th clean step"] },
  "keeps the tracker on inf": { impl: (s, t, inf, o) => update(s, t, inf, o, { backoffTracker: (x) => x }), caughtBy: "backoff on inf/NaN resets the tracker" },
  "keeps counting after an inf (tracker + 1)": { impl: (s, t, inf, o) => update(s, t, inf, o, { backoffTracker: (x) => x + 1 }), caughtBy: "backoff on inf/NaN resets the tracker" },
  "lets the scale grow to Infinity": { impl: (s, t, inf, o) => update(s, t, inf, o, { capInf: false }), caughtBy: "float32 scale, no growth to Infinity" },
  "float64 scale (no Math.fround)": { impl: (s, t, inf, o) => update(s, t, inf, o, { round: (x) => x }), caughtBy: "float32 scale, no growth to Infinity" },
  "no validation of the options": { impl: (s, t, inf, o) => update(s, t, inf, o, { validate: () => {} }), caughtBy: "bad options throw a RangeError naming the field" },
  "options checked with a plain Error": { impl: (s, t, inf, o) => update(s, t, inf, o, { validate: (x) => { try { check(x); } catch (e) { throw new Error((e as Error).message); } } }), caughtBy: "bad options throw a RangeError naming the field" },
  "accepts an infinite growth factor": { impl: (s, t, inf, o) => update(s, t, inf, o, { validate: (x) => check({ ...x, growthFactor: Number.isFinite(x.growthFactor) ? x.growthFactor : 2 }) }), caughtBy: "bad options throw a RangeError naming the field" },
  "accepts Infinity as a scale": { impl: (s, t, inf, o) => update(s, t, inf, o, { state: (sc, tr) => checkState(Number.isFinite(sc) ? sc : 1, tr) }), caughtBy: "bad scale or tracker throws a RangeError" },
  "no check of the scale and tracker": { impl: (s, t, inf, o) => update(s, t, inf, o, { state: () => {} }), caughtBy: "bad scale or tracker throws a RangeError" },
};
