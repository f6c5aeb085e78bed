import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { chooseEvictions as lib } from "../../lib/offload/index.js";
import type { chooseEvictions } from "./evictions.js";

type F = typeof chooseEvictions;
const reference: F = (x) => lib(x);
const HINT = "the chapter's section \"Warm-up statistics and placement\"";

/** A random situation: n chunks, some on the GPU, 1–3 needed, next uses with ties, a budget that is sometimes too small. */
const situation = fc.integer({ min: 1, max: 14 }).chain((n) => fc.record({
  onGpu: fc.subarray(Array.from({ length: n }, (_, i) => i), { minLength: Math.max(0, n - 3) }).chain((a) => fc.shuffledSubarray(a, { minLength: a.length, maxLength: a.length })),
  need: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: Math.min(3, n) }),
  nextUse: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: n, maxLength: n }),
  chunkBytes: fc.integer({ min: 1, max: 5000 }),
  slots: fc.integer({ min: Math.max(0, n - 4), max: n + 1 }),
  extra: fc.integer({ min: 0, max: 999 }),
})).map(({ slots, extra, ...x }) => ({ ...x, budgetBytes: slots * x.chunkBytes + (extra % x.chunkBytes) }));

export default defineExercise<F>({
  id: "9.4",
  kind: "transcription",
  title: "Gemini auto: which chunks to evict",
  chapter: "offload",
  section: "warm-up-statistics-and-placement",
  file: "exercises/offload/evictions.ts",
  exportName: "chooseEvictions",
  signature: "chooseEvictions({onGpu, need, nextUse, chunkBytes, budgetBytes}): number[]",
  summary: "Before an operator, evict chunks not needed now, farthest next use first, until the chunks fit the budget the warm-up left; fail like Colossal-AI when they cannot.",
  solution: ["lib/offload/chooseEvictions.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => { await expectSame(f, reference, [{ onGpu: [0, 1, 2], need: [3], nextUse: [5, 1, 3, 2], chunkBytes: 10, budgetBytes: 30 }], { hint: HINT }); } },
    { name: "random situations, unsorted, with ties", points: 3, run: (f) => property(situation, async (x) => {
        let throws = false;
        try { lib(x); } catch { throws = true; }
        if (throws) await expectThrows(f, [x], /^Adjust layout failed: need \d+ chunks \(\d+ bytes\), budget -?\d+ bytes$/, { class: RangeError, hint: `${HINT}: when evicting everything allowed is not enough` });
        else await expectSame(f, reference, [x], { hint: `${HINT}: count the missing needed chunks; farthest next use first, higher index on a tie; stop as soon as it fits` });
      }, { numRuns: 150 }) },
    { name: "nothing to evict, and never a needed chunk", points: 2, run: async (f) => {
        await expectSame(f, reference, [{ onGpu: [2, 0], need: [0], nextUse: [1, 9, 9], chunkBytes: 7, budgetBytes: 14 }], { hint: "everything fits: evict nothing" });
        await expectSame(f, reference, [{ onGpu: [0, 1], need: [0, 1, 2], nextUse: [9, 9, 1], chunkBytes: 4, budgetBytes: 12 }], { hint: "the missing chunk fits beside the two on the GPU" });
        await expectSame(f, reference, [{ onGpu: [3, 0, 1], need: [1], nextUse: [2, 1, 1, 2], chunkBytes: 5, budgetBytes: 10 }], { hint: "a tie on next use: the higher index goes first" });
    } },
    { name: "bad input names the field", points: 1, run: async (f) => {
        await expectThrows(f, [{ onGpu: [0], need: [0, 1, 2], nextUse: [1, 1, 1], chunkBytes: 2048, budgetBytes: 4000 }], /^Adjust layout failed: need 3 chunks \(6144 bytes\), budget 4000 bytes$/, { class: RangeError, hint: "the needed chunks alone do not fit" });
        await expectThrows(f, [{ onGpu: [], need: [], nextUse: [], chunkBytes: 0, budgetBytes: 1 }], /^chunkBytes must be a number > 0, got 0$/, { class: RangeError });
    } },
  ],
});
