import type { smallestCapacityFactor } from "../smallest-capacity-factor.js";

type F = typeof smallestCapacityFactor;
/** The busiest expert's load m and token count N of each rank with tokens. */
const loads = (routings: number[][], E: number, k: number) => routings.filter((r) => r.length > 0).map((ids) => {
  if (ids.length % k !== 0) throw new RangeError(`routings has ${ids.length} expert ids, not a multiple of topK = ${k}`);
  const c = new Array(E).fill(0);
  ids.forEach((e) => c[e]++);
  return { m: Math.max(...c), N: ids.length / k };
});

export const mutants = {
  "capacity without the ceiling: CF = m·E/(N·k), rounded up to a hundredth": {
    impl: ((routings, E, k) => Math.max(0.01, ...loads(routings, E, k).map(({ m, N }) => Math.ceil((100 * m * E) / (N * k)) / 100))) as F,
    caughtBy: ["worked example", "boundaries: the ceiling at an integer, k = E, ranks without tokens"],
  },
  "one capacity for all ranks' tokens together": {
    impl: ((routings, E, k) => { const all = routings.flat(); const c = new Array(E).fill(0); all.forEach((e) => c[e]++); const N = all.length / k; return N === 0 ? 0.01 : (Math.floor((100 * (Math.max(...c) - 1) * E) / (N * k)) + 1) / 100; }) as F,
    caughtBy: "each rank's own capacity: the worst rank decides",
  },
  "⌈100·(m − 1)·E/(N·k)⌉/100: equal to the threshold, which still drops, when it is a whole hundredth": {
    impl: ((routings, E, k) => Math.max(0.01, ...loads(routings, E, k).map(({ m, N }) => Math.ceil((100 * (m - 1) * E) / (N * k)) / 100))) as F,
    caughtBy: "boundaries: the ceiling at an integer, k = E, ranks without tokens",
  },
} satisfies Record<string, { impl: F; caughtBy: string | string[] }>;
