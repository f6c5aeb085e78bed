import * as fc from "fast-check";
import { defineExercise, expectSame, property } from "../harness/index.js";
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
  id: "10.4",
  title: "one tile step of the forward pass",
  chapter: "flash-attention",
  file: "exercises/flash-attention/flash-tile-step.ts",
  exportName: "flashTileStep",
  signature: "flashTileStep(tile: {Q, K, V, O, l, m, scale, keep?}): {O, l, m}",
  summary:
    "Lines 9–12 of Algorithm 1 for one pair of tiles: scores S = scale·Q_iK_jᵀ (masked entries −∞), tile max and sum, then the new m, ℓ and the normalised O = (ℓe^{m−m_new}O + e^{m̃−m_new}P̃V_j)/ℓ_new. Rows whose keys in the tile are all masked stay unchanged; logits of ±1e4 and ragged tile sizes must work. Tolerance 1e-9 + 1e-9·|expected|.",
  reference: (reference satisfies F),
  checks: [
    { name: "first step from the empty state", points: 1, run: async (f) => {
        await same(f, { Q: [[1]], K: [[0]], V: [[5]], ...empty(1, 1), scale: 1 }, "one key: m = 0, ℓ = 1, O = V");
        await same(f, { Q: [[1, 0]], K: [[0, 0], [Math.log(3), 0]], V: [[4, 0], [8, 1]], ...empty(1, 2), scale: 1 }, "P̃ = [1, 3], ℓ = 4, O = (4 + 24)/4 = 7 in column 0");
    } },
    { name: "second step rescales the old O and ℓ", points: 2, run: async (f) => {
        const Q = matrix(2, 3, 1), K1 = matrix(3, 3, 2), V1 = matrix(3, 3, 3), K2 = matrix(2, 3, 4, 4), V2 = matrix(2, 3, 5);
        const s1 = reference({ Q, K: K1, V: V1, ...empty(2, 3), scale: 0.5 });
        await same(f, { Q, K: K2, V: V2, ...s1, scale: 0.5 }, "the old O is normalised by the old ℓ: multiply it by ℓ·e^{m − m_new}, add e^{m̃ − m_new}P̃V_j, divide by ℓ_new");
    } },
    { name: "logits of ±1e4", points: 1, run: async (f) => {
        await same(f, { Q: [[100], [-100]], K: [[100], [99.99]], V: [[1], [2]], O: [[3], [4]], l: [1, 1], m: [-1e4, 9999], scale: 1 }, "subtract the maxima before exp; exp(1e4) is Infinity");
    } },
    { name: "fully masked rows stay unchanged, without NaN", points: 2, run: async (f) => {
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
          await same(f, { Q, K, V, ...state, scale: 0.7, keep }, "check the masked entries, the rescaling and the final division by ℓ_new for every row");
        }, { numRuns: 80 }) },
  ],
});
