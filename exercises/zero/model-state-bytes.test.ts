import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { zeroModelStateBytes } from "../../lib/zero/zeroModelStateBytes.js";
import type { modelStateBytes } from "./model-state-bytes.js";

type F = typeof modelStateBytes;
const reference: F = (n, P, s) => zeroModelStateBytes(n, P, s);
const HINT = "see the page's section \"Per-rank memory over one step\"";
const same = (f: F, args: Parameters<F>, hint = HINT) => expectSame(f, reference, args, { hint, name: "modelStateBytes" });

export default defineExercise<F>({
  id: "8.2",
  title: "model-state bytes per rank",
  chapter: "zero",
  section: "per-rank-memory-over-one-step",
  file: "exercises/zero/model-state-bytes.ts",
  exportName: "modelStateBytes",
  signature: "modelStateBytes(numParams: number, numRanks: number, stage: number): {params, grads, optimizerStates, total}",
  summary: "Bytes of 16-bit parameters, 16-bit gradients and 12 bytes/parameter of AdamW state on the most loaded rank under ZeRO stage 0–3 (partitioned states: ⌈Ψ/P⌉ elements). Bad input: RangeErrors naming the field.",
  solution: ["lib/zero/zeroModelStateBytes.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => { await same(f, [10, 4, 2]); } },
    { name: "the ZeRO paper's Figure 1 (7.5B parameters, 64 GPUs)", points: 2, run: async (f) => { for (const s of [0, 1, 2, 3]) await same(f, [7.5e9, 64, s], "Figure 1: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB"); } },
    { name: "each stage partitions one more state", points: 3, run: (f) => property(fc.tuple(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 1, max: 16 }), fc.constantFrom(0, 1, 2, 3)), async ([n, P, s]) => { await same(f, [n, P, s]); }, { numRuns: 120 }) },
    { name: "P does not divide Ψ: the largest shard", points: 2, run: async (f) => { for (const [n, P] of [[10, 4], [3555, 8], [1, 3], [7, 2]]) for (const s of [1, 2, 3]) await same(f, [n, P, s], "the most loaded rank holds ⌈Ψ/P⌉ elements of a partitioned state"); } },
    { name: "bad input", points: 1, run: async (f) => {
        await expectThrows(f, [10, 0, 1], /^numRanks must be an integer >= 1, got 0$/, { class: RangeError, hint: HINT });
        await expectThrows(f, [10, 2, 4], /^stage must be 0, 1, 2 or 3, got 4$/, { class: RangeError, hint: HINT });
        await expectThrows(f, [1.5, 2, 1], /^numParams must be an integer >= 0, got 1.5$/, { class: RangeError, hint: HINT });
    } },
  ],
});
