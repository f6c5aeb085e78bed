import type { balanceStages } from "../partition.js";
import { balancePartition } from "../../../lib/pipeline-parallel/index.js";

type F = typeof balanceStages;
const checked = (costs: number[], p: number) => { balancePartition(costs, p); };

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "equal number of layers per stage": {
    impl: (costs, p) => { checked(costs, p); return Array.from({ length: p + 1 }, (_, s) => Math.round((s * costs.length) / p)); },
    caughtBy: ["the stub's example", "optimal on random costs"],
  },
  "greedy: fill each stage up to the average": {
    impl: (costs, p) => {
      checked(costs, p);
      const avg = costs.reduce((a, c) => a + c, 0) / p;
      const b = [0];
      let sum = 0;
      for (let i = 0; i < costs.length && b.length < p; i++) {
        sum += costs[i];
        const left = costs.length - (i + 1), need = p - b.length;
        if (sum >= avg || left === need) { b.push(i + 1); sum = 0; }
      }
      b.push(costs.length);
      return b;
    },
    caughtBy: "optimal on random costs",
  },
  "leaves the last stage empty (balances over p − 1 stages)": {
    impl: (costs, p) => { checked(costs, p); return p === 1 ? [0, costs.length] : [...balancePartition(costs, p - 1).bounds, costs.length]; },
    caughtBy: ["the stub's example", "edge cases: p = L, p = 1, zero costs, one huge layer"],
  },
  "no input checks": {
    impl: (costs, p) => { try { return balancePartition(costs, p).bounds; } catch { return [0, costs.length]; } },
    caughtBy: "bad input names the field",
  },
  "throws a TypeError instead of a RangeError": {
    impl: (costs, p) => { try { return balancePartition(costs, p).bounds; } catch (e) { throw new TypeError((e as Error).message); } },
    caughtBy: "bad input names the field",
  },
};
