import { hessianEma as lib } from "../../../lib/sophia/index.js";
import type { hessianEma } from "../hessian-ema.js";

type F = typeof hessianEma;
const ok = (h: number[], g: number[], b: number) => { lib(h, g, b); };

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "swaps β2 and 1 − β2": { impl: (h, g, b) => { ok(h, g, b); return h.map((x, i) => (1 - b) * x + b * g[i]! * g[i]!); }, caughtBy: ["the stub's example", "random vectors, negative and zero entries, β2 = 0"] },
  "uses |ĝ| instead of ĝ²": { impl: (h, g, b) => { ok(h, g, b); return h.map((x, i) => b * x + (1 - b) * Math.abs(g[i]!)); }, caughtBy: ["the stub's example", "random vectors, negative and zero entries, β2 = 0"] },
  "uses ĝ instead of ĝ² (negative curvature from a sign)": { impl: (h, g, b) => { ok(h, g, b); return h.map((x, i) => b * x + (1 - b) * g[i]!); }, caughtBy: ["the stub's example", "random vectors, negative and zero entries, β2 = 0"] },
  "no validation": { impl: (h, g, b) => h.map((x, i) => b * x + (1 - b) * g[i]! * g[i]!), caughtBy: "bad input names the field" },
};
