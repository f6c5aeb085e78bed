import * as fc from "fast-check";
import { smallestCapacityFactor as reference } from "../../lib/expert-parallel/index.js";
import { mulberry32 } from "../../lib/nn/index.js";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import type { smallestCapacityFactor } from "./smallest-capacity-factor.js";

const SEE = "see the section “Capacity and dropped tokens”";
const TOL = { abs: 1e-12 };

/** k distinct experts per token, N tokens. */
function tokens(rng: () => number, N: number, E: number, k: number): number[] {
  const ids: number[] = [];
  for (let t = 0; t < N; t++) ids.push(...Array.from({ length: E }, (_, e) => e).sort(() => rng() - 0.5).slice(0, k));
  return ids;
}

export default defineExercise<typeof smallestCapacityFactor>({
  id: "14.1",
  title: "the smallest capacity factor that drops nothing",
  chapter: "expert-parallel",
  file: "exercises/expert-parallel/smallest-capacity-factor.ts",
  exportName: "smallestCapacityFactor",
  signature: "smallestCapacityFactor(routings: number[][], numExperts: number, topK: number): number",
  summary: "The inverse of expert capacity: given each rank's routing, the smallest capacity factor, in hundredths, for which no rank drops a token, with capacity ⌈(N_r·k/E)·CF⌉ computed exactly per rank. Graded on boundaries (the ceiling at an integer, k = E, ranks without tokens) and random routings.",
  reference,
  section: "capacity-and-dropped-tokens",
  solution: ["lib/expert-parallel/smallestCapacityFactor.ts"],
  checks: [
    { name: "worked example", points: 1, run: async (f) => {
        await expectSame(f, reference, [[[0, 0, 0, 1]], 2, 1], { tol: TOL, hint: `the stub's @example: the busiest expert decides, and ⌈x⌉ ≥ m needs x > m − 1 (${SEE})` });
    } },
    { name: "each rank's own capacity: the worst rank decides", points: 1, run: async (f) => {
        await expectSame(f, reference, [[[0, 1, 2, 3, 0, 1, 2, 3], [0, 0]], 4, 1], { tol: TOL, hint: `capacity is per rank, from its own token count: a rank with few tokens needs a larger factor (${SEE})` });
        await expectSame(f, reference, [[[0, 1, 1, 2, 0, 2], [2, 1, 2, 0, 1, 0, 2, 1]], 3, 2], { tol: TOL, hint: SEE });
    } },
    { name: "boundaries: the ceiling at an integer, k = E, ranks without tokens", points: 1, run: async (f) => {
        // perfect balance: ⌈2·CF⌉ ≥ 2 ⟺ CF > 0.5 → 0.51, not 0.5 and not 1
        await expectSame(f, reference, [[[0, 1, 2, 3, 0, 1, 2, 3]], 4, 1], { tol: TOL, hint: `at CF = 0.5 the capacity is exactly ⌈1⌉ = 1; one hundredth more makes it 2 (${SEE})` });
        await expectSame(f, reference, [[[0, 1, 2, 0, 1, 2], []], 3, 3], { tol: TOL, hint: `k = E: every expert gets every token; a rank without tokens needs nothing (${SEE})` });
        await expectSame(f, reference, [[[], []], 4, 2], { tol: TOL, hint: "no tokens at all: the smallest factor, 0.01" });
        await expectSame(f, reference, [[[2, 2, 2, 2, 2, 2, 0, 1, 3, 4]], 10, 1], { tol: TOL, hint: `(10/10)·CF > 5 needs CF > 5: 5.01 (${SEE})` });
        await expectThrows(f, [[[0, 1, 2]], 4, 2], /k|topK|multiple/i, { class: RangeError, hint: "a rank lists N_r·k ids" });
    } },
    { name: "random routings", points: 1, run: (f) => property(fc.integer({ min: 0, max: 1e6 }), async (seed) => {
        const rng = mulberry32(seed), E = 1 + Math.floor(rng() * 12), k = 1 + Math.floor(rng() * E), P = 1 + Math.floor(rng() * 4);
        const routings = Array.from({ length: P }, () => tokens(rng, Math.floor(rng() * 30), E, k));
        await expectSame(f, reference, [routings, E, k], { tol: TOL, hint: SEE });
    }, { numRuns: 100 }) },
  ],
});
