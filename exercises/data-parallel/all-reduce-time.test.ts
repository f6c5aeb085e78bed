import * as fc from "fast-check";
import { defineExercise, expectSame, property, expectThrows, type AnyFunction } from "../harness/index.js";
import { collectiveCost } from "../../lib/collectives/collectiveCost.js";
import type { allReduceTimeS } from "./all-reduce-time.js";

type F = typeof allReduceTimeS;
const TOL = { abs: 1e-15, rel: 1e-9 };
const reference: F = (algorithm, n, P, cost) => {
  if (algorithm !== "ring" && algorithm !== "parameter-server") throw new RangeError(`algorithm must be "ring" or "parameter-server", got ${JSON.stringify(algorithm)}`);
  return collectiveCost(algorithm === "ring" ? "ring-all-reduce" : "parameter-server", n, P, cost).timeS;
};
const SECTION = "the page's section \"Bytes per rank and time against P\"";
/** Fails unless f(...args) throws a RangeError whose message matches `pattern`. */
async function expectRangeError(f: F, args: Parameters<F>, pattern: RegExp, hint: string) {
  await expectThrows(f as AnyFunction, args as unknown[], pattern, { class: RangeError, hint });
}
const same = (f: F, args: Parameters<F>, hint: string) => expectSame(f, reference, args, { tol: TOL, hint, name: "allReduceTimeS" });
const c = { alphaS: 5e-6, bandwidthBytesPerS: 25e9 };

export default defineExercise<F>({
  id: "5.1",
  kind: "concept",
  title: "all-reduce time under the α-β model",
  chapter: "data-parallel",
  solution: ["lib/collectives/collectiveCost.ts", "lib/data-parallel/"],
  file: "exercises/data-parallel/all-reduce-time.ts",
  exportName: "allReduceTimeS",
  signature: 'allReduceTimeS(algorithm: "ring" | "parameter-server", numElements: number, numRanks: number, cost: {alphaS, bandwidthBytesPerS, serverBandwidthBytesPerS?}): number',
  section: "bytes-per-rank-and-time-against-p",
  summary:
    "Time in seconds that the chapter's simulated cluster takes to all-reduce n float32 values over P ranks, with the ring or through a parameter server (rank 0, its own link bandwidth). Full-duplex links; a step lasts α plus the longest time any one link needs for its bytes in that step. n = 0 or P = 1 takes 0 s; bad counts, links or algorithm names throw a RangeError naming the field. Tolerance |Δ| ≤ 1e-15 + 1e-9·|expected|.",
  reference,
  checks: [
    { name: "the stub's example: the ring", points: 1, run: async (f) => {
        await same(f, ["ring", 8, 4, { alphaS: 1, bandwidthBytesPerS: 8 }], `count the ring's steps and the bytes on a link in each (${SECTION})`);
    } },
    { name: "worked example: the parameter server", points: 1, run: async (f) => {
        await same(f, ["parameter-server", 1000, 5, c], "what does the server's link carry in the push step, and in the pull step? (\"The parameter server, beside it\")");
        await same(f, ["parameter-server", 1000, 5, { ...c, serverBandwidthBytesPerS: 100e9 }], "a step lasts as long as its slowest link: with a fast server, is the server's link still the slowest?");
    } },
    { name: "n not a multiple of P, n < P, n = 0, P = 1", points: 3, run: async (f) => {
        await same(f, ["ring", 10, 4, c], "the chunks are not all the same size: which message does a step wait for?");
        await same(f, ["ring", 3, 8, c], "n < P: some chunks are empty, but does the ring take fewer steps?");
        await same(f, ["ring", 0, 8, c], "nothing to send: 0 s");
        await same(f, ["parameter-server", 100, 1, c], "one rank: nothing to send, 0 s");
    } },
    { name: "bad counts throw a RangeError naming the field", points: 3, run: async (f) => {
        const h = "the stub's contract lists each error and its message";
        await expectRangeError(f, ["ring", 10, 0, c], /numRanks/, h);
        await expectRangeError(f, ["ring", 10, -2, c], /numRanks/, h);
        await expectRangeError(f, ["ring", 10, 2.5, c], /numRanks/, h);
        await expectRangeError(f, ["ring", 10, "4" as unknown as number, c], /numRanks/, "a string is not a rank count, even \"4\"");
        await expectRangeError(f, ["ring", -1, 2, c], /numElements/, h);
        await expectRangeError(f, ["ring", 1.5, 2, c], /numElements/, h);
        await expectRangeError(f, ["parameter-server", Infinity, 2, c], /numElements/, "Infinity is not an integer count");
        await expectRangeError(f, ["tree" as "ring", 10, 2, c], /algorithm/, "only \"ring\" and \"parameter-server\" are defined");
    } },
    { name: "bad links throw a RangeError naming the field", points: 1, run: async (f) => {
        const h = "the stub's contract lists each error and its message";
        await expectRangeError(f, ["ring", 10, 2, { alphaS: -1, bandwidthBytesPerS: 1e9 }], /alphaS/, h);
        await expectRangeError(f, ["ring", 10, 2, { alphaS: 0, bandwidthBytesPerS: 0 }], /bandwidthBytesPerS/, h);
        await expectRangeError(f, ["parameter-server", 10, 2, { alphaS: 0, bandwidthBytesPerS: -1 }], /bandwidthBytesPerS/, h);
        await expectRangeError(f, ["ring", 10, 2, { alphaS: 0, bandwidthBytesPerS: Infinity }], /bandwidthBytesPerS/, "an infinite bandwidth is not a link");
        await expectRangeError(f, ["parameter-server", 10, 2, { alphaS: 0, bandwidthBytesPerS: 1e9, serverBandwidthBytesPerS: -5 }], /serverBandwidthBytesPerS/, h);
        await expectRangeError(f, ["ring", 10, 2, { alphaS: "5e-6" as unknown as number, bandwidthBytesPerS: 1e9 }], /alphaS/, "a string is not a latency");
    } },
    { name: "random sizes and clusters", points: 3, run: (f) =>
        property(
          fc.tuple(fc.constantFrom("ring" as const, "parameter-server" as const), fc.integer({ min: 0, max: 1 << 24 }), fc.integer({ min: 1, max: 1024 }),
            fc.record({ alphaS: fc.constantFrom(0, 1e-6, 5e-6, 2e-5), bandwidthBytesPerS: fc.constantFrom(1e9, 12.5e9, 25e9, 300e9), serverBandwidthBytesPerS: fc.constantFrom(1e9, 25e9, 100e9) })),
          (args) => same(f, args, `compare your step count and your slowest link per step with ${SECTION}`).then(() => {}),
          { numRuns: 150 },
        ) },
  ],
});
