import * as fc from "fast-check";
import { callSafely, defineExercise, fail, firstDifference, formatValue, property, expectThrows, type AnyFunction } from "../harness/index.js";
import { ringAllReduce as libRingAllReduce } from "../../lib/collectives/ringAllReduce.js";
import { chunkBounds } from "../../lib/collectives/chunkBounds.js";
import { collectiveCost } from "../../lib/collectives/collectiveCost.js";
import type { ringAllReduce, RingMessage } from "./ring-all-reduce.js";

type F = typeof ringAllReduce;
const TOL = { abs: 1e-9, rel: 1e-9 };

/** The lib's ring all-reduce, as numbers and messages (values are multiples of 1/8: every sum is exact in float32 and float64). */
const reference: F = (buffers) => {
  const out = libRingAllReduce(buffers);
  return {
    result: out.result.map((r) => Array.from(r)),
    messages: out.events.map((e) => ({ step: e.step, from: e.sender, to: e.receiver, chunk: e.chunk, length: e.length })),
  };
};

const label = (buffers: number[][]) => `ringAllReduce(${formatValue(buffers)})`;

async function run(f: F, buffers: number[][], hint: string) {
  const out = await callSafely(f, [buffers], { label: label(buffers), hint });
  if (!out || typeof out !== "object" || !Array.isArray(out.result) || !Array.isArray(out.messages)) {
    fail(`${label(buffers)} returned ${formatValue(out)}; expected {result: number[][], messages: RingMessage[]}`, hint);
  }
  return out;
}

async function checkResult(f: F, buffers: number[][], hint: string) {
  const out = await run(f, buffers, hint);
  const want = reference(buffers).result;
  const d = firstDifference(out.result, want, { tol: TOL });
  if (d) fail(`${label(buffers)}.result${d.path}: ${d.reason}; expected ${formatValue(d.expected)}, received ${formatValue(d.received)}`, hint);
  return out;
}

/** Checks the communication pattern against the ring's definition and the lib's byte formulas. */
async function checkPattern(f: F, buffers: number[][], hint: string) {
  const P = buffers.length, n = buffers[0].length;
  const { messages } = await run(f, buffers, hint);
  const where = `${label(buffers)} (P = ${P}, n = ${n})`;
  const len = chunkBounds(n, P).map((c) => c.end - c.start);
  const totalElements = collectiveCost("ring-all-reduce", n, P, { alphaS: 0, bandwidthBytesPerS: 1 }, 1).totalBytes;
  let sum = 0;
  for (const m of messages as RingMessage[]) {
    if (![m?.step, m?.from, m?.to, m?.chunk, m?.length].every(Number.isInteger)) fail(`${where}: message ${formatValue(m)} must have integer step, from, to, chunk, length`, hint);
    if (m.to !== (m.from + 1) % P) fail(`${where}: rank ${m.from} sent to rank ${m.to}; in a ring rank r only sends to (r + 1) mod P = ${(m.from + 1) % P}`, hint);
    if (m.chunk < 0 || m.chunk >= P || m.length !== len[m.chunk]) fail(`${where}: message ${formatValue(m)} should carry chunk ${m.chunk}'s ${len[m.chunk]} numbers`, hint);
    sum += m.length;
  }
  if (sum !== totalElements) fail(`${where}: your messages carry ${sum} numbers in all; the ring sends 2(P−1)·n = ${totalElements}`, hint);
  replay(buffers, messages as RingMessage[], len, where);
  if (n >= P) {
    for (let r = 0; r < P; r++) {
      const mine = (messages as RingMessage[]).filter((m) => m.from === r);
      const steps = new Set(mine.map((m) => m.step));
      if (mine.length !== 2 * (P - 1) || steps.size !== 2 * (P - 1)) {
        fail(`${where}: rank ${r} sent ${mine.length} messages in ${steps.size} distinct steps; the ring sends exactly 2(P−1) = ${2 * (P - 1)}, one per step`, hint);
      }
      if (n % P === 0) {
        const sent = mine.reduce((s, m) => s + m.length, 0);
        if (sent !== (2 * (P - 1) * n) / P) fail(`${where}: rank ${r} sent ${sent} numbers; expected 2(P−1)/P·n = ${(2 * (P - 1) * n) / P}`, hint);
      }
    }
  }
}

/**
 * Replays the messages on copies of the buffers, as the ring does: in steps
 * 0 … P−2 the receiver adds the chunk into its copy, in steps P−1 … 2P−3 it
 * copies it; within a step every sender's chunk is read before any lands.
 * The messages must leave the elementwise sum on every rank: a list that only
 * looks like a ring (right sizes, right neighbours, wrong chunks) fails here.
 */
function replay(buffers: number[][], messages: RingMessage[], len: number[], where: string) {
  const P = buffers.length;
  const start = len.map((_, c) => len.slice(0, c).reduce((a, b) => a + b, 0));
  const b = buffers.map((x) => x.slice());
  const lastStep = 2 * (P - 1) - 1;
  for (let step = 0; step <= lastStep; step++) {
    const now = messages.filter((m) => m.step === step);
    const payloads = now.map((m) => b[m.from].slice(start[m.chunk], start[m.chunk] + len[m.chunk]));
    now.forEach((m, k) => {
      for (let i = 0; i < len[m.chunk]; i++) {
        const at = start[m.chunk] + i;
        b[m.to][at] = step < P - 1 ? b[m.to][at] + payloads[k][i] : payloads[k][i];
      }
    });
  }
  const stray = messages.find((m) => m.step < 0 || m.step > lastStep);
  if (stray) fail(`${where}: message ${formatValue(stray)} has step ${stray.step}; the ring's steps are 0 … 2P−3 = ${lastStep}`, "reduce-scatter uses steps 0 … P−2, all-gather P−1 … 2P−3");
  const want = reference(buffers).result;
  const d = firstDifference(b, want, { tol: TOL });
  if (d) {
    fail(
      `${where}: replaying your messages (add in steps 0 … P−2, copy in steps P−1 … 2P−3) leaves ${formatValue(d.received)} on ${d.path.replace(/^\[(\d+)\]\[(\d+)\]$/, "rank $1, element $2")}, not the sum ${formatValue(d.expected)}`,
      "follow one chunk around the ring on paper: which rank must send it at each step so that it collects every contribution before the all-gather? (the page's section \"Ring all-reduce, step by step\")",
    );
  }
}

