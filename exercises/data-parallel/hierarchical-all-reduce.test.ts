import * as fc from "fast-check";
import { callSafely, defineExercise, expectThrows, fail, firstDifference, formatValue, property } from "../harness/index.js";
import { hierarchicalAllReduce as libHierarchical, replayMessages, type ReduceMessage } from "../../lib/collectives/hierarchicalAllReduce.js";
import type { hierarchicalAllReduce } from "./hierarchical-all-reduce.js";

type F = typeof hierarchicalAllReduce;
const reference: F = (buffers, G) => libHierarchical(buffers, G);

const SECTION = "reduce-scatter-and-all-gather";
const see = `see the page's sections "Ring all-reduce, step by step" and "Reduce-scatter and all-gather" (src/data-parallel.md#${SECTION})`;
const TOL = { abs: 1e-9, rel: 1e-9 };
const label = (buffers: number[][], G: number) => `hierarchicalAllReduce(${buffers.length <= 8 && buffers[0]!.length <= 8 ? formatValue(buffers) : `${buffers.length} buffers of ${buffers[0]?.length ?? 0}`}, ${G})`;
const sums = (buffers: number[][]) => (buffers[0] ?? []).map((_, i) => buffers.reduce((s, b) => s + b[i]!, 0));

/** Calls f and checks the shape of its answer. */
async function answer(f: F, buffers: number[][], G: number, hint: string) {
  const r = await callSafely(f, [buffers, G], { hint, label: label(buffers, G) });
  if (!r || !Array.isArray(r.result) || !Array.isArray(r.messages)) fail(`${label(buffers, G)} returned ${formatValue(r)}: expected { result, messages }`, hint);
  return r;
}

/** The sums on every rank. */
async function checkSums(f: F, buffers: number[][], G: number, hint: string) {
  const r = await answer(f, buffers, G, hint);
  const want = buffers.map(() => sums(buffers));
  const d = firstDifference(r.result, want, { tol: TOL });
  if (d) fail(`${label(buffers, G)}: result${d.path} is ${formatValue(d.received)}, expected ${formatValue(d.expected)} (${d.reason})`, hint);
}

/** The messages: in range, replaying to the sums, within the traffic and step bounds. */
async function checkMessages(f: F, buffers: number[][], G: number, hint: string) {
  const r = await answer(f, buffers, G, hint);
  const P = buffers.length, N = P / G, n = buffers[0]!.length;
  const msgs = r.messages as ReduceMessage[];
  let replayed: number[][];
  try { replayed = replayMessages(buffers, msgs); } catch (err) { fail(`${label(buffers, G)}: ${(err as Error).message}`, hint); }
  const d = firstDifference(replayed, buffers.map(() => sums(buffers)), { tol: TOL });
  if (d) fail(`${label(buffers, G)}: replaying your ${msgs.length} messages leaves ${formatValue(d.received)} at ${d.path}, expected ${formatValue(d.expected)}: a message adds where it should copy, reads a range not yet complete, or goes missing`, hint);
  const inter = new Array<number>(P).fill(0), intra = new Array<number>(P).fill(0);
  for (const m of msgs) (Math.floor(m.from / G) === Math.floor(m.to / G) ? intra : inter)[m.from]! += m.length;
  const share = Math.ceil(n / G), interMax = 2 * (N - 1) * Math.ceil(share / N), intraMax = 2 * (G - 1) * share;
  const bad = inter.findIndex((x) => x > interMax);
  if (bad >= 0) fail(`${label(buffers, G)}: rank ${bad} sends ${inter[bad]} numbers to other nodes, more than 2(N−1)·⌈⌈n/G⌉/N⌉ = ${interMax}`, "over the network each GPU should send only its node's share of 1/G of the buffer, reduced across nodes");
  const badIn = intra.findIndex((x) => x > intraMax);
  if (badIn >= 0) fail(`${label(buffers, G)}: rank ${badIn} sends ${intra[badIn]} numbers inside its node, more than 2(G−1)·⌈n/G⌉ = ${intraMax}`, hint);
  const steps = 2 * (G - 1) + 2 * (N - 1), late = msgs.find((m) => m.step >= steps);
  if (late) fail(`${label(buffers, G)}: a message at step ${late.step}, but a ring inside the nodes and one across them need only steps 0 … ${steps - 1}`, hint);
}

