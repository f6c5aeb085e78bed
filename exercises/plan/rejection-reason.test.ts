import * as fc from "fast-check";
import { defineExercise, expectSame, property } from "../harness/index.js";
import { rejectionReason as lib } from "../../lib/plan/index.js";
import type { MemoryEstimate } from "../../lib/memory/index.js";
import type { Cluster } from "../../lib/plan/index.js";
import type { MemoryView, rejectionReason } from "./rejection-reason.js";

type F = typeof rejectionReason;
// The planner keeps a headroom (10 % by default); the exercise judges against the GPU's whole memory: headroom 0.
const reference: F = (plan, memory, cluster) => lib(plan, memory as unknown as MemoryEstimate, cluster as unknown as Cluster, 0);
const GiB = 2 ** 30;
const HINT = "see the section \"Will it fit?\" (/plan#will-it-fit): which rule comes first, which total is judged, and which parts compete for \"largest\"";

function view(parts: number[], lines: { what: string; bytes: number }[], cpu: number): MemoryView {
  const [parameters, gradients, optimizerStates, gradientBuckets, activations] = parts;
  const total = parts.reduce((s, x) => s + x, 0);
  return { perGpu: { parameters, gradients, optimizerStates, gradientBuckets, activations, total }, peak: { total: total + lines.reduce((s, l) => s + l.bytes, 0), lines }, cpuBytesPerGpu: cpu };
}
const cluster = { gpu: { memoryBytes: 80 * GiB }, gpusPerNode: 8, cpuMemoryBytesPerNode: 2048 * GiB };
const same = async (f: F, args: Parameters<F>, hint = HINT): Promise<void> => { await expectSame(f, reference, args, { hint, name: "rejectionReason" }); };

export default defineExercise<F>({
  id: "12.2",
  title: "will the plan run?",
  chapter: "plan",
  section: "will-it-fit",
  file: "exercises/plan/rejection-reason.ts",
  exportName: "rejectionReason",
  signature: "rejectionReason(plan: { pipelineParallel, zeroStage }, memory: MemoryView, cluster: { gpu: { memoryBytes }, gpusPerNode, cpuMemoryBytesPerNode }): string | undefined",
  summary:
    "Three rules in order: pipeline parallelism with ZeRO-2/3 (DeepSpeed refuses it), the peak above the GPU's memory (naming the largest part, a transient line included), offload above the node's host memory. Return the exact sentence of the stub, or undefined when the plan runs.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await same(f, [{ pipelineParallel: 1, zeroStage: 1 }, view([10 * GiB, 10 * GiB, 10 * GiB, 0, 55 * GiB], [], 0), cluster]);
    } },
    { name: "the peak is judged, and a transient line can be the largest part", points: 1, run: async (f) => {
        await same(f, [{ pipelineParallel: 1, zeroStage: 3 }, view([10 * GiB, 10 * GiB, 10 * GiB, 0, 45 * GiB], [], 0), cluster], "75 GiB steady fits in 80: no reason");
        await same(f, [{ pipelineParallel: 1, zeroStage: 3 }, view([10 * GiB, 10 * GiB, 10 * GiB, 0, 10 * GiB], [{ what: "the layer being recomputed", bytes: 45 * GiB }], 0), cluster], "the steady state fits; the peak does not");
        await same(f, [{ pipelineParallel: 1, zeroStage: 0 }, view([30 * GiB, 30 * GiB, 30 * GiB, 0, 0], [], 0), cluster], "three equal parts: the first one is named");
    } },
    { name: "rules in order, on random plans and estimates", points: 2, run: (f) =>
        property(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.constantFrom(0, 1, 2, 3), fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 5, maxLength: 5 }),
          fc.array(fc.record({ what: fc.constantFrom("the fp32 logits", "ZeRO-3's gathered layer", "the layer being recomputed"), bytes: fc.integer({ min: 0, max: 40 }) }), { maxLength: 3 }),
          fc.integer({ min: 0, max: 400 })),
        ([p, z, parts, lines, cpu]) => same(f, [{ pipelineParallel: p, zeroStage: z as 0 | 1 | 2 | 3 }, view(parts.map((x) => x * GiB), lines.map((l) => ({ ...l, bytes: l.bytes * GiB })), cpu * GiB), cluster]),
        { numRuns: 150 }) },
  ],
});
