import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, largeArray, property } from "../harness/index.js";
import { rhoForWinRate as libRho } from "../../lib/sophia/index.js";
import type { rhoForWinRate } from "./rho-for-win-rate.js";

type F = typeof rhoForWinRate;
const reference: F = (m, h, bs, target) => libRho(m, h, bs, target);

const SECTION = "the-algorithm-line-by-line";
const see = `see the page's section "The algorithm line by line" (src/sophia.md#${SECTION})`;
const TOL = { abs: 0, rel: 1e-12 };
const same = (f: F, m: number[], h: number[], bs: number, target: number, hint: string) => expectSame(f, reference, [m, h, bs, target], { name: "rhoForWinRate", hint, tol: TOL });
/** m and h on a grid; h of any sign. */
const rows = fc.array(fc.tuple(fc.integer({ min: -60, max: 60 }), fc.integer({ min: -5, max: 40 })), { minLength: 1, maxLength: 40 });

export default defineExercise({
  id: "11.3",
  kind: "concept",
  title: "the ρ that gives a win rate",
  chapter: "sophia",
  file: "exercises/sophia/rho-for-win-rate.ts",
  exportName: "rhoForWinRate",
  signature: "rhoForWinRate(m: number[], h: number[], bs: number, target: number): number | null",
  section: SECTION,
  summary:
    "The authors tune ρ so that the share of coordinates whose update is not clipped (the code's train/win_rate, |m| < ρ·bs·h) stays between 0.1 and 0.5. Given m, h and bs, return the threshold ρ* above which the win rate reaches a target: the inverse of the clip the page derives. Coordinates with h ≤ 0 never win, equal thresholds move together, the share is compared as c/n; null when no ρ reaches the target.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectCall(f, [[0.1, 0.5, 0.3], [1, 1, 0], 1, 0.5], 0.5, { name: "rhoForWinRate", hint: `the stub's example; ${see}`, tol: TOL });
    } },
    { name: "h ≤ 0 never wins: out of reach is null", points: 1, run: async (f) => {
        for (const [m, h, t] of [[[0.1, 0.5, 0.3], [1, 1, 0], 0.9], [[0.2, 0.2], [-1, 0], 0.5], [[0.1, 0.2], [-1, 2], 0.5], [[0.1, 0.2], [-1, 2], 0.6]] as const) {
          await same(f, [...m], [...h], 1, t, "with h ≤ 0, ρ·bs·h ≤ 0 ≤ |m|: that coordinate is clipped whatever ρ, and a target that needs it is out of reach");
        }
    } },
    { name: "the code's strict test: m = 0 with h = 0 never wins", points: 1, run: async (f) => {
        await same(f, [0, 0, 0.3], [0, 1, 1], 2, 2 / 3, "|m| < ρ·bs·h is strict: m = 0, h = 0 gives 0 < 0, false; m = 0, h > 0 wins for every ρ > 0");
        await same(f, [0, 0, 0.3], [0, 1, 1], 2, 0.3, "m = 0 with h > 0 wins for every ρ > 0: the threshold is 0");
    } },
    { name: "equal thresholds move together", points: 1, run: async (f) => {
        await same(f, [1, 1, 1, 1], [1, 1, 1, 1], 2, 0.25, "four equal thresholds: either none wins or all four do");
        await same(f, [0.1, 0.2, 0.2, 0.2, 0.9], [1, 1, 1, 1, 1], 1, 0.4, "a count no ρ gives (2 of 5): the next count some ρ gives");
    } },
    { name: "the share is c/n, compared in float64", points: 1, run: async (f) => {
        // 0.07 · 100 = 7.000000000000001: a count from ceil(target · n) asks for one coordinate too many
        const m = Array.from({ length: 100 }, (_, i) => (i + 1) / 100), h = new Array<number>(100).fill(1);
        for (const t of [0.07, 0.14, 0.28, 0.3, 0.5]) await same(f, m, h, 1, t, "the smallest count c with c/n ≥ target, the share computed as a division (the code's num_effective / num_param)");
    } },
    { name: "targets 0 and 1", points: 1, run: async (f) => {
        await same(f, [0.1, 0.2], [1, 1], 1, 0, "target 0: every ρ > 0 reaches it, ρ* = 0");
        await same(f, [0.1, 0.2], [1, 1], 1, 1, "target 1: every coordinate must win");
        await same(f, [0.1, 0.2], [1, 0], 1, 1, "target 1 with a coordinate that never wins: null");
    } },
    { name: "random vectors", points: 4, run: (f) => property(fc.tuple(rows, fc.integer({ min: 1, max: 9 }), fc.constantFrom(0.05, 0.1, 0.25, 0.3, 0.5, 0.7, 1)),
        async ([r, bs, t]) => { await same(f, r.map((x) => x[0] / 10), r.map((x) => x[1] / 7), bs, t, `compare with the cases above; ${see}`); }, { numRuns: 200 }) },
    { name: "bad input: RangeError naming the field", points: 1, run: async (f) => {
        const hint = "the stub's contract lists the errors";
        for (const [args, re] of [[[[1], [1], 1, 1.5], /target/], [[[1], [1], 0, 0.5], /bs/], [[[1, 2], [1], 1, 0.5], /\bh\b/], [[[NaN], [1], 1, 0.5], /\bm\b/], [[[1], [Infinity], 1, 0.5], /\bh\b/]] as const) {
          await expectThrows(f, args as unknown as Parameters<F>, re, { class: RangeError, name: "rhoForWinRate", hint });
        }
    } },
    { name: "a million coordinates", points: 1, run: async (f) => {
        const m = largeArray(1_000_000, 8, (_i, r) => (r() - 0.5) * 1e-3), h = largeArray(1_000_000, 9, (_i, r) => (r() < 0.05 ? 0 : r() * 1e-6));
        await same(f, m, h, 4096, 0.3, "a million coordinates: sort or select their thresholds in a loop (no spread into Math.min/Math.max)");
    } },
  ],
});
