import * as fc from "fast-check";
import { defineExercise, expectSame, property } from "../harness/index.js";
import { ddpStepTimeMs as reference } from "../../lib/data-parallel/ddpStepTimeMs.js";
import type { ddpStepTimeMs } from "./ddp-step-time.js";

type F = typeof ddpStepTimeMs;
const TOL = { abs: 1e-9, rel: 1e-9 };
const same = (f: F, step: Parameters<F>[0], hint: string) => expectSame(f, (reference satisfies F), [step], { tol: TOL, hint, name: "ddpStepTimeMs" });
const b = (readyMs: number, allReduceMs: number) => ({ readyMs, allReduceMs });

export default defineExercise<F>({
  id: "5.5",
  title: "DDP step time with overlap",
  chapter: "data-parallel",
  file: "exercises/data-parallel/ddp-step-time.ts",
  exportName: "ddpStepTimeMs",
  signature: "ddpStepTimeMs(step: { forwardMs, backwardMs, buckets: {readyMs, allReduceMs}[], optimizerMs, overlap }): number",
  summary:
    "One DDP step: forward, backward, optimizer. Bucket all-reduces run one at a time in bucket order; with overlap each starts when its bucket is ready and the previous one is done, without overlap they start after backward. The optimizer waits for backward and the last all-reduce. Return the step time in ms (|Δ| ≤ 1e-9 + 1e-9·|expected|).",
  reference: (reference satisfies F),
  checks: [
    { name: "worked example with overlap", points: 1, run: async (f) => {
        await same(f, { forwardMs: 2, backwardMs: 6, buckets: [b(1, 3), b(2, 1), b(6, 1)], optimizerMs: 0.5, overlap: true }, "all-reduces run [1,4], [4,5], [6,7] after backward starts: the step is 2 + 7 + 0.5");
    } },
    { name: "without overlap", points: 1, run: async (f) => {
        await same(f, { forwardMs: 2, backwardMs: 6, buckets: [b(1, 3), b(2, 1), b(6, 1)], optimizerMs: 0.5, overlap: false }, "without overlap every all-reduce waits for the end of backward: 2 + 6 + (3 + 1 + 1) + 0.5");
    } },
    { name: "one communication stream: all-reduces queue", points: 1, run: async (f) => {
        await same(f, { forwardMs: 0, backwardMs: 4, buckets: [b(1, 5), b(2, 5)], optimizerMs: 0, overlap: true }, "the second all-reduce is ready at 2 but the stream is busy until 6: it ends at 11");
    } },
    { name: "the optimizer waits for backward too", points: 1, run: async (f) => {
        await same(f, { forwardMs: 1, backwardMs: 10, buckets: [b(1, 1)], optimizerMs: 1, overlap: true }, "communication is hidden here; the step is forward + backward + optimizer");
        await same(f, { forwardMs: 1, backwardMs: 3, buckets: [], optimizerMs: 2, overlap: false }, "no bucket: forward + backward + optimizer");
    } },
    { name: "random steps", points: 2, run: (f) =>
        property(
          fc.record({
            forwardMs: fc.integer({ min: 0, max: 50 }),
            buckets: fc.array(fc.record({ readyMs: fc.integer({ min: 0, max: 100 }), allReduceMs: fc.integer({ min: 0, max: 40 }) }), { maxLength: 10 }).map((bs) => bs.sort((x, y) => x.readyMs - y.readyMs)),
            extraBackwardMs: fc.integer({ min: 0, max: 30 }),
            optimizerMs: fc.integer({ min: 0, max: 10 }),
            overlap: fc.boolean(),
          }).map(({ extraBackwardMs, ...s }) => ({ ...s, backwardMs: Math.max(0, ...s.buckets.map((x) => x.readyMs)) + extraBackwardMs })),
          (step) => same(f, step, "start_b = max(ready_b (or backward end without overlap), end_{b−1}); step = forward + max(backward, last end) + optimizer").then(() => {}),
          { numRuns: 150 },
        ) },
  ],
});
