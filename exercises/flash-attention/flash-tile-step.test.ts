import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, fail, property } from "../harness/index.js";
import { flashTileStep as reference } from "../../lib/flash-attention/flashTileStep.js";
import { mulberry32 } from "../../lib/random.js";
import type { flashTileStep, TileInput, TileState } from "./flash-tile-step.js";

type F = typeof flashTileStep;
const TOL = { abs: 1e-9, rel: 1e-9 };
const same = (f: F, t: TileInput, hint: string) => expectSame(f, (reference satisfies F), [t], { tol: TOL, hint, name: "flashTileStep" });

function matrix(rows: number, cols: number, seed: number, amp = 2): number[][] {
  const r = mulberry32(seed);
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => (2 * r() - 1) * amp));
}
const empty = (Br: number, d: number): TileState => ({ O: matrix(Br, d, 0, 0), l: Array(Br).fill(0), m: Array(Br).fill(-Infinity) });

export default defineExercise<F>({
  id: "10.3",
  kind: "concept",
  title: "one tile step of the forward pass",
  chapter: "flash-attention",
  section: "algorithm-1-drawn",
  file: "exercises/flash-attention/flash-tile-step.ts",
  exportName: "flashTileStep",
  signature: "flashTileStep(tile: {Q, K, V, O, l, m, scale, keep?}): {O, l, m}",
  summary:
    "Lines 9–12 of Algorithm 1 for one pair of tiles: given the state (m, ℓ, normalised O) of B_r query rows over the keys seen so far, return their state after also seeing the tile K_j, V_j (with the keep mask). Rows whose keys in the tile are all masked stay unchanged; logits of ±1e4 and ragged tiles must work; inconsistent tile shapes throw a RangeError naming the argument. Tolerance 1e-9 + 1e-9·|expected|.",
  reference: (reference satisfies F),
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectCall(f, [{ Q: [[1]], K: [[0]], V: [[5]], O: [[0]], l: [0], m: [-Infinity], scale: 1 }], { O: [[5]], l: [1], m: [0] }, { tol: TOL, hint: "one key seen: it is the maximum, e⁰ = 1, and the average of one value row is that row", name: "flashTileStep" });
    } },
    { name: "first step from the empty state", points: 1, run: async (f) => {
        await same(f, { Q: [[1]], K: [[0]], V: [[5]], ...empty(1, 1), scale: 1 }, "one key: m = 0, ℓ = 1, O = V");
        await same(f, { Q: [[1, 0]], K: [[0, 0], [Math.log(3), 0]], V: [[4, 0], [8, 1]], ...empty(1, 2), scale: 1 }, "weights e⁰ = 1 and e^{ln 3} = 3: the average of 4 and 8 with weights 1/4 and 3/4 is 7");
    } },
    { name: "second step rescales the old O and ℓ", points: 3, run: async (f) => {
        const Q = matrix(2, 3, 1), K1 = matrix(3, 3, 2), V1 = matrix(3, 3, 3), K2 = matrix(2, 3, 4, 4), V2 = matrix(2, 3, 5);
        const s1 = reference({ Q, K: K1, V: V1, ...empty(2, 3), scale: 0.5 });
        await same(f, { Q, K: K2, V: V2, ...s1, scale: 0.5 }, "the old O is an average (already divided by the old ℓ) relative to the old max; see the page's Algorithm 1 section");
    } },
    { name: "logits of ±1e4", points: 1, run: async (f) => {
        await same(f, { Q: [[100], [-100]], K: [[100], [99.99]], V: [[1], [2]], O: [[3], [4]], l: [1, 1], m: [-1e4, 9999], scale: 1 }, "exp(1e4) is Infinity in float64: keep exponents relative to the running maxima");
    } },
    { name: "fully masked rows stay unchanged, without NaN", points: 3, run: async (f) => {
        await same(f, { Q: [[1], [2]], K: [[1], [3]], V: [[9], [8]], O: [[0], [3]], l: [0, 2], m: [-Infinity, 1], scale: 1, keep: [[false, false], [false, false]] }, "no kept key in the tile: return O, ℓ and m of the row as they were (−∞ − (−∞) is NaN)");
        await same(f, { Q: [[1], [2]], K: [[1], [3]], V: [[9], [8]], ...empty(2, 1), scale: 1, keep: [[false, false], [true, false]] }, "row 0 sees no key and keeps O = 0, ℓ = 0, m = −∞; row 1 sees key 0 only");
    } },
    { name: "ragged tiles with random masks", points: 2, run: (f) => property(
        fc.record({ Br: fc.integer({ min: 1, max: 5 }), Bc: fc.integer({ min: 1, max: 5 }), d: fc.integer({ min: 1, max: 8 }), seed: fc.integer({ min: 0, max: 1e6 }), first: fc.boolean() }),
        async ({ Br, Bc, d, seed, first }) => {
          const r = mulberry32(seed + 9);
          const keep = Array.from({ length: Br }, () => Array.from({ length: Bc }, () => r() < 0.7));
          const Q = matrix(Br, d, seed), K = matrix(Bc, d, seed + 1), V = matrix(Bc, d, seed + 2);
          const state = first ? empty(Br, d) : reference({ Q, K: matrix(3, d, seed + 3), V: matrix(3, d, seed + 4), ...empty(Br, d), scale: 0.7 });
          await same(f, { Q, K, V, ...state, scale: 0.7, keep }, "random ragged tiles with random masks: check the masked entries, the rescaling and the normalisation of every row");
        }, { numRuns: 80 }) },
    { name: "rejects inconsistent tiles (RangeError)", points: 1, run: async (f) => {
        const base = { Q: [[1, 2]], K: [[1, 0], [0, 1]], V: [[1, 1], [2, 2]], O: [[0, 0]], l: [0], m: [-Infinity], scale: 1 };
        const bad: [TileInput, RegExp, string][] = [
          [{ ...base, V: [[1, 1]] }, /\b[KV]\b/, "K has 2 rows and V 1: name K or V"],
          [{ ...base, Q: [[1, 2, 3]] }, /\b[QK]\b|\bd\b/, "Q's row has length 3, K's 2"],
          [{ ...base, O: [[0, 0]], l: [0, 0] }, /\b[Olm]\b/, "O, l and m must have B_r = Q.length rows"],
        ];
        for (const [tile, re, hint] of bad) {
          await expectThrows(f, [tile], re, { hint, name: "flashTileStep" });
          try { await f(tile); } catch (e) {
            if ((e as Error)?.name !== "RangeError") fail(`flashTileStep threw a ${(e as Error)?.name} for inconsistent tiles, the contract asks for a RangeError`, "throw new RangeError(…)");
          }
        }
    } },
  ],
});
