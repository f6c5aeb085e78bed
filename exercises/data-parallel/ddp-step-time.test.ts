import * as fc from "fast-check";
import { defineExercise, expectSame, property, expectThrows, type AnyFunction } from "../harness/index.js";
import { ddpStepTimeMs as reference } from "../../lib/data-parallel/ddpStepTimeMs.js";
import type { ddpStepTimeMs } from "./ddp-step-time.js";

type F = typeof ddpStepTimeMs;
const TOL = { abs: 1e-9, rel: 1e-9 };
const same = (f: F, step: Parameters<F>[0], hint: string) => expectSame(f, (reference satisfies F), [step], { tol: TOL, hint, name: "ddpStepTimeMs" });
const b = (readyMs: number, allReduceMs: number) => ({ readyMs, allReduceMs });
const SECTION = "the page's section \"DataParallel versus DistributedDataParallel\"";
/** Fails unless f(step) throws a RangeError whose message matches `pattern`. */
async function expectRangeError(f: F, step: Parameters<F>[0], pattern: RegExp, hint: string) {
  await expectThrows(f as AnyFunction, [step] as unknown[], pattern, { class: RangeError, hint });
}
const ok = { forwardMs: 1, backwardMs: 4, buckets: [b(2, 1), b(4, 1)], optimizerMs: 1, overlap: true };

export default defineExercise<F>({
  id: "5.5",
  kind: "concept",
  title: "DDP step time with overlap",
  chapter: "data-parallel",
  file: "exercises/data-parallel/ddp-step-time.ts",
  exportName: "ddpStepTimeMs",
  signature: "ddpStepTimeMs(step: { forwardMs, backwardMs, buckets: {readyMs, allReduceMs}[], optimizerMs, overlap }): number",
  section: "data-parallel-versus-distributed-data-parallel",
  summary:
    "One DDP step: forward, backward, optimizer. Bucket all-reduces share one communication stream and run in bucket order (not necessarily the order they become ready); with overlap a bucket may start once it is ready, without overlap not before backward ends; the optimizer needs every all-reduce. Return the step time in ms (|Δ| ≤ 1e-9 + 1e-9·|expected|). Bad durations, or a bucket ready after backward, throw a RangeError naming the field.",
  reference: (reference satisfies F),
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await same(f, { forwardMs: 1, backwardMs: 4, buckets: [b(2, 3)], optimizerMs: 1, overlap: true }, `draw the two streams as on the timelines of ${SECTION}`);
    } },
    { name: "worked example with overlap", points: 1, run: async (f) => {
        await same(f, { forwardMs: 2, backwardMs: 6, buckets: [b(1, 3), b(2, 1), b(6, 1)], optimizerMs: 0.5, overlap: true }, `draw the communication stream: when can each bucket start? (${SECTION})`);
    } },
    { name: "without overlap", points: 1, run: async (f) => {
        await same(f, { forwardMs: 2, backwardMs: 6, buckets: [b(1, 3), b(2, 1), b(6, 1)], optimizerMs: 0.5, overlap: false }, "without overlap, when may the first all-reduce start?");
    } },
    { name: "one communication stream: all-reduces queue", points: 1, run: async (f) => {
        await same(f, { forwardMs: 0, backwardMs: 4, buckets: [b(1, 5), b(2, 5)], optimizerMs: 0, overlap: true }, "one stream: can the second all-reduce start while the first is still running?");
    } },
    { name: "the optimizer waits for backward too", points: 1, run: async (f) => {
        await same(f, { forwardMs: 1, backwardMs: 10, buckets: [b(1, 1)], optimizerMs: 1, overlap: true }, "communication is hidden here; the step is forward + backward + optimizer");
        await same(f, { forwardMs: 1, backwardMs: 3, buckets: [], optimizerMs: 2, overlap: false }, "no bucket: forward + backward + optimizer");
    } },
    { name: "buckets not in ready order", points: 3, run: async (f) => {
        await same(f, { forwardMs: 1, backwardMs: 8, buckets: [b(8, 2), b(1, 3)], optimizerMs: 1, overlap: true }, "buckets are all-reduced in bucket order, even when a later bucket is ready first");
        await same(f, { forwardMs: 0, backwardMs: 10, buckets: [b(3, 4), b(9, 1), b(2, 2)], optimizerMs: 0, overlap: true }, "do not sort the buckets: the list is DDP's all-reduce order");
    } },
    { name: "bad durations throw a RangeError naming the field", points: 1, run: async (f) => {
        const h = "the stub's contract lists each error and its message";
        await expectRangeError(f, { ...ok, forwardMs: -1 }, /forwardMs/, h);
        await expectRangeError(f, { ...ok, optimizerMs: Number.NaN }, /optimizerMs/, h);
        await expectRangeError(f, { ...ok, backwardMs: Infinity }, /backwardMs/, "Infinity is not a duration");
        await expectRangeError(f, { ...ok, buckets: [b(2, 1), b(3, -1)] }, /buckets\[1\]\.allReduceMs/, h);
        await expectRangeError(f, { ...ok, buckets: [b(-1, 1)] }, /buckets\[0\]\.readyMs/, h);
        await expectRangeError(f, { ...ok, forwardMs: "1" as unknown as number }, /forwardMs/, "a string is not a duration");
    } },
    { name: "a bucket ready after backward is rejected", points: 1, run: async (f) => {
        await expectRangeError(f, { ...ok, buckets: [b(2, 1), b(5, 1)] }, /buckets\[1\]\.readyMs must be <= backwardMs/, "the stub's precondition: every bucket is ready by the end of backward");
        await expectRangeError(f, { ...ok, overlap: false, buckets: [b(4.5, 1)] }, /buckets\[0\]\.readyMs must be <= backwardMs/, "the precondition holds with or without overlap");
        await same(f, { ...ok, buckets: [b(4, 1)] }, "ready exactly at the end of backward is allowed");
    } },
    { name: "random steps", points: 2, run: (f) =>
        property(
          fc.record({
            forwardMs: fc.integer({ min: 0, max: 50 }),
            buckets: fc.array(fc.record({ readyMs: fc.integer({ min: 0, max: 100 }), allReduceMs: fc.integer({ min: 0, max: 40 }) }), { maxLength: 10 }).map((bs) => (bs.length % 2 === 0 ? bs.sort((x, y) => x.readyMs - y.readyMs) : bs)),
            extraBackwardMs: fc.integer({ min: 0, max: 30 }),
            optimizerMs: fc.integer({ min: 0, max: 10 }),
            overlap: fc.boolean(),
          }).map(({ extraBackwardMs, ...s }) => ({ ...s, backwardMs: Math.max(0, ...s.buckets.map((x) => x.readyMs)) + extraBackwardMs })),
          (step) => same(f, step, `compare your communication stream with the timelines of ${SECTION}`).then(() => {}),
          { numRuns: 150 },
        ) },
  ],
});
