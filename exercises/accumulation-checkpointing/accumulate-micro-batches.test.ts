import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, property, type AnyFunction } from "../harness/index.js";
import { combineMicroBatchGradients } from "../../lib/accumulation-checkpointing/index.js";
import type { accumulateMicroBatches, MicroBatchGradient } from "./accumulate-micro-batches.js";

const reference: typeof accumulateMicroBatches = (micro) => combineMicroBatchGradients(micro, "window-tokens");
const tol = { abs: 1e-12, rel: 1e-12 };
const SECTION = "the chapter's section \"Gradient accumulation\"";

/** The call throws a RangeError whose message matches `pattern` (class and message, as the contract names both). */
async function expectRangeError(f: typeof accumulateMicroBatches, micro: MicroBatchGradient[], pattern: RegExp, hint: string): Promise<void> {
  await expectThrows(f as AnyFunction, [micro] as unknown[], pattern, { class: RangeError, hint });
}

export default defineExercise({
  id: "3.1",
  kind: "transcription",
  title: "the gradient of an accumulation window",
  chapter: "accumulation-checkpointing",
  file: "exercises/accumulation-checkpointing/accumulate-micro-batches.ts",
  exportName: "accumulateMicroBatches",
  signature: "accumulateMicroBatches(micro: {meanGrad: number[], numTokens: number}[]): number[]",
  section: "gradient-accumulation",
  summary:
    "Given each micro-batch's mean gradient and token count, return the gradient that one backward over the whole window would give (the mean loss over every token of the window), which is not what the notes' loss / K computes. All-padding micro-batches carry no information; bad windows throw a RangeError naming the problem. Tolerance 1e-12 (absolute and relative). Derivation: the section \"Gradient accumulation\".",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectCall(f, [[{ meanGrad: [1], numTokens: 1 }, { meanGrad: [4], numTokens: 3 }]], [3.25], { tol, hint: `the stub's @example; see ${SECTION}` });
    } },
    { name: "worked example", points: 1, run: async (f) => {
        await expectSame(f, reference, [[{ meanGrad: [1, 0], numTokens: 1 }, { meanGrad: [4, 2], numTokens: 3 }]], { tol, hint: `one big batch averages over tokens, not over micro-batches: ${SECTION}` });
    } },
    { name: "equal token counts", points: 1, run: async (f) => {
        await expectSame(f, reference, [[{ meanGrad: [3, -1], numTokens: 5 }, { meanGrad: [-1, 2], numTokens: 5 }, { meanGrad: [7, 0.5], numTokens: 5 }]], { tol, hint: `with equal counts every sensible rule agrees; check the arithmetic (${SECTION})` });
    } },
    { name: "variable lengths (the 2024 bug)", points: 1, run: async (f) => {
        await expectSame(f, reference, [[{ meanGrad: [0.2], numTokens: 512 }, { meanGrad: [-3], numTokens: 7 }, { meanGrad: [1.5], numTokens: 120 }]], { tol, hint: `a 7-token micro-batch must not weigh as much as a 512-token one: ${SECTION}` });
    } },
    { name: "all-padding micro-batches", points: 1, run: async (f) => {
        await expectSame(f, reference, [[{ meanGrad: [2, 2], numTokens: 4 }, { meanGrad: [NaN, NaN], numTokens: 0 }, { meanGrad: [-1, 5], numTokens: 2 }]], { tol, hint: "a micro-batch without tokens contributes nothing, whatever its meanGrad holds" });
        await expectSame(f, reference, [[{ meanGrad: [NaN, NaN], numTokens: 0 }, { meanGrad: [3, -2], numTokens: 9 }]], { tol, hint: "the first micro-batch may be the empty one" });
    } },
    { name: "special values", points: 1, run: async (f) => {
        await expectSame(f, reference, [[{ meanGrad: [1, -1], numTokens: 2 }, { meanGrad: [Infinity, NaN], numTokens: 0 }]], { tol, hint: "an empty micro-batch's meanGrad may hold Infinity as well as NaN: 0 · Infinity is NaN, so leave it out rather than weight it by 0" });
        await expectSame(f, reference, [[{ meanGrad: [Infinity, 1], numTokens: 3 }, { meanGrad: [1, 1], numTokens: 1 }]], { tol, hint: "a counted micro-batch with an infinite gradient makes the window's gradient infinite (an overflow the trainer must see)" });
    } },
    { name: "bad windows throw RangeError", points: 1, run: async (f) => {
        await expectRangeError(f, [], /micro-batch/, "a window needs at least one micro-batch (RangeError, see the stub's Errors)");
        await expectRangeError(f, [{ meanGrad: [NaN], numTokens: 0 }, { meanGrad: [NaN], numTokens: 0 }], /tokens/, "a window with no token has no mean loss: RangeError mentioning tokens");
        await expectRangeError(f, [{ meanGrad: [1], numTokens: -2 }, { meanGrad: [1], numTokens: 3 }], /numTokens/, "a token count is an integer >= 0");
        await expectRangeError(f, [{ meanGrad: [1], numTokens: 2.5 }], /numTokens/, "a token count is an integer >= 0");
        await expectRangeError(f, [{ meanGrad: [1, 2], numTokens: 2 }, { meanGrad: [1], numTokens: 3 }], /meanGrad/, "every meanGrad has the same length P");
    } },
    { name: "random windows", points: 1, run: (f) => property(
        fc.array(fc.record({ meanGrad: fc.array(fc.integer({ min: -40, max: 40 }).map((k) => k / 4), { minLength: 3, maxLength: 3 }), numTokens: fc.integer({ min: 0, max: 300 }) }), { minLength: 1, maxLength: 6 })
          .filter((m) => m.some((x) => x.numTokens > 0)),
        async (micro: MicroBatchGradient[]) => { await expectSame(f, reference, [micro], { tol, hint: `random windows, some with empty micro-batches: ${SECTION}` }); },
        { numRuns: 60 },
    ) },
  ],
});
