import * as fc from "fast-check";
import { callSafely, defineExercise, expectThrows, fail, property, type AnyFunction } from "../harness/index.js";
import { optimalSegments, simulateCheckpointing, layerCosts, tradeoff } from "../../lib/accumulation-checkpointing/index.js";
import { createModel } from "../../lib/nn/index.js";
import type { chooseSegments, LayerCost } from "./choose-segments.js";

const reference: typeof chooseSegments = (costs, limit) => optimalSegments(costs, limit);

/** Grades one call: the answer must be a segmentation, fit the budget, and recompute as little as the reference's. */
async function expectOptimal(f: typeof chooseSegments, costs: LayerCost[], limit: number, hint: string): Promise<void> {
  const shown = costs.length <= 12 ? costs.map((c) => `${c.inputBytes}/${c.savedBytes}/${c.flops}`).join(", ") : `${costs.slice(0, 4).map((c) => `${c.inputBytes}/${c.savedBytes}/${c.flops}`).join(", ")}, … (${costs.length} layers)`;
  const call = `chooseSegments(costs, ${limit}) with costs (inputBytes/savedBytes/flops per layer) [${shown}]`;
  const got = await callSafely(f, [costs, limit], { hint, name: "chooseSegments", label: call });
  const n = costs.length;
  if (!Array.isArray(got) || got.some((s) => !Number.isInteger(s) || s < 1) || got.reduce((a, b) => a + b, 0) !== n) {
    fail(`${call} returned ${JSON.stringify(got)}, which is not a list of positive lengths summing to ${n}`, hint);
  }
  const mine = simulateCheckpointing(costs, got).result;
  const best = simulateCheckpointing(costs, reference(costs, limit)).result;
  if (mine.peakBytes > limit) fail(`${call} returned [${got.join(", ")}], which peaks at ${mine.peakBytes} bytes, over the limit ${limit}`, hint);
  if (mine.recomputeFlops > best.recomputeFlops) {
    fail(`${call} returned [${got.join(", ")}]: it fits (peak ${mine.peakBytes} bytes) but recomputes ${mine.recomputeFlops} FLOPs; the best recomputes ${best.recomputeFlops}`, hint);
  }
}

/** The call throws a RangeError whose message matches `pattern` (class and message, as the contract names both). */
async function expectRangeError<F extends AnyFunction>(f: F, args: Parameters<F>, pattern: RegExp, hint: string): Promise<void> {
  await expectThrows(f as AnyFunction, args as unknown[], pattern, { class: RangeError, hint });
}

const c = { inputBytes: 1, savedBytes: 2, flops: 10 };
const model = createModel({ vocabSize: 60, contextLength: 8, embedDim: 8, width: 32, hiddenDim: 64, numBlocks: 6, seed: 1 });
const modelCosts = layerCosts(model.layers, 128, "fp16");