/** P = N·G buffers of n multiples of 1/8. */
const clusterArb = fc.record({ N: fc.integer({ min: 1, max: 4 }), G: fc.integer({ min: 1, max: 4 }), n: fc.integer({ min: 0, max: 60 }) }).chain(({ N, G, n }) =>
  fc.array(fc.array(fc.integer({ min: -1000, max: 1000 }).map((k) => k / 8), { minLength: n, maxLength: n }), { minLength: N * G, maxLength: N * G }).map((buffers) => ({ buffers, G })));
const ramp = (P: number, n: number) => Array.from({ length: P }, (_, r) => Array.from({ length: n }, (_, i) => ((r * 13 + i * 7) % 23) - 11));

export default defineExercise<F>({
  id: "5.2",
  kind: "concept",
  title: "all-reduce across nodes: rings inside and between them",
  chapter: "data-parallel",
  solution: ["lib/collectives/hierarchicalAllReduce.ts", "lib/collectives/ringAllReduce.ts", "lib/collectives/ringPhases.ts", "lib/collectives/chunkBounds.ts", "lib/data-parallel/"],
  file: "exercises/data-parallel/hierarchical-all-reduce.ts",
  exportName: "hierarchicalAllReduce",
  signature: "hierarchicalAllReduce(buffers: number[][], gpusPerNode: number): { result: number[][]; messages: {step, from, to, offset, length, op}[] }",
  section: SECTION,
  summary:
    "The page's ring on a cluster of N nodes of G GPUs: leave the sum on every rank while each GPU sends as little as possible over the network (a flat ring makes the boundary GPUs send 2(P−1)/P of the buffer). Graded on the sums, on your message log replayed step by step (offset, length and add or copy of every message), and on each rank's traffic across and inside nodes and the number of steps.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await checkSums(f, [[1, 2], [3, 4], [5, 6], [7, 8]], 2, `two nodes of two GPUs; ${see}`);
        await checkMessages(f, [[1, 2], [3, 4], [5, 6], [7, 8]], 2, `two nodes of two GPUs; ${see}`);
    } },
    { name: "the sums on every rank", points: 2, run: async (f) => {
        for (const [P, G, n] of [[8, 4, 16], [6, 2, 9], [6, 3, 5], [4, 4, 7], [4, 1, 7]] as const) await checkSums(f, ramp(P, n), G, see);
    } },
    { name: "your messages replay to the sums", points: 2, run: async (f) => {
        for (const [P, G, n] of [[8, 4, 16], [6, 2, 9], [6, 3, 5], [9, 3, 30]] as const) await checkMessages(f, ramp(P, n), G, `each message's offset and length, and whether the receiver adds or copies, must make the sum when played step by step; ${see}`);
    } },
    { name: "each GPU's share over the network: 2(N−1)/N of n/G", points: 2, run: async (f) => {
        await checkMessages(f, ramp(32, 256), 8, "4 nodes of 8 GPUs: reduce inside the node first, so that each GPU sends only 1/8 of the buffer across nodes");
        await checkMessages(f, ramp(12, 50), 4, "n not divisible by G or by N: the shares are array_split's");
    } },
    { name: "one node, one GPU per node, n < P, n = 0, P = 1", points: 2, run: async (f) => {
        for (const [P, G, n] of [[4, 4, 10], [4, 1, 10], [8, 2, 3], [4, 2, 0], [1, 1, 3]] as const) {
          await checkSums(f, ramp(P, n), G, "the edge cases: a single node is one ring, one GPU per node is one ring across nodes");
          await checkMessages(f, ramp(P, n), G, "the edge cases: a single node is one ring, one GPU per node is one ring across nodes");
        }
    } },
    { name: "bad input: RangeError naming the problem", points: 1, run: async (f) => {
        const hint = "the stub's contract lists the errors";
        await expectThrows(f, [[], 1], /one buffer per rank/, { class: RangeError, hint, label: "hierarchicalAllReduce([], 1)" });
        await expectThrows(f, [[[1, 2], [3]], 1], /buffers\[1\] has length 1, expected 2/, { class: RangeError, hint, label: "hierarchicalAllReduce([[1, 2], [3]], 1)" });
        await expectThrows(f, [ramp(6, 3), 4], /gpusPerNode/, { class: RangeError, hint, label: "hierarchicalAllReduce(6 buffers, 4)" });
    } },
    { name: "random clusters", points: 2, run: (f) => property(clusterArb, async ({ buffers, G }) => {
        await checkSums(f, buffers, G, see);
        await checkMessages(f, buffers, G, see);
    }, { numRuns: 60 }) },
  ],
});
