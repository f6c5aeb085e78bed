import type { Mutant } from "../../harness/index.js";
import type { chooseSegments, LayerCost } from "../choose-segments.js";

function compositions(n: number): number[][] {
  if (n > 20) throw new RangeError(`too many layers (${n}) to try every segmentation`); // a brute force that gives up
  const out: number[][] = [];
  for (let mask = 0; mask < 2 ** (n - 1); mask++) {
    const segs: number[] = [];
    let len = 1;
    for (let cut = 0; cut < n - 1; cut++) { if (mask & (1 << cut)) { segs.push(len); len = 1; } else len++; }
    segs.push(len);
    out.push(segs);
  }
  return out;
}
/** Peak with a configurable mistake. */
function peak(costs: LayerCost[], segs: number[], forgetForwardEnd: boolean): number {
  const starts: number[] = [];
  segs.reduce((s, l) => { starts.push(s); return s + l; }, 0);
  const last = segs.length - 1;
  let ckpt = 0, p = 0;
  for (let k = 0; k < last; k++) {
    const seg = costs.slice(starts[k], starts[k] + segs[k]).reduce((s, c) => s + c.savedBytes, 0);
    p = Math.max(p, ckpt + seg);
    ckpt += costs[starts[k]].inputBytes;
  }
  const lastSaved = costs.slice(starts[last]).reduce((s, c) => s + c.savedBytes, 0);
  return forgetForwardEnd ? Math.max(p, lastSaved) : Math.max(p, ckpt + lastSaved);
}
function recompute(costs: LayerCost[], segs: number[]): number {
  return costs.slice(0, costs.length - segs[segs.length - 1]).reduce((s, c) => s + c.flops, 0);
}
function best(costs: LayerCost[], limit: number, score: (s: number[]) => number, forgetForwardEnd = false, validate = true): number[] {
  if (validate && (typeof limit !== "number" || !(limit >= 0))) throw new RangeError(`memoryLimitBytes must be a number >= 0, got ${limit}`);
  let b: number[] | null = null;
  for (const s of compositions(costs.length)) {
    if (peak(costs, s, forgetForwardEnd) > limit) continue;
    if (!b || score(s) < score(b)) b = s;
  }
  if (!b) throw new RangeError("no segmentation fits the budget");
  return b;
}

/** Greedy: checkpoint layer after layer from the front until the rest fits (a plausible shortcut, not optimal). */
function greedy(costs: LayerCost[], limit: number): number[] {
  if (typeof limit !== "number" || !(limit >= 0)) throw new RangeError(`memoryLimitBytes must be a number >= 0, got ${limit}`);
  for (let k = 1; k <= costs.length; k++) {
    // k − 1 checkpointed segments of one layer each, then the rest as the last segment
    const segs = [...Array.from({ length: k - 1 }, () => 1), costs.length - (k - 1)];
    if (peak(costs, segs, false) <= limit) return segs;
  }
  throw new RangeError("no segmentation fits the budget");
}

export const mutants: Record<string, Mutant<typeof chooseSegments>> = {
  "tries every segmentation (gives up above 20 layers)": { impl: (costs, limit) => best(costs, limit, (s) => recompute(costs, s)), caughtBy: "two thousand layers (every segmentation cannot be tried)" },
  "one-layer segments from the front until the rest fits": { impl: greedy, caughtBy: ["worked example: 4 equal layers, 5 bytes", "two thousand layers (every segmentation cannot be tried)"] },
  "a budget equal to the peak refused (< instead of ≤)": { impl: (costs, limit) => best(costs, limit - 1e-9, (s) => recompute(costs, s)), caughtBy: "exactly at the limit: a peak equal to the budget fits" },
  "always √n equal segments (Chen's rule, ignoring the budget)": {
    impl: (costs) => {
      const n = costs.length, k = Math.max(1, Math.round(Math.sqrt(n)));
      return Array.from({ length: k }, (_, i) => Math.floor(n / k) + (i < n % k ? 1 : 0));
    },
    caughtBy: ["no checkpointing when everything fits", "impossible budget throws"],
  },
  "minimises the peak instead of the recomputation": { impl: (costs, limit) => best(costs, limit, (s) => peak(costs, s, false)), caughtBy: "no checkpointing when everything fits" },
  "forgets the checkpoints still alive when forward ends": { impl: (costs, limit) => best(costs, limit, (s) => recompute(costs, s), true), caughtBy: "worked example: 4 equal layers, 5 bytes" },
  "does not validate the budget (NaN and negative budgets end as 'nothing fits', a string is compared as a number)": {
    impl: (costs, limit) => best(costs, limit, (s) => recompute(costs, s), false, false),
    caughtBy: "bad budgets throw RangeError",
  },
  "throws a plain Error when nothing fits": {
    impl: (costs, limit) => { try { return best(costs, limit, (s) => recompute(costs, s)); } catch (e) { throw new Error((e as Error).message); } },
    caughtBy: ["impossible budget throws", "bad budgets throw RangeError"],
  },
};
