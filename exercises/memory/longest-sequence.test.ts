import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, property } from "../harness/index.js";
import { activationBytes, longestSequence as libLongestSequence } from "../../lib/memory/index.js";
import type { longestSequence, LayerStack } from "./longest-sequence.js";

type F = typeof longestSequence;
const reference: F = (o, budgetBytes) => libLongestSequence(o, budgetBytes);

const SECTION = "see the page's section \"Activations\" (src/memory.md#activations)";
const same = (f: F, o: LayerStack, budget: number, hint: string) => expectSame(f, reference, [o, budget], { name: "longestSequence", hint });
const gpt3: LayerStack = { microBatch: 1, hiddenSize: 12288, numHeads: 96, numLayers: 96, tensorParallel: 8, sequenceParallel: true, recompute: "selective" };
const GiB = 2 ** 30;
const bytesAt = (o: LayerStack, s: number) => activationBytes({ ...o, seqLen: s });

export default defineExercise({
  id: "2.3",
  kind: "concept",
  title: "the longest sequence whose activations fit",
  chapter: "memory",
  section: "activations",
  file: "exercises/memory/longest-sequence.ts",
  exportName: "longestSequence",
  signature: "longestSequence(o: LayerStack, budgetBytes: number): number",
  summary:
    "The inverse of the page's activation count (Korthikanti et al. 2022, Table 2): the longest sequence s whose stored activations for L layers fit a budget, with tensor and sequence parallelism and no, selective or full recomputation (2sbh/t with sequence parallelism). The attention term grows with s²; each layer's bytes are rounded up once; equal fits; a budget of a few hundred GiB must give an exact answer.",
  reference,
  checks: [
    { name: "the stub's example: GPT-3 175B fills 80 GiB at s = 17,133", points: 1, run: async (f) => {
        await expectCall(f, [gpt3, 80 * GiB], 17_133, { name: "longestSequence", hint: `the stub's example; ${SECTION}` });
    } },
    { name: "no recomputation: the attention term grows with s²", points: 2, run: async (f) => {
        for (const [t, sp] of [[1, false], [8, false], [8, true]] as const) {
          await same(f, { ...gpt3, tensorParallel: t, sequenceParallel: sp, recompute: "none" }, 80 * GiB, `the 5as/h term makes the bytes quadratic in s; ${SECTION}`);
        }
        await same(f, { ...gpt3, numLayers: 1, tensorParallel: 1, sequenceParallel: false, recompute: "none", microBatch: 4 }, 3 * GiB + 12345, SECTION);
    } },
    { name: "selective and full recomputation", points: 1, run: async (f) => {
        for (const recompute of ["selective", "full"] as const) for (const [t, sp] of [[1, false], [4, false], [4, true]] as const) {
          await same(f, { ...gpt3, tensorParallel: t, sequenceParallel: sp, recompute, numHeads: 96 }, 40 * GiB, `Table 2's rows for recomputation; ${SECTION}`);
        }
    } },
    { name: "full recomputation with sequence parallelism keeps 2sbh/t", points: 1, run: async (f) => {
        await same(f, { ...gpt3, recompute: "full", sequenceParallel: true, tensorParallel: 8 }, 80 * GiB, "with sequence parallelism the stored layer input is split along s over the t GPUs: 2sbh/t, not the table's 2sbh");
    } },
    { name: "exactly at the limit: equal fits, one byte less does not", points: 2, run: async (f) => {
        for (const [o, s] of [[{ ...gpt3, recompute: "none" as const }, 3000], [{ ...gpt3, numLayers: 3 }, 777], [{ ...gpt3, recompute: "full" as const, tensorParallel: 1, sequenceParallel: false }, 4096]] as const) {
          await same(f, o, bytesAt(o, s), `the activations of s = ${s} take exactly this budget: they fit (≤)`);
          await same(f, o, bytesAt(o, s) - 1, "one byte less: that s no longer fits");
        }
    } },
    { name: "one rounding, at the end of each layer", points: 1, run: async (f) => {
        // t = 3 or 5 leave fractions of a byte per layer (34sbh/t, 24sbh/t, 2sbh/t): rounding the total of the
        // L = 7 layers instead of each layer, or not at all, lands a byte or more lower
        for (const [t, a, sp, recompute] of [[3, 6, true, "none"], [3, 6, true, "selective"], [5, 10, false, "none"], [3, 6, true, "full"]] as const) {
          const o: LayerStack = { microBatch: 1, hiddenSize: 1000, numHeads: a, numLayers: 7, tensorParallel: t, sequenceParallel: sp, recompute };
          for (const s of [1, 5, 11]) {
            await same(f, o, bytesAt(o, s), "a layer's bytes are the ceiling of its exact count, taken once; L layers take L times that");
            await same(f, o, bytesAt(o, s) - 1, "a layer's bytes are the ceiling of its exact count, taken once; L layers take L times that");
          }
        }
    } },
    { name: "nothing fits; a budget of hundreds of GiB, exact", points: 1, run: async (f) => {
        await same(f, gpt3, 0, "not one token fits: 0");
        await same(f, { ...gpt3, recompute: "none" }, bytesAt({ ...gpt3, recompute: "none" }, 1) - 1, "not one token fits: 0");
        await same(f, { ...gpt3, numLayers: 1, tensorParallel: 1, sequenceParallel: false, recompute: "full" }, 2 ** 52, "a huge budget: the answer is an exact integer (a square root in floating point is off by one here)");
        await same(f, { ...gpt3, numLayers: 1, recompute: "none" }, 512 * GiB + 1, "a large budget: exact");
    } },
    { name: "random settings", points: 2, run: (f) => property(
        fc.record({ b: fc.integer({ min: 1, max: 8 }), heads: fc.integer({ min: 1, max: 16 }), d: fc.integer({ min: 1, max: 128 }), L: fc.integer({ min: 1, max: 48 }), t: fc.constantFrom(1, 2, 4),
          sp: fc.boolean(), rc: fc.constantFrom("none", "selective", "full") as fc.Arbitrary<LayerStack["recompute"]>, budget: fc.integer({ min: 0, max: 2 ** 42 }) }),
        async (r) => {
          const o: LayerStack = { microBatch: r.b, hiddenSize: 4 * r.heads * r.d, numHeads: 4 * r.heads, numLayers: r.L, tensorParallel: r.t, sequenceParallel: r.sp, recompute: r.rc };
          await same(f, o, r.budget, `compare with the cases above; ${SECTION}`);
        }, { numRuns: 150 }) },
    { name: "bad input: RangeError naming the field", points: 1, run: async (f) => {
        const hint = "the stub's contract lists each error and its message";
        for (const [o, budget, re] of [[{ ...gpt3, tensorParallel: 7 }, 1e9, /tensorParallel \(7\) must divide numHeads \(96\)/], [{ ...gpt3, numLayers: 0 }, 1e9, /numLayers/],
          [{ ...gpt3, microBatch: 1.5 }, 1e9, /microBatch/], [{ ...gpt3, hiddenSize: -1 }, 1e9, /hiddenSize/], [gpt3, -1, /budgetBytes/], [gpt3, 0.5, /budgetBytes/]] as const) {
          await expectThrows(f, [o as LayerStack, budget], re, { class: RangeError, name: "longestSequence", hint });
        }
    } },
  ],
});
