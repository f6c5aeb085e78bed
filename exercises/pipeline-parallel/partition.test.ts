import * as fc from "fast-check";
import { defineExercise, expectThrows, property, fail, callSafely } from "../harness/index.js";
import { balancePartition } from "../../lib/pipeline-parallel/index.js";
import type { balanceStages } from "./partition.js";

type F = typeof balanceStages;
const reference: F = (costs, p) => balancePartition(costs, p).bounds;
const maxStage = (costs: number[], b: number[]) => Math.max(...b.slice(0, -1).map((x, s) => costs.slice(x, b[s + 1]).reduce((a, c) => a + c, 0)));

async function graded(f: F, costs: number[], p: number, hint: string): Promise<void> {
  const b = await callSafely(f, [costs, p], { name: "balanceStages", hint });
  const call = `balanceStages(${JSON.stringify(costs)}, ${p})`;
  if (!Array.isArray(b) || b.length !== p + 1) fail(`${call} returned ${JSON.stringify(b)}: expected p + 1 = ${p + 1} bounds`, hint);
  if (b[0] !== 0 || b[p] !== costs.length) fail(`${call} returned ${JSON.stringify(b)}: bounds must start at 0 and end at ${costs.length}`, hint);
  for (let s = 0; s < p; s++) if (!Number.isInteger(b[s + 1]) || b[s + 1] <= b[s]) fail(`${call} returned ${JSON.stringify(b)}: stage ${s} is empty or bounds decrease`, "every stage needs at least one layer");
  const want = maxStage(costs, reference(costs, p));
  const got = maxStage(costs, b);
  if (got > want) fail(`${call} returned ${JSON.stringify(b)}: its slowest stage costs ${got}, a split with ${want} exists`, hint);
}

/** expectThrows, and the error's class must be RangeError (the contract names it). */
async function expectRangeError<G extends (...a: never[]) => unknown>(f: G, args: Parameters<G>, pattern: RegExp, hint?: string): Promise<void> {
  await expectThrows(f as never, args as never, pattern, { class: RangeError, hint: hint ?? "the stub's contract names the error class" });
}

export default defineExercise<F>({
  id: "7.6",
  title: "balance pipeline stages",
  chapter: "pipeline-parallel",
  section: "unequal-stages",
  file: "exercises/pipeline-parallel/partition.ts",
  exportName: "balanceStages",
  signature: "balanceStages(costs: number[], p: number): number[]",
  summary:
    "Split per-layer costs into p contiguous, non-empty stages minimizing the largest stage sum; return the p + 1 bounds. Any optimal split earns full marks. Bad p or costs: RangeErrors naming the field.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await graded(f, [1, 1, 1, 3], 2, "the heavy last layer deserves a stage of its own");
    } },
    { name: "optimal on random costs", points: 2, run: (f) =>
        property(fc.tuple(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 14 }), fc.integer({ min: 1, max: 14 })), ([costs, p0]) =>
          graded(f, costs, Math.min(p0, costs.length), "an even number of layers per stage, or filling up to the average, is not optimal in general; see the section on unequal stages"), { numRuns: 150 }) },
    { name: "edge cases: p = L, p = 1, zero costs, one huge layer", points: 1, run: async (f) => {
        await graded(f, [3, 1, 4, 1, 5], 5, "one layer per stage");
        await graded(f, [3, 1, 4], 1, "one stage holds everything");
        await graded(f, [0, 0, 0, 0], 3, "zero-cost layers still need a stage each");
        await graded(f, [1, 1, 100, 1, 1, 1], 3, "the slowest stage can never beat the heaviest layer");
    } },
    { name: "bad input names the field", points: 1, run: async (f) => {
        await expectRangeError(f, [[1, 2, 3], 4], /^p must be <= the number of layers \(3\): every stage needs a layer, got p = 4$/);
        await expectRangeError(f, [[1, 2, 3], 0], /^p must be an integer >= 1, got 0$/);
        await expectRangeError(f, [[1, -1], 1], /^costs\[1\] must be a finite number >= 0, got -1$/);
    } },
  ],
});
