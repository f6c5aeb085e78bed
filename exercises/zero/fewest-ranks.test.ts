import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, property } from "../harness/index.js";
import { fewestRanks as lib } from "../../lib/zero/fewestRanks.js";
import { zeroModelStateBytes } from "../../lib/zero/zeroModelStateBytes.js";
import type { fewestRanks } from "./fewest-ranks.js";

type F = typeof fewestRanks;
const reference: F = (n, s, b) => lib(n, s, b);
const HINT = "see the page's section \"Per-rank memory over one step\" (src/zero.md#per-rank-memory-over-one-step)";
const same = (f: F, args: Parameters<F>, hint = HINT) => expectSame(f, reference, args, { hint, name: "fewestRanks" });
const bytes = (n: number, P: number, s: number) => zeroModelStateBytes(n, P, s).total;

export default defineExercise<F>({
  id: "8.2",
  kind: "concept",
  title: "how many ranks does a model need?",
  chapter: "zero",
  section: "per-rank-memory-over-one-step",
  file: "exercises/zero/fewest-ranks.ts",
  exportName: "fewestRanks",
  signature: "fewestRanks(numParams: number, stage: number, bytesPerRank: number): number | null",
  summary: "The inverse of the page's per-rank model states, in the number of ranks: the fewest data-parallel ranks over which ZeRO stage 0–3 fits Ψ parameters' 16-bit weights, 16-bit gradients and 12 bytes of AdamW state per parameter in a rank's memory (⌈Ψ/P⌉ elements per shard; equal fits). Some stages never fit; trillion-parameter answers must be exact.",
  solution: ["lib/zero/fewestRanks.ts", "lib/zero/zeroModelStateBytes.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => { await expectCall(f, [1e12, 3, 32e9], 500, { name: "fewestRanks", hint: `the stub's example; ${HINT}` }); } },
    { name: "each stage: 7.5B parameters on 32 GB ranks", points: 2, run: async (f) => { for (const s of [1, 2, 3]) await same(f, [7.5e9, s, 32e9], "the states a stage leaves whole do not shrink with P; only the partitioned ones do"); } },
    { name: "stage 0, and memories no P reaches: null", points: 2, run: async (f) => {
        for (const [n, s, b] of [[7.5e9, 0, 32e9], [7.5e9, 0, 120e9], [7.5e9, 1, 30e9 + 11], [10, 3, 15], [10, 2, 4 * 10 - 1]] as const) await same(f, [n, s, b], "a shard cannot shrink below one element, and stage 0 partitions nothing: sometimes no P fits");
    } },
    { name: "exactly at the memory: equal fits", points: 2, run: async (f) => {
        for (const [n, P, s] of [[3555, 8, 3], [7.5e9, 46, 1], [1e12, 500, 3], [10, 3, 2]] as const) {
          await same(f, [n, s, bytes(n, P, s)], `the states on ${P} ranks take exactly this memory: ${P} ranks fit`);
          await same(f, [n, s, bytes(n, P, s) - 1], "one byte less: more ranks");
        }
    } },
    { name: "no parameter; one element per rank", points: 1, run: async (f) => {
        for (const [n, s, b] of [[0, 3, 0], [0, 0, 0], [10, 3, 16], [7, 1, 4 * 7 + 12]] as const) await same(f, [n, s, b], "Ψ = 0 needs one rank; P = Ψ leaves one element per shard");
    } },
    { name: "random models and memories", points: 3, run: (f) => property(fc.tuple(fc.integer({ min: 0, max: 2 ** 40 }), fc.constantFrom(0, 1, 2, 3), fc.integer({ min: 0, max: 2 ** 44 })),
        async ([n, s, b]) => { await same(f, [n, s, b], `the answer fits and one rank fewer does not; ${HINT}`); }, { numRuns: 200 }) },
    { name: "bad input", points: 1, run: async (f) => {
        await expectThrows(f, [10, 4, 100], /^stage must be 0, 1, 2 or 3, got 4$/, { class: RangeError, hint: HINT, name: "fewestRanks" });
        await expectThrows(f, [1.5, 2, 100], /^numParams must be an integer >= 0, got 1.5$/, { class: RangeError, hint: HINT, name: "fewestRanks" });
        await expectThrows(f, [10, 2, -1], /^bytesPerRank must be a safe integer >= 0, got -1$/, { class: RangeError, hint: HINT, name: "fewestRanks" });
    } },
  ],
});
