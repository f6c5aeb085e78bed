import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property, type AnyFunction } from "../harness/index.js";
import { recomputeSchedule as libSchedule, allSegmentations } from "../../lib/accumulation-checkpointing/index.js";
import type { recomputeSchedule } from "./recompute-schedule.js";

const reference: typeof recomputeSchedule = (n, segments) => libSchedule(n, segments);

/** The call throws a RangeError (the class the contract names). */
async function expectRangeError(f: typeof recomputeSchedule, args: Parameters<typeof recomputeSchedule>, hint: string): Promise<void> {
  await expectThrows(f as AnyFunction, args as unknown[], undefined, { class: RangeError, hint });
}

export default defineExercise({
  id: "3.3",
  kind: "concept",
  title: "recompute schedule",
  chapter: "accumulation-checkpointing",
  file: "exercises/accumulation-checkpointing/recompute-schedule.ts",
  exportName: "recomputeSchedule",
  signature: "recomputeSchedule(numLayers: number, segments: number[]): string[]",
  section: "activation-checkpointing",
  summary:
    "List the work of one checkpointed training step, as checkpoint_sequential runs it, as labels F<i> (forward), R<i> (re-run during backward) and B<i> (backward). Which segments are re-run, when, and in what order is derived in the section \"Activation checkpointing\". Bad segmentations throw a RangeError.",
  reference,
  checks: [
    { name: "no checkpointing", points: 2, run: async (f) => {
        await expectSame(f, reference, [3, [3]], { hint: "one segment: is it checkpointed? (section \"Activation checkpointing\")" });
    } },
    { name: "worked example [2, 2]", points: 2, run: async (f) => {
        await expectSame(f, reference, [4, [2, 2]], { hint: "when is a checkpointed segment re-run: all at the start of backward, or when the gradient reaches it? (section \"Activation checkpointing\")" });
    } },
    { name: "every layer its own segment", points: 2, run: async (f) => {
        await expectSame(f, reference, [4, [1, 1, 1, 1]], { hint: "which segment is not checkpointed, and so never re-run?" });
    } },
    { name: "bad segmentations throw", points: 2, run: async (f) => {
        await expectRangeError(f, [5, [2, 2]], "segments must sum to numLayers (RangeError)");
        await expectRangeError(f, [3, [3, 0]], "segment lengths must be >= 1");
        await expectRangeError(f, [0, []], "numLayers must be >= 1");
        await expectRangeError(f, [3, [1.5, 1.5]], "segment lengths are whole numbers of layers, even when they sum to numLayers");
        await expectRangeError(f, [2.5, [2.5]], "numLayers is a whole number");
        await expectRangeError(f, [2, [NaN, 2]], "NaN is not a length");
    } },
    { name: "random segmentations", points: 4, run: (f) => property(
        fc.integer({ min: 1, max: 8 }).chain((n) => fc.constantFrom(...allSegmentations(n)).map((s) => [n, s] as const)),
        async ([n, s]) => { await expectSame(f, reference, [n, [...s]], { hint: "random segmentations: the order of work of the section \"Activation checkpointing\" (which segment is backpropagated first, which ones are recomputed, and in what order)" }); },
        { numRuns: 60 },
    ) },
  ],
});
