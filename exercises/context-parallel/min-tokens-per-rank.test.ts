import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { minTokensPerRank as libMin } from "../../lib/context-parallel/index.js";
import type { minTokensPerRank, OverlapOptions } from "./min-tokens-per-rank.js";

type F = typeof minTokensPerRank;
const reference: F = (o) => libMin(o);
const OVERLAP = "see the section “Overlapping the ring with compute”";
const CAUSAL = "see the section “Causal masks and load balance”";
const a100: OverlapOptions = { hiddenSize: 4096, numHeads: 32, numKvHeads: 32, microBatch: 1, bytesPerElement: 2, deviceFlopsPerS: 312e12, cost: { alphaS: 0, bandwidthBytesPerS: 300e9 }, cpSize: 8, layout: "contiguous", causal: false };

export default defineExercise<F>({
  id: "13.4",
  kind: "concept",
  title: "the fewest tokens per rank that hide the ring",
  chapter: "context-parallel",
  section: "overlapping-the-ring-with-compute",
  file: "exercises/context-parallel/min-tokens-per-rank.ts",
  exportName: "minTokensPerRank",
  signature: "minTokensPerRank(o: {hiddenSize, numHeads, numKvHeads, microBatch, bytesPerElement, deviceFlopsPerS, cost, cpSize, layout, causal}): number",
  summary:
    "The inverse problem of the ring's overlap: the smallest number of tokens per rank for which every rank's block of attention outlasts the transfer of the next key/value block, with latency, grouped-query attention, a causal mask under each layout (the least work of any rank at any step), a valid split, and Infinity when no size works. Liu et al.'s c ≥ F/B as the published check; random models and links against the lib; RangeError naming a bad field.",
  reference,
  checks: [
    { name: "Ring Attention's c ≥ F/B (no mask, no latency)", points: 1, run: async (f) => {
        const hint = `Liu et al. compare 4·c²·d FLOPs with 4·c·d bytes; the tie c = F/B counts as hidden; ${OVERLAP}`;
        await expectSame(f, reference, [a100], { hint });
        await expectSame(f, reference, [{ ...a100, cost: { alphaS: 0, bandwidthBytesPerS: 25e9 } }], { hint });
    } },
    { name: "latency and grouped-query attention", points: 2, run: async (f) => {
        const hint = `with α > 0 the condition is quadratic in c; with fewer KV heads each block is smaller; ${OVERLAP}`;
        await expectSame(f, reference, [{ ...a100, cost: { alphaS: 5e-6, bandwidthBytesPerS: 300e9 } }], { hint });
        await expectSame(f, reference, [{ ...a100, numKvHeads: 8, cost: { alphaS: 5e-6, bandwidthBytesPerS: 50e9 } }], { hint });
        await expectSame(f, reference, [{ ...a100, numKvHeads: 8, microBatch: 4, cost: { alphaS: 2e-5, bandwidthBytesPerS: 12.5e9 } }], { hint });
    } },
    { name: "causal masks: zig-zag and striped", points: 3, run: async (f) => {
        const hint = `the rank with the least kept pairs at a step decides: work out each layout's table for a step ≤ C − 2 (the step 0 block is not the least); ${CAUSAL}`;
        for (const layout of ["zigzag", "striped"] as const) for (const cpSize of [2, 3, 8]) {
          await expectSame(f, reference, [{ ...a100, causal: true, layout, cpSize, cost: { alphaS: 5e-6, bandwidthBytesPerS: 300e9 } }], { hint });
        }
        // C = 2: step 0 is the only step, and its block is the rank's own, c²/2 + c/2 pairs under either layout.
        // Here c + 1 ≥ F·e/B = 1001: c²/2 alone would give 1002 instead of 1000.
        for (const layout of ["zigzag", "striped"] as const) {
          await expectSame(f, reference, [{ ...a100, causal: true, layout, cpSize: 2, deviceFlopsPerS: 100.1e12, cost: { alphaS: 0, bandwidthBytesPerS: 200e9 } }], { hint: `with C = 2 the only step is step 0: how many pairs does a rank's own block keep? ${CAUSAL}` });
        }
    } },
    { name: "contiguous causal shards: 2 ranks, and never beyond", points: 2, run: async (f) => {
        const hint = `with contiguous shards some rank has nothing to compute at some step once C ≥ 3; ${CAUSAL}`;
        for (const cpSize of [2, 3, 16]) await expectSame(f, reference, [{ ...a100, causal: true, layout: "contiguous", cpSize }], { hint });
    } },
    { name: "C = 1, and zig-zag's even split", points: 1, run: async (f) => {
        const hint = "one rank sends nothing; the zig-zag layout cuts the sequence into 2·C chunks";
        for (const layout of ["contiguous", "zigzag", "striped"] as const) await expectSame(f, reference, [{ ...a100, causal: true, layout, cpSize: 1 }], { hint });
        await expectSame(f, reference, [{ ...a100, deviceFlopsPerS: 3e11, causal: true, layout: "zigzag", cpSize: 4, cost: { alphaS: 0, bandwidthBytesPerS: 100e9 } }], { hint });
    } },
    { name: "random models and links", points: 2, run: (f) => property(fc.record({
        kv: fc.constantFrom(1, 2, 4, 8), b: fc.integer({ min: 1, max: 4 }), e: fc.constantFrom(0.5, 1, 2, 4), F: fc.double({ min: 1e12, max: 1e15, noNaN: true }),
        alphaS: fc.constantFrom(0, 1e-6, 5e-6, 3e-5), B: fc.double({ min: 1e9, max: 1e12, noNaN: true }), cpSize: fc.integer({ min: 1, max: 16 }),
        layout: fc.constantFrom("contiguous" as const, "zigzag" as const, "striped" as const), causal: fc.boolean(),
      }), async ({ kv, b, e, F, alphaS, B, cpSize, layout, causal }) => {
        await expectSame(f, reference, [{ hiddenSize: 4096, numHeads: 32, numKvHeads: kv, microBatch: b, bytesPerElement: e, deviceFlopsPerS: F, cost: { alphaS, bandwidthBytesPerS: B }, cpSize, layout, causal }], { hint: `${OVERLAP}; ${CAUSAL}` });
      }, { numRuns: 60, seed: 1304 }).then(() => property(fc.record({
        // C = 2, every layout: the only step is step 0, the rank's own block (the diagonal counts)
        kv: fc.constantFrom(8, 32), e: fc.constantFrom(0.5, 1, 2), flopsPerByte: fc.integer({ min: 50, max: 5000 }),
        alphaS: fc.constantFrom(0, 1e-6), B: fc.double({ min: 1e10, max: 1e12, noNaN: true }),
        layout: fc.constantFrom("contiguous" as const, "zigzag" as const, "striped" as const), causal: fc.boolean(),
      }), async ({ kv, e, flopsPerByte, alphaS, B, layout, causal }) => {
        const F = flopsPerByte * B;
        await expectSame(f, reference, [{ hiddenSize: 4096, numHeads: 32, numKvHeads: kv, microBatch: 1, bytesPerElement: e, deviceFlopsPerS: F, cost: { alphaS, bandwidthBytesPerS: B }, cpSize: 2, layout, causal }], { hint: `C = 2: the only step is step 0, each rank's own block; ${CAUSAL}` });
      }, { numRuns: 40, seed: 1342 })) },
    { name: "bad inputs throw a RangeError naming the field", points: 1, run: async (f) => {
        const hint = "check every field before computing: sizes are integers ≥ 1, rates finite and > 0";
        await expectThrows(f, [{ ...a100, deviceFlopsPerS: 0 }], /deviceFlopsPerS/, { class: RangeError, hint });
        await expectThrows(f, [{ ...a100, bytesPerElement: 0 }], /bytesPerElement/, { class: RangeError, hint });
        await expectThrows(f, [{ ...a100, cpSize: 0 }], /cpSize/, { class: RangeError, hint });
        await expectThrows(f, [{ ...a100, numKvHeads: 1.5 }], /numKvHeads/, { class: RangeError, hint });
        await expectThrows(f, [{ ...a100, layout: "ring" as never }], /layout/, { class: RangeError, hint });
        await expectThrows(f, [{ ...a100, cost: { alphaS: -1, bandwidthBytesPerS: 1e9 } }], /alphaS/, { class: RangeError, hint });
    } },
  ],
});
