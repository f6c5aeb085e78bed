import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { modelFlopsUtilization as lib } from "../../lib/plan/index.js";
import type { modelFlopsUtilization } from "./mfu.js";

type F = typeof modelFlopsUtilization;
const reference: F = (t, p, n, peak) => lib(t, p, n, peak);
const HINT = "see the section on model FLOP utilisation (/plan#model-flop-utilisation): which FLOPs count (recomputation is not the model's work: counting it gives HFU), and over whose peak";

export default defineExercise<F>({
  id: "12.1",
  title: "model-FLOP utilisation",
  chapter: "plan",
  section: "model-flop-utilisation",
  file: "exercises/plan/mfu.ts",
  exportName: "modelFlopsUtilization",
  signature: "modelFlopsUtilization(tokensPerSecond: number, params: number, numGpus: number, peakFlopsPerGpu: number): number",
  summary:
    "The FLOP/s a model needs at a measured throughput over the peak of all its GPUs, as a fraction. Count the model's FLOPs as chapter 2 does; recomputation is not the model's work. Bad input: RangeErrors that name the argument.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectSame(f, reference, [66523, 64862437376, 64, 989.5e12], { tol: { rel: 1e-12 }, hint: HINT, name: "modelFlopsUtilization" });
    } },
    { name: "random runs", points: 2, run: (f) =>
        property(fc.tuple(fc.double({ min: 1, max: 1e8, noNaN: true }), fc.double({ min: 1e6, max: 2e12, noNaN: true }), fc.integer({ min: 1, max: 16384 }), fc.constantFrom(312e12, 989.5e12, 125e12)),
          async ([t, p, n, peak]) => { await expectSame(f, reference, [t, p, n, peak], { tol: { rel: 1e-12 }, hint: HINT, name: "modelFlopsUtilization" }); }, { numRuns: 100 }) },
    { name: "bad input names the argument", points: 1, run: async (f) => {
        await expectThrows(f, [0, 1e9, 8, 312e12], /^tokensPerSecond must be a finite number > 0, got 0$/, { class: RangeError });
        await expectThrows(f, [100, Number.NaN, 8, 312e12], /^params must be a finite number > 0, got NaN$/, { class: RangeError });
        await expectThrows(f, [100, 1e9, 1.5, 312e12], /^numGpus must be an integer >= 1, got 1.5$/, { class: RangeError });
        await expectThrows(f, [100, 1e9, 8, Infinity], /^peakFlopsPerGpu must be a finite number > 0, got Infinity$/, { class: RangeError });
    } },
  ],
});
