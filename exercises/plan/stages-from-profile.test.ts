import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { dataParallelCommTime, stagesFromProfile as lib } from "../../lib/plan/index.js";
import type { stagesFromProfile, RunWithoutStage, CommProfile } from "./stages-from-profile.js";

type F = typeof stagesFromProfile;
const reference: F = (o, p) => lib(o, p);
const HINT = "see the section on communication that nothing hides (/plan#communication-that-nothing-hides): which collectives each stage runs, how often, behind what; then which stages would show this profile";
const same = async (f: F, o: RunWithoutStage, p: CommProfile, hint = HINT): Promise<void> => { await expectSame(f, reference, [o, p], { hint, name: "stagesFromProfile" }); };
const EXAMPLE: RunWithoutStage = { shardParams: 1e9, dataParallel: 8, microBatches: 4, link: { alphaS: 0, bandwidthBytesPerS: 100e9 }, bytesPerElement: 2, backwardPerMicroBatchS: 0.02, busyPerMicroBatchS: 0.03 };
const profileOf = (o: RunWithoutStage, zeroStage: 0 | 1 | 2 | 3, noise = 0): CommProfile => {
  const t = dataParallelCommTime({ ...o, zeroStage });
  return { exposedS: t.exposedS * (1 + noise), hiddenS: t.hiddenS * (1 - noise) };
};
const run = fc.record({
  shardParams: fc.integer({ min: 1e6, max: 2e10 }), dataParallel: fc.integer({ min: 2, max: 512 }), microBatches: fc.integer({ min: 1, max: 64 }),
  alphaS: fc.constantFrom(0, 5e-6, 2e-5), bw: fc.constantFrom(12.5e9, 25e9, 100e9, 300e9), bytes: fc.constantFrom(2, 4),
  backward: fc.double({ min: 0, max: 3, noNaN: true }), extra: fc.double({ min: 0, max: 2, noNaN: true }),
}).map((r): RunWithoutStage => ({ shardParams: r.shardParams, dataParallel: r.dataParallel, microBatches: r.microBatches, link: { alphaS: r.alphaS, bandwidthBytesPerS: r.bw }, bytesPerElement: r.bytes, backwardPerMicroBatchS: r.backward, busyPerMicroBatchS: r.backward + r.extra }));

export default defineExercise<F>({
  id: "12.3",
  kind: "concept",
  title: "which ZeRO stage was that run?",
  chapter: "plan",
  section: "communication-that-nothing-hides",
  file: "exercises/plan/stages-from-profile.ts",
  exportName: "stagesFromProfile",
  signature: "stagesFromProfile(run: { shardParams, dataParallel, microBatches, link, bytesPerElement, backwardPerMicroBatchS, busyPerMicroBatchS }, profile: { exposedS, hiddenS }): (0 | 1 | 2 | 3)[]",
  summary:
    "A profiler's exposed and hidden data-parallel seconds per step read backwards: under which ZeRO stages, as DeepSpeed issues their collectives and overlaps them, would this run show this profile? Graded on random runs and noisy profiles, on the runs where stages cannot be told apart (one micro-batch, one rank, communication that hides entirely) and at the edge of the profiler's noise.",
  solution: ["lib/plan/stagesFromProfile.ts", "lib/plan/dataParallelCommTime.ts"],
  uses: ["lib/collectives/"],
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: (f) => same(f, EXAMPLE, { exposedS: 0.0325, hiddenS: 0.02 }) },
    { name: "random runs, each stage's profile with up to 0.9 % of noise", points: 4, run: (f) =>
        property(fc.tuple(run, fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>, fc.double({ min: -0.009, max: 0.009, noNaN: true })), ([o, z, noise]) => same(f, o, profileOf(o, z, noise)), { numRuns: 150 }) },
    { name: "stages that look alike: one micro-batch, one rank, communication that hides entirely", points: 3, run: async (f) => {
        await same(f, { ...EXAMPLE, microBatches: 1 }, profileOf({ ...EXAMPLE, microBatches: 1 }, 2), "with one micro-batch, what does stage 2 do that stage 1 does not?");
        await same(f, { ...EXAMPLE, dataParallel: 1 }, { exposedS: 0, hiddenS: 0 }, "one rank communicates nothing, whatever its stage");
        const slow = { ...EXAMPLE, backwardPerMicroBatchS: 10, busyPerMicroBatchS: 15, link: { alphaS: 0, bandwidthBytesPerS: 1e15 } };
        await same(f, slow, profileOf(slow, 0), "a link this fast: every stage's collectives take microseconds");
    } },
    { name: "at the edge of the noise: 1 % of the larger, or 10 µs", points: 2, run: async (f) => {
        const p = profileOf(EXAMPLE, 1);
        for (const k of [1.0099, 1.0101, 1 - 0.00995, 1 - 0.01005]) {
          await same(f, EXAMPLE, { exposedS: p.exposedS * k, hiddenS: p.hiddenS }, "1 % of the larger of the two numbers compared, the profile's or the stage's");
          await same(f, EXAMPLE, { exposedS: p.exposedS, hiddenS: p.hiddenS * k }, "1 % of the larger of the two numbers compared, the profile's or the stage's");
        }
        const tiny = { ...EXAMPLE, shardParams: 1e3, link: { alphaS: 1e-6, bandwidthBytesPerS: 100e9 }, microBatches: 1 };
        const q = profileOf(tiny, 1);
        for (const extra of [9.9e-6, 10.1e-6]) await same(f, tiny, { exposedS: q.exposedS + extra, hiddenS: q.hiddenS }, "10 µs when the times are tiny");
    } },
    { name: "bad input names the field", points: 1, run: async (f) => {
        await expectThrows(f, [EXAMPLE, { exposedS: -1, hiddenS: 0 }], /^profile\.exposedS must be a finite number >= 0, got -1$/, { class: RangeError });
        await expectThrows(f, [{ ...EXAMPLE, microBatches: 0 }, { exposedS: 0, hiddenS: 0 }], /^microBatches must be an integer >= 1, got 0$/, { class: RangeError });
        await expectThrows(f, [EXAMPLE, { exposedS: 0, hiddenS: Number.NaN }], /^profile\.hiddenS must be a finite number >= 0, got NaN$/, { class: RangeError });
    } },
  ],
});
