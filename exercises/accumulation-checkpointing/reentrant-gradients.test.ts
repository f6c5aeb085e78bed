import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, fail, property } from "../harness/index.js";
import { reentrantGradients as libReentrant } from "../../lib/accumulation-checkpointing/index.js";
import type { reentrantGradients, CheckpointedLayer } from "./reentrant-gradients.js";

const reference: typeof reentrantGradients = (layers, o) => libReentrant(layers, o).getsGrad;
const L = (name: string, checkpoint: boolean, hasParams = true): CheckpointedLayer => ({ name, hasParams, checkpoint });
const notes = [L("layer1", true), L("layer2", true), L("layer3", false)];
const SECTION = "the chapter's section \"The reentrant pitfall\"";

export default defineExercise({
  id: "3.4",
  kind: "transcription",
  title: "the reentrant checkpoint pitfall",
  chapter: "accumulation-checkpointing",
  file: "exercises/accumulation-checkpointing/reentrant-gradients.ts",
  exportName: "reentrantGradients",
  signature: "reentrantGradients(layers: {name, hasParams, checkpoint}[], {inputRequiresGrad, useReentrant}): boolean[]",
  section: "the-reentrant-pitfall",
  summary:
    "For a sequential model in which some layers are called through torch.utils.checkpoint, return which layers' parameters have a gradient after loss.backward(), as PyTorch would (all false when backward raises). Work out how requires_grad propagates through plain calls, reentrant and non-reentrant checkpoints: the section \"The reentrant pitfall\".",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectCall(f, [[L("l1", true), L("l2", false)], { inputRequiresGrad: false, useReentrant: true }], [false, true], { hint: `the stub's @example; ${SECTION}` });
    } },
    { name: "the notes' example, reentrant", points: 2, run: async (f) => {
        await expectSame(f, reference, [notes, { inputRequiresGrad: false, useReentrant: true }], { hint: `what does a reentrant checkpoint's output require when its input is data? And the next checkpoint's? (${SECTION})` });
    } },
    { name: "non-reentrant trains every layer", points: 1, run: async (f) => {
        await expectSame(f, reference, [notes, { inputRequiresGrad: false, useReentrant: false }], { hint: `use_reentrant=False behaves differently from the reentrant variant: ${SECTION}` });
    } },
    { name: "input that requires grad", points: 1, run: async (f) => {
        await expectSame(f, reference, [notes, { inputRequiresGrad: true, useReentrant: true }], { hint: `the reentrant variant needs an input that requires grad: ${SECTION}` });
    } },
    { name: "everything checkpointed on data", points: 1, run: async (f) => {
        await expectSame(f, reference, [[L("a", true), L("b", true)], { inputRequiresGrad: false, useReentrant: true }], { hint: `when nothing on the way to the loss requires grad, what does loss.backward() do? (${SECTION})` });
        await expectSame(f, reference, [[L("act", false, false), L("b", true), L("c", true)], { inputRequiresGrad: false, useReentrant: true }], { hint: `does a plain layer without parameters make its output require grad? (${SECTION})` });
    } },
    { name: "random models", points: 1, run: (f) => property(
        fc.record({
          layers: fc.array(fc.record({ name: fc.constantFrom("a", "b", "c"), hasParams: fc.boolean(), checkpoint: fc.boolean() }), { minLength: 1, maxLength: 7 }),
          inputRequiresGrad: fc.boolean(), useReentrant: fc.boolean(),
        }),
        async ({ layers, inputRequiresGrad, useReentrant }) => { await expectSame(f, reference, [layers, { inputRequiresGrad, useReentrant }], { hint: `random models: apply the propagation rules of ${SECTION} layer by layer` }); },
        { numRuns: 80 },
    ) },
    { name: "no layer throws RangeError", points: 1, run: async (f) => {
        const args: Parameters<typeof reentrantGradients> = [[], { inputRequiresGrad: false, useReentrant: true }];
        await expectThrows(f, args, /layers/, { hint: "an empty model is an error (see the stub's Errors)" });
        try { await f(...structuredClone(args)); } catch (e) { if (!(e instanceof RangeError)) fail(`reentrantGradients([], …) threw ${(e as Error)?.name ?? typeof e}, not a RangeError`); }
    } },
  ],
});
