import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { simulateOffloadStep } from "../../lib/offload/index.js";
import type { offloadBytesPerStep, OffloadPlacement } from "./offload-bytes.js";

type F = typeof offloadBytesPerStep;
const reference: F = (p) => ({ ...simulateOffloadStep({ ...p, numSteps: 1 }).bytesPerStep });
const HINT = "the chapter's section \"The offload timeline\": what crosses each link, and how often per step";

export default defineExercise<F>({
  id: "9.1",
  kind: "concept",
  title: "bytes over PCIe and NVMe per step",
  chapter: "offload",
  section: "the-offload-timeline",
  file: "exercises/offload/offload-bytes.ts",
  exportName: "offloadBytesPerStep",
  signature: "offloadBytesPerStep({numLayers, hiddenSize, stage?, offloadOptimizer?, offloadParam?}): {h2d, d2h, nvmeRead, nvmeWrite}",
  summary: "Bytes crossing host→device, device→host and NVMe in one step for ZeRO-Offload, ZeRO-3 parameter offload and ZeRO-Infinity's NVMe tier; RangeErrors name the field.",
  solution: ["lib/offload/simulateOffloadStep.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => { await expectSame(f, reference, [{ numLayers: 1, hiddenSize: 1 }], { hint: HINT }); } },
    { name: "optimizer offload, defaults omitted, sizes that divide nothing", points: 2, run: (f) => property(
        fc.record({ numLayers: fc.integer({ min: 1, max: 97 }), hiddenSize: fc.integer({ min: 1, max: 5001 }) }),
        async (p) => { await expectSame(f, reference, [p], { hint: HINT }); }, { numRuns: 40 }) },
    { name: "ZeRO-3 parameter offload and the NVMe tier", points: 4, run: (f) => property(
        fc.record({
          numLayers: fc.integer({ min: 1, max: 61 }), hiddenSize: fc.integer({ min: 1, max: 3333 }), stage: fc.constant(3 as const),
          offloadOptimizer: fc.constantFrom("cpu" as const, "nvme" as const), offloadParam: fc.constantFrom("none" as const, "cpu" as const, "nvme" as const),
        }),
        async (p) => { await expectSame(f, reference, [p], { hint: `${HINT}; a parameter offloaded by ZeRO-3 is needed by forward and again by backward` }); }, { numRuns: 60 }) },
    { name: "no offload moves nothing", points: 2, run: async (f) => {
        await expectSame(f, reference, [{ numLayers: 7, hiddenSize: 333, offloadOptimizer: "none" }], { hint: "with everything on the GPU, nothing crosses PCIe" });
        await expectSame(f, reference, [{ numLayers: 3, hiddenSize: 65, stage: 1, offloadOptimizer: "nvme" } as OffloadPlacement], { hint: HINT });
    } },
    { name: "bad input names the field", points: 2, run: async (f) => {
        await expectThrows(f, [{ numLayers: 2, hiddenSize: 8, offloadParam: "cpu" }], /^offloadParam "cpu" needs stage 3 \(zero_optimization\.stage\), got stage 2$/, { class: RangeError, hint: "offload_param is a ZeRO-3 option" });
        await expectThrows(f, [{ numLayers: 2, hiddenSize: 8, stage: 3, offloadParam: "nvme", offloadOptimizer: "none" }], /^offloadParam "nvme" needs offloadOptimizer "cpu" or "nvme", got "none"$/, { class: RangeError, hint: "the contract's second error" });
        await expectThrows(f, [{ numLayers: 0, hiddenSize: 8 }], /^numLayers must be an integer >= 1, got 0$/, { class: RangeError });
        await expectThrows(f, [{ numLayers: 2, hiddenSize: 2.5 }], /^hiddenSize must be an integer >= 1, got 2\.5$/, { class: RangeError });
    } },
  ],
});
