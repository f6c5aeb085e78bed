import { checkShards } from "../../../lib/context-parallel/index.js";
import type { ringWork } from "../ring-work.js";

type F = typeof ringWork;
interface Mistake { turn?: 1 | -1; strict?: boolean; lexicographic?: boolean; inPlace?: boolean; noCheck?: boolean; spread?: boolean }

/** Sorted two-pointer counting, with one mistake switched on. */
function count(m: Mistake): F {
  return (shards, causal) => {
    if (!m.noCheck) checkShards(shards);
    const C = shards.length, n = shards[0].length;
    if (m.spread) Math.max(...shards.flat()); // sizes a table from the largest position
    if (!causal) return shards.map(() => new Array<number>(C).fill(n * n));
    const sorted = shards.map((s) => (m.inPlace ? (s as number[]) : [...s]).sort(m.lexicographic ? undefined : (a, b) => a - b));
    return sorted.map((q, r) => Array.from({ length: C }, (_, s) => {
      const k = sorted[(((r - (m.turn ?? 1) * s) % C) + C) % C];
      let pairs = 0;
      for (let i = 0, j = 0; i < n; i++) { while (j < n && (m.strict ? k[j] < q[i] : k[j] <= q[i])) j++; pairs += j; }
      return pairs;
    }));
  };
}

export const mutants = {
  "holds rank (r + s) mod C's block at step s (the ring turned the other way)": { impl: count({ turn: -1 }), caughtBy: ["which block a rank holds at step s", "any placement of the tokens, causal"] },
  "keeps a key only when it is strictly before the query (a token does not see itself)": { impl: count({ strict: true }), caughtBy: ["the stub's example", "any placement of the tokens, causal", "C = 1, and one token per rank"] },
  "sorts the positions as strings (sort() without a comparator)": { impl: count({ lexicographic: true }), caughtBy: ["any placement of the tokens, causal", "a 2²⁰-token sequence"] },
  "sorts the caller's shards in place": { impl: count({ inPlace: true }), caughtBy: "any placement of the tokens, causal" },
  "spreads every position into Math.max(...) (the call stack overflows at 2²⁰)": { impl: count({ spread: true }), caughtBy: "a 2²⁰-token sequence" },
  "does not check the shards": { impl: count({ noCheck: true }), caughtBy: "shards that do not hold every position once throw a RangeError" },
} satisfies Record<string, { impl: F; caughtBy: string | string[] }>;
