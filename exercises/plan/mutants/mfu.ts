import { modelFlopsUtilization as lib } from "../../../lib/plan/index.js";
import type { modelFlopsUtilization } from "../mfu.js";

type F = typeof modelFlopsUtilization;

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "counts the recomputed forward (8Ψ: that is HFU)": { impl: (t, p, n, peak) => (lib(t, p, n, peak) * 8) / 6, caughtBy: ["the stub's example", "random runs"] },
  "divides by one GPU's peak": { impl: (t, p, n, peak) => lib(t, p, n, peak) * n, caughtBy: ["the stub's example", "random runs"] },
  "returns a percentage": { impl: (t, p, n, peak) => 100 * lib(t, p, n, peak), caughtBy: ["the stub's example", "random runs"] },
  "checks nothing": { impl: (t, p, n, peak) => (6 * p * t) / (n * peak), caughtBy: "bad input names the argument" },
};