/** Fails unless f(buffers) throws a RangeError whose message matches `pattern`. */
async function expectRangeError(f: F, buffers: number[][], pattern: RegExp, hint: string) {
  await expectThrows(f as AnyFunction, [buffers] as unknown[], pattern, { class: RangeError, hint, label: label(buffers) });
}

/** P buffers of n multiples of 1/8 in [−125, 125]. */
const buffersArb = (maxP: number, maxN: number) =>
  fc.integer({ min: 1, max: maxP }).chain((P) =>
    fc.integer({ min: 0, max: maxN }).chain((n) => fc.array(fc.array(fc.integer({ min: -1000, max: 1000 }).map((k) => k / 8), { minLength: n, maxLength: n }), { minLength: P, maxLength: P })),
  );

export default defineExercise<F>({
  id: "5.2",
  title: "ring all-reduce",
  chapter: "data-parallel",
  solution: ["lib/collectives/ringAllReduce.ts", "lib/collectives/ringPhases.ts", "lib/collectives/chunkBounds.ts", "lib/collectives/collectiveCost.ts", "lib/data-parallel/"],
  file: "exercises/data-parallel/ring-all-reduce.ts",
  exportName: "ringAllReduce",
  signature: "ringAllReduce(buffers: number[][]): { result: number[][]; messages: {step, from, to, chunk, length}[] }",
  section: "ring-all-reduce-step-by-step",
  summary:
    "Sum P buffers with the ring: cut them into P chunks like numpy.array_split, run P−1 reduce-scatter steps then P−1 all-gather steps in which every rank sends one chunk to rank (r+1) mod P, and return every rank's sum and the messages you sent. Graded on the sums (|Δ| ≤ 1e-9 + 1e-9·|expected|) and on the pattern: 2(P−1) messages per rank, one per step, to the next rank, each of its chunk's length, 2(P−1)/P·n numbers per rank, and replaying your messages (add, then copy) must leave the sum on every rank. Messages for empty chunks (n < P) may be recorded with length 0 or left out.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await checkResult(f, [[1, 2], [10, 20]], "every rank ends with the elementwise sum of all buffers");
    } },
    { name: "worked example (P = 3, n = 6)", points: 1, run: async (f) => {
        await checkResult(f, [[1, 2, 3, 4, 5, 6], [10, 20, 30, 40, 50, 60], [100, 200, 300, 400, 500, 600]], "every rank ends with the elementwise sum of all buffers");
    } },
    { name: "n not a multiple of P, n < P, n = 0, P = 1", points: 2, run: async (f) => {
        await checkResult(f, [[1, 2, 3, 4, 5], [1, 1, 1, 1, 1], [2, 2, 2, 2, 2]], "5 numbers over 3 ranks: chunks of 2, 2 and 1 (the first n mod P chunks get one more)");
        await checkResult(f, [[1, 2], [3, 4], [5, 6], [7, 8]], "2 numbers over 4 ranks: two chunks are empty");
        await checkResult(f, [[], []], "empty buffers: nothing to sum");
        await checkResult(f, [[1.5, -2]], "a single rank already holds the sum");
    } },
    { name: "2(P−1) messages per rank, one per step, to rank r+1", points: 2, run: async (f) => {
        await checkPattern(f, [[1, 2, 3, 4, 5, 6, 7, 8], [1, 1, 1, 1, 1, 1, 1, 1], [0, 1, 0, 1, 0, 1, 0, 1], [2, 2, 2, 2, 2, 2, 2, 2]], "each step, every rank sends exactly one chunk to (r + 1) mod P; never the whole buffer, never to another rank");
        await checkPattern(f, [[5]], "P = 1: no message at all");
    } },
    { name: "message sizes: 2(P−1)/P of the buffer per rank", points: 1, run: async (f) => {
        await checkPattern(f, [[1, 2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2, 1], [0, 0, 0, 0, 0, 0, 1]], "chunk c has its array_split length; a message carries exactly one chunk");
        await checkPattern(f, Array.from({ length: 5 }, (_, r) => Array.from({ length: 20 }, (_, i) => r - i / 4)), "with P dividing n, each rank sends 2(P−1) chunks of n/P numbers");
    } },
    { name: "no buffer, or buffers of different lengths, throw a RangeError", points: 1, run: async (f) => {
        await expectRangeError(f, [], /numRanks|one buffer per rank/, "the stub's contract: a collective needs at least one rank");
        await expectRangeError(f, [[1, 2, 3], [1, 2, 3], [4, 5]], /buffers\[2\] has length 2, expected 3/, "the stub's contract: every rank's buffer has the same length");
    } },
    { name: "random P ≤ 16 and n ≤ 200", points: 2, run: (f) =>
        property(buffersArb(16, 200), async (buffers) => {
          await checkResult(f, buffers, "compare with the elementwise sum; check your chunk boundaries for n not divisible by P");
          await checkPattern(f, buffers, "every message goes to the next rank and carries one chunk");
        }, { numRuns: 60 }) },
  ],
});
