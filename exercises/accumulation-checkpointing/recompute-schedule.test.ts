import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, fail, property } from "../harness/index.js";
import { recomputeSchedule as libSchedule, allSegmentations } from "../../lib/accumulation-checkpointing/index.js";
import type { recomputeSchedule } from "./recompute-schedule.js";

const reference: typeof recomputeSchedule = (n, segments) => libSchedule(n, segments);

/** The call throws a RangeError (the class the contract names). */
async function expectRangeError(f: typeof recomputeSchedule, args: Parameters<typeof recomputeSchedule>, hint: string): Promise<void> {
  await expectThrows(f, args, undefined, { hint });
  try { await f(...structuredClone(args)); } catch (e) {
    if (!(e instanceof RangeError)) fail(`recomputeSchedule(${args[0]}, [${args[1].join(", ")}]) threw ${(e as Error)?.name ?? typeof e}, not a RangeError`, hint);
  }
}

export default defineExercise({
  id: "3.3",
  title: "recompute schedule",
  chapter: "accumulation-checkpointing",
  file: "exercises/accumulation-checkpointing/recompute-schedule.ts",
  exportName: "recomputeSchedule",
  signature: "recomputeSchedule(numLayers: number, segments: number[]): string[]",
  section: "activation-checkpointing",
  summary:
    "List the work of one checkpointed training step as labels F<i> (forward), R<i> (recompute in backward) and B<i> (backward): every segment but the last is checkpointed, so in backward it is first re-run in forward order and then backpropagated in reverse. Bad segmentations throw a RangeError.",
  reference,
  checks: [
    { name: "no checkpointing", points: 1, run: async (f) => {
        await expectSame(f, reference, [3, [3]], { hint: "one segment: it is the last one, so nothing is recomputed" });
    } },
    { name: "worked example [2, 2]", points: 1, run: async (f) => {
        await expectSame(f, reference, [4, [2, 2]], { hint: "backpropagate the last segment first; the first segment is recomputed only when backward reaches it" });
    } },
    { name: "every layer its own segment", points: 1, run: async (f) => {
        await expectSame(f, reference, [4, [1, 1, 1, 1]], { hint: "the last segment (layer 3) is not checkpointed, so it has no R3" });
    } },
    { name: "bad segmentations throw", points: 1, run: async (f) => {
        await expectRangeError(f, [5, [2, 2]], "segments must sum to numLayers (RangeError)");
        await expectRangeError(f, [3, [3, 0]], "segment lengths must be >= 1");
        await expectRangeError(f, [0, []], "numLayers must be >= 1");
        await expectRangeError(f, [3, [1.5, 1.5]], "segment lengths are whole numbers of layers, even when they sum to numLayers");
        await expectRangeError(f, [2.5, [2.5]], "numLayers is a whole number");
        await expectRangeError(f, [2, [NaN, 2]], "NaN is not a length");
    } },
    { name: "random segmentations", points: 2, run: (f) => property(
        fc.integer({ min: 1, max: 8 }).chain((n) => fc.constantFrom(...allSegmentations(n)).map((s) => [n, s] as const)),
        async ([n, s]) => { await expectSame(f, reference, [n, [...s]], { hint: "random segmentations: the order of work of the section \"Activation checkpointing\" (which segment is backpropagated first, which ones are recomputed, and in what order)" }); },
        { numRuns: 60 },
    ) },
  ],
});
