import { gnbLogitEstimate } from "../../../lib/sophia/index.js";
import type { gnbEstimate } from "../gnb-estimate.js";

type F = typeof gnbEstimate;
const checked = (p: number[], l: number[]) => { gnbLogitEstimate(p, l); };

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "squares the summed gradient instead of B times the squared mean (B² too large)": { impl: (p, l) => { checked(p, l); return gnbLogitEstimate(p, l).map((v) => v * l.length); }, caughtBy: ["the stub's examples", "random distributions and labels, unsorted, repeated"] },
  "forgets the factor B": { impl: (p, l) => { checked(p, l); return gnbLogitEstimate(p, l).map((v) => v / l.length); }, caughtBy: ["the stub's examples", "its mean is p(1 − p)"] },
  "averages the per-position squares (the empirical Fisher of each label, not of the mean)": { impl: (p, l) => {
      checked(p, l);
      const out = p.map(() => 0);
      for (const y of l) p.forEach((pi, i) => { const g = pi - (i === y ? 1 : 0); out[i] += g * g / l.length; });
      return out;
    }, caughtBy: ["the stub's examples", "random distributions and labels, unsorted, repeated"] },
  "no input validation": { impl: (p, l) => { const g = p.slice(); for (const y of l) g[y] -= 1 / l.length; return g.map((x) => l.length * x * x); }, caughtBy: "bad input names the field" },
};
