import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { collectiveCost } from "../../lib/collectives/collectiveCost.js";
import type { allReduceTimeS } from "./all-reduce-time.js";

type F = typeof allReduceTimeS;
const TOL = { abs: 1e-15, rel: 1e-9 };
const reference: F = (algorithm, n, P, cost) => collectiveCost(algorithm === "ring" ? "ring-all-reduce" : "parameter-server", n, P, cost).timeS;
const same = (f: F, args: Parameters<F>, hint: string) => expectSame(f, reference, args, { tol: TOL, hint, name: "allReduceTimeS" });
const c = { alphaS: 5e-6, bandwidthBytesPerS: 25e9 };

export default defineExercise<F>({
  id: "5.1",
  title: "all-reduce time under the α-β model",
  chapter: "data-parallel",
  file: "exercises/data-parallel/all-reduce-time.ts",
  exportName: "allReduceTimeS",
  signature: 'allReduceTimeS(algorithm: "ring" | "parameter-server", numElements: number, numRanks: number, cost: {alphaS, bandwidthBytesPerS, serverBandwidthBytesPerS?}): number',
  summary:
    "Time in seconds to all-reduce n float32 values over P ranks when a step costs α + (bytes on the busiest link)/B: the ring takes 2(P−1) steps of one ⌈n/P⌉-value chunk; the parameter server takes 2 steps in which its link carries P−1 buffers (at the server's bandwidth). n = 0 or P = 1 takes 0 s; bad P, n, α or bandwidths throw a RangeError.",
  reference,
  checks: [
    { name: "worked example: the ring", points: 1, run: async (f) => {
        await same(f, ["ring", 8, 4, { alphaS: 1, bandwidthBytesPerS: 8 }], "2(P−1) = 6 steps, each α + 2 values · 4 bytes / B = 1 + 1");
    } },
    { name: "worked example: the parameter server", points: 1, run: async (f) => {
        await same(f, ["parameter-server", 1000, 5, c], "2 steps; the server's link carries (P−1) · 4000 bytes in each");
        await same(f, ["parameter-server", 1000, 5, { ...c, serverBandwidthBytesPerS: 100e9 }], "a faster server link: each step lasts α + the slower of (P−1)·S/B_server and S/B");
    } },
    { name: "n not a multiple of P, n < P, n = 0, P = 1", points: 2, run: async (f) => {
        await same(f, ["ring", 10, 4, c], "chunks of 3, 3, 2, 2 values: every step waits for a 3-value chunk (⌈n/P⌉)");
        await same(f, ["ring", 3, 8, c], "n < P: the largest chunk has 1 value; still 2(P−1) steps");
        await same(f, ["ring", 0, 8, c], "nothing to send: 0 s");
        await same(f, ["parameter-server", 100, 1, c], "one rank: nothing to send, 0 s");
    } },
    { name: "bad input throws a RangeError", points: 1, run: async (f) => {
        await expectThrows(f, ["ring", 10, 0, c], undefined, { hint: "P = 0 is not a cluster: throw a RangeError naming numRanks" });
        await expectThrows(f, ["ring", -1, 2, c], undefined, { hint: "a negative length: throw" });
        await expectThrows(f, ["parameter-server", 10, 2, { alphaS: 0, bandwidthBytesPerS: -1 }], undefined, { hint: "a negative bandwidth: throw" });
    } },
    { name: "random sizes and clusters", points: 2, run: (f) =>
        property(
          fc.tuple(fc.constantFrom("ring" as const, "parameter-server" as const), fc.integer({ min: 0, max: 1 << 24 }), fc.integer({ min: 1, max: 1024 }),
            fc.record({ alphaS: fc.constantFrom(0, 1e-6, 5e-6, 2e-5), bandwidthBytesPerS: fc.constantFrom(1e9, 12.5e9, 25e9, 300e9), serverBandwidthBytesPerS: fc.constantFrom(1e9, 25e9, 100e9) })),
          (args) => same(f, args, "ring: 2(P−1)(α + ⌈n/P⌉·4/B); server: 2(α + max((P−1)·4n/B_server, 4n/B))").then(() => {}),
          { numRuns: 150 },
        ) },
  ],
});
