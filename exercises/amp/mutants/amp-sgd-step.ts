import { f16round } from "@petamoriken/float16";
import type { ampSgdStep } from "../amp-sgd-step.js";

const bad = (g: Float32Array) => g.some((v) => !Number.isFinite(v));

export const mutants: Record<string, typeof ampSgdStep> = {
  "updates an fp16 copy (no fp32 master weights)": (m, g, s, lr) => {
    if (bad(g)) return { master: m.slice(), skipped: true };
    const inv = Math.fround(1 / s);
    return { master: m.map((w, i) => f16round(w - lr * g[i]! * inv)), skipped: false };
  },
  "unscales into fp16": (m, g, s, lr) => {
    if (bad(g)) return { master: m.slice(), skipped: true };
    const inv = Math.fround(1 / s);
    return { master: m.map((w, i) => w - lr * f16round(g[i]! * inv)), skipped: false };
  },
  "forgets to unscale": (m, g, _s, lr) => {
    if (bad(g)) return { master: m.slice(), skipped: true };
    return { master: m.map((w, i) => w - lr * g[i]!), skipped: false };
  },
  "does not skip on inf/NaN": (m, g, s, lr) => {
    const inv = Math.fround(1 / s);
    return { master: m.map((w, i) => w - lr * g[i]! * inv), skipped: false };
  },
};
