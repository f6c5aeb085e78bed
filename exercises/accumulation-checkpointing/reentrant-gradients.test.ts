import * as fc from "fast-check";
import { defineExercise, expectSame, property } from "../harness/index.js";
import { reentrantGradients as libReentrant } from "../../lib/accumulation-checkpointing/index.js";
import type { reentrantGradients, CheckpointedLayer } from "./reentrant-gradients.js";

const reference: typeof reentrantGradients = (layers, o) => libReentrant(layers, o).getsGrad;
const L = (name: string, checkpoint: boolean, hasParams = true): CheckpointedLayer => ({ name, hasParams, checkpoint });
const notes = [L("layer1", true), L("layer2", true), L("layer3", false)];

export default defineExercise({
  id: "3.4",
  title: "the reentrant checkpoint pitfall",
  chapter: "accumulation-checkpointing",
  file: "exercises/accumulation-checkpointing/reentrant-gradients.ts",
  exportName: "reentrantGradients",
  signature: "reentrantGradients(layers: {name, hasParams, checkpoint}[], {inputRequiresGrad, useReentrant}): boolean[]",
  summary:
    "Trace requires_grad through a sequential model where some layers are wrapped in torch.utils.checkpoint, and return which layers' parameters receive a gradient. With use_reentrant=True a checkpointed layer's output requires grad only if its input does, so a checkpoint on data silently freezes that layer and the checkpointed layers after it; if the output does not require grad at all, backward raises (return all false).",
  reference,
  checks: [
    { name: "the notes' example, reentrant", points: 2, run: async (f) => {
        await expectSame(f, reference, [notes, { inputRequiresGrad: false, useReentrant: true }], { hint: "layer1's input is data: its output does not require grad, so layer2's checkpoint sees an input without grad either" });
    } },
    { name: "non-reentrant trains every layer", points: 1, run: async (f) => {
        await expectSame(f, reference, [notes, { inputRequiresGrad: false, useReentrant: false }], { hint: "use_reentrant=False records the graph like a plain layer: parameters count" });
    } },
    { name: "input that requires grad", points: 1, run: async (f) => {
        await expectSame(f, reference, [notes, { inputRequiresGrad: true, useReentrant: true }], { hint: "if the input requires grad, the reentrant checkpoint recomputes with grad enabled and its parameters get gradients" });
    } },
    { name: "everything checkpointed on data", points: 1, run: async (f) => {
        await expectSame(f, reference, [[L("a", true), L("b", true)], { inputRequiresGrad: false, useReentrant: true }], { hint: "nothing requires grad: loss.backward() raises, so no parameter gets a gradient" });
        await expectSame(f, reference, [[L("act", false, false), L("b", true), L("c", true)], { inputRequiresGrad: false, useReentrant: true }], { hint: "a parameter-free plain layer does not turn requires_grad on" });
    } },
    { name: "random models", points: 2, run: (f) => property(
        fc.record({
          layers: fc.array(fc.record({ name: fc.constantFrom("a", "b", "c"), hasParams: fc.boolean(), checkpoint: fc.boolean() }), { minLength: 1, maxLength: 7 }),
          inputRequiresGrad: fc.boolean(), useReentrant: fc.boolean(),
        }),
        async ({ layers, inputRequiresGrad, useReentrant }) => { await expectSame(f, reference, [layers, { inputRequiresGrad, useReentrant }], { hint: "follow the two rules in the stub's comment layer by layer" }); },
        { numRuns: 80 },
    ) },
  ],
});
