import type { gradScalerUpdate } from "../update-scale.js";

const check = (o: { growthFactor: number; backoffFactor: number; growthInterval: number }) => {
  if (!(o.growthFactor > 1)) throw new RangeError("growthFactor");
  if (!(o.backoffFactor > 0 && o.backoffFactor < 1)) throw new RangeError("backoffFactor");
  if (!(Number.isInteger(o.growthInterval) && o.growthInterval >= 1)) throw new RangeError("growthInterval");
};

export const mutants: Record<string, typeof gradScalerUpdate> = {
  "compares the tracker before counting this step (grows one step late)": (s, t, inf, o) => {
    check(o);
    if (inf) return { scale: Math.fround(s * o.backoffFactor), growthTracker: 0 };
    if (t === o.growthInterval) return { scale: Math.fround(s * o.growthFactor), growthTracker: 0 };
    return { scale: s, growthTracker: t + 1 };
  },
  "keeps the tracker on inf": (s, t, inf, o) => {
    check(o);
    if (inf) return { scale: Math.fround(s * o.backoffFactor), growthTracker: t };
    const n = t + 1;
    return n === o.growthInterval ? { scale: Math.fround(s * o.growthFactor), growthTracker: 0 } : { scale: s, growthTracker: n };
  },
  "lets the scale grow to Infinity": (s, t, inf, o) => {
    check(o);
    if (inf) return { scale: Math.fround(s * o.backoffFactor), growthTracker: 0 };
    const n = t + 1;
    return n === o.growthInterval ? { scale: Math.fround(s * o.growthFactor), growthTracker: 0 } : { scale: s, growthTracker: n };
  },
  "float64 scale (no Math.fround)": (s, t, inf, o) => {
    check(o);
    if (inf) return { scale: s * o.backoffFactor, growthTracker: 0 };
    const n = t + 1;
    if (n !== o.growthInterval) return { scale: s, growthTracker: n };
    const g = s * o.growthFactor;
    return { scale: Number.isFinite(Math.fround(g)) ? g : s, growthTracker: 0 };
  },
  "no validation of the options": (s, t, inf, o) => {
    if (inf) return { scale: Math.fround(s * o.backoffFactor), growthTracker: 0 };
    const n = t + 1;
    if (n !== o.growthInterval) return { scale: s, growthTracker: n };
    const g = Math.fround(s * o.growthFactor);
    return { scale: Number.isFinite(g) ? g : s, growthTracker: 0 };
  },
};