export default defineExercise({
  id: "3.2",
  kind: "concept",
  title: "choose checkpoint segments under a memory limit",
  chapter: "accumulation-checkpointing",
  file: "exercises/accumulation-checkpointing/choose-segments.ts",
  exportName: "chooseSegments",
  signature: "chooseSegments(costs: {inputBytes, savedBytes, flops}[], memoryLimitBytes: number): number[]",
  section: "how-many-segments",
  summary:
    "Cut the layers into segments (all but the last checkpointed) so that the peak activation memory fits the limit with the least recomputation. Any optimal segmentation earns the points; the grader checks it is valid, fits, and recomputes no more than the best one. No fit: throw a RangeError.",
  reference,
  checks: [
    { name: "no checkpointing when everything fits", points: 1, run: async (f) => {
        await expectOptimal(f, [c, c, c, c], 8, "if the plain run fits, recompute nothing: one segment");
        await expectOptimal(f, [c, c, c, c], Infinity, "an unlimited budget (Infinity) fits everything: recompute nothing");
    } },
    { name: "worked example: 4 equal layers, 5 bytes", points: 2, run: async (f) => {
        await expectOptimal(f, [c, c, c, c], 5, "[2, 2] peaks at 5 with 20 FLOPs; [1, 1, 1, 1] also fits but recomputes 30");
        await expectOptimal(f, [c, c, c, c], 4, "at 4 bytes only segmentations that keep few checkpoints AND a short last segment fit");
    } },
    { name: "the course model at every budget", points: 2, run: async (f) => {
        const peaks = [...new Set(tradeoff(modelCosts).map((p) => p.peakBytes))].sort((a, b) => a - b);
        for (const limit of [peaks[0], peaks[Math.floor(peaks.length / 3)], peaks[Math.floor((2 * peaks.length) / 3)], peaks[peaks.length - 1]]) {
          await expectOptimal(f, modelCosts, limit, "layers differ here (the embedding's input is int32 ids; the blocks save more than their input): the peak of the section \"How many segments?\" has two terms; compare all segmentations");
        }
    } },
    { name: "impossible budget throws", points: 1, run: async (f) => {
        await expectRangeError(f, [[c, c, c, c], 3], /fits/, "no segmentation peaks below 4 bytes here: a RangeError saying nothing fits");
    } },
    { name: "bad budgets throw RangeError", points: 1, run: async (f) => {
        await expectRangeError(f, [[c, c, c, c], -1], /memoryLimitBytes/, "a negative budget is not a budget (RangeError naming memoryLimitBytes)");
        await expectRangeError(f, [[c, c, c, c], NaN], /memoryLimitBytes/, "NaN is not a budget: every comparison with it is false");
        await expectRangeError(f, [[c, c, c, c], "5" as unknown as number], /memoryLimitBytes/, "a string is not a number of bytes, even if it looks like one");
    } },
    { name: "exactly at the limit: a peak equal to the budget fits", points: 1, run: async (f) => {
        for (const costs of [[c, c, c, c], modelCosts]) {
          for (const p of new Set(tradeoff(costs).map((x) => x.peakBytes))) await expectOptimal(f, costs, p, "a peak equal to the budget fits (≤): the segmentation that reaches it exactly is allowed");
        }
    } },
    { name: "two thousand layers (every segmentation cannot be tried)", points: 2, run: async (f) => {
        // a deep model split into its ops: ops of three kinds repeat, with a few large ones; budgets from the plain peak down
        const costs = Array.from({ length: 2000 }, (_, i) => {
          const inputBytes = [4, 4, 16][i % 3]! + (i % 97 === 0 ? 40 : 0);
          return { inputBytes, savedBytes: inputBytes + [8, 0, 24][i % 3]! + (i % 41), flops: 10 + (i % 7) * 3 };
        });
        const plain = simulateCheckpointing(costs, [costs.length]).result.peakBytes;
        for (const frac of [1, 0.5, 0.1, 0.03]) await expectOptimal(f, costs, Math.floor(plain * frac), "2^1999 segmentations: find what the optimum looks like (which layers are recomputed, what the checkpoints before them cost) and build it layer by layer");
    } },
    { name: "random layer costs", points: 2, run: (f) => property(
        fc.record({
          layers: fc.array(fc.record({ inputBytes: fc.integer({ min: 1, max: 40 }), extra: fc.integer({ min: 0, max: 60 }), flops: fc.integer({ min: 1, max: 100 }) }), { minLength: 1, maxLength: 8 }),
          frac: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        async ({ layers, frac }) => {
          const costs = layers.map((l) => ({ inputBytes: l.inputBytes, savedBytes: l.inputBytes + l.extra, flops: l.flops }));
          const peaks = tradeoff(costs).map((p) => p.peakBytes);
          const lo = Math.min(...peaks), hi = Math.max(...peaks);
          await expectOptimal(f, costs, Math.round(lo + frac * (hi - lo)), "check both terms of the peak: end of forward, and each segment's recompute");
        },
        { numRuns: 40 },
    ) },
  ],
});
