import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { searchChunkSize as lib } from "../../lib/offload/index.js";
import type { searchChunkSize } from "./chunk-size.js";

type F = typeof searchChunkSize;
const reference: F = (sizes, o) => { const r = lib(sizes, o); return { chunkSize: r.chunkSize, wasteElements: r.wasteElements }; };
const HINT = "the chapter's section \"Chunks and the chunk-size search\"";

export default defineExercise<F>({
  id: "9.3",
  title: "Gemini's chunk-size search",
  chapter: "offload",
  section: "chunks-and-the-chunk-size-search",
  file: "exercises/offload/chunk-size.ts",
  exportName: "searchChunkSize",
  signature: "searchChunkSize(sizes: number[], {searchRange, searchInterval, minChunkSize?}): {chunkSize, wasteElements}",
  summary: "Pack parameters in order into fixed-size chunks (none spans two), count the wasted elements, and search the size that wastes least, as Colossal-AI's search_chunk_configuration does.",
  solution: ["lib/offload/searchChunkSize.ts", "lib/offload/packChunks.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => { await expectSame(f, reference, [[3, 4, 2, 5], { searchRange: 4, searchInterval: 1 }], { hint: HINT }); } },
    { name: "random sizes, intervals and ranges that divide nothing", points: 2, run: (f) => property(
        fc.record({ sizes: fc.array(fc.integer({ min: 1, max: 999 }), { minLength: 1, maxLength: 30 }), range: fc.integer({ min: 0, max: 700 }), interval: fc.integer({ min: 1, max: 97 }), min: fc.option(fc.integer({ min: 1, max: 1500 }), { nil: undefined }) }),
        async ({ sizes, range, interval, min }) => {
          const o = min === undefined ? { searchRange: range, searchInterval: interval } : { searchRange: range, searchInterval: interval, minChunkSize: min };
          await expectSame(f, reference, [sizes, o], { hint: `${HINT}: where the search starts, and what counts as waste` });
        }, { numRuns: 100 }) },
    { name: "the last chunk's tail is waste, and ties keep the smaller size", points: 1, run: async (f) => {
        await expectSame(f, reference, [[10], { searchRange: 0, searchInterval: 1, minChunkSize: 16 }], { hint: "one candidate, 16 elements, holding 10: the last chunk's unused tail counts as waste" });
        await expectSame(f, reference, [[10], { searchRange: 5, searchInterval: 1 }], { hint: "a single parameter: the best chunk is exactly its size" });
        await expectSame(f, reference, [[6, 6, 6, 6], { searchRange: 30, searchInterval: 6 }], { hint: "several sizes waste nothing here: keep the first" });
        await expectSame(f, reference, [[5, 17, 3], { searchRange: 0, searchInterval: 8, minChunkSize: 30 }], { hint: "the search starts at max(largest parameter, minChunkSize) rounded up to the interval, and the last chunk's tail is waste" });
    } },
    { name: "bad input names the field", points: 1, run: async (f) => {
        await expectThrows(f, [[3, 0], { searchRange: 1, searchInterval: 1 }], /^sizes\[1\] must be an integer >= 1, got 0$/, { class: RangeError });
        await expectThrows(f, [[3], { searchRange: -1, searchInterval: 1 }], /^searchRange must be an integer >= 0, got -1$/, { class: RangeError });
        await expectThrows(f, [[3], { searchRange: 1, searchInterval: 0 }], /^searchInterval must be an integer >= 1, got 0$/, { class: RangeError });
        await expectThrows(f, [[3], { searchRange: 1, searchInterval: 1, minChunkSize: 0 }], /^minChunkSize must be an integer >= 1, got 0$/, { class: RangeError });
    } },
  ],
});
