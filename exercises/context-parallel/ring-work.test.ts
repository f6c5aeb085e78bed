import * as fc from "fast-check";
import { callSafely, defineExercise, expectSame, expectThrows, fail, property } from "../harness/index.js";
import { ringWork as libRingWork, sequenceShards, CP_LAYOUTS } from "../../lib/context-parallel/index.js";
import { mulberry32 } from "../../lib/random.js";
import type { ringWork } from "./ring-work.js";

type F = typeof ringWork;
const reference: F = (shards, causal) => libRingWork(shards, causal);
const SEE = "see the section “Causal masks and load balance”";

/** C shards of n positions each, dealt from a random permutation of 0 … C·n − 1 (not sorted within a shard). */
function shuffled(C: number, n: number, seed: number): number[][] {
  const rng = mulberry32(seed), perm = Array.from({ length: C * n }, (_, i) => i);
  for (let i = perm.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [perm[i], perm[j]] = [perm[j], perm[i]]; }
  return Array.from({ length: C }, (_, r) => perm.slice(r * n, (r + 1) * n));
}

/** expectSame for a 2²⁰-token sequence, with plain loops (the harness's general comparison takes seconds at this size). */
async function sameLarge(f: F, shards: number[][], label: string, hint: string): Promise<void> {
  const want = reference(shards, true);
  const before = shards.map((s) => s.slice());
  const got = await callSafely(f, [shards, true], { label, hint, mutatesArguments: true });
  shards.forEach((s, r) => { if (s.length !== before[r].length || s.some((p, i) => p !== before[r][i])) fail(`${label} modified shards[${r}]; leave the shards unchanged`, hint); });
  if (!Array.isArray(got) || got.length !== want.length) fail(`${label} returned ${Array.isArray(got) ? `${got.length} rows` : typeof got}; expected ${want.length} rows of ${want.length} counts`, hint);
  want.forEach((row, r) => row.forEach((w, s) => { if (got[r]?.[s] !== w) fail(`${label}: work[${r}][${s}] is ${got[r]?.[s]}, expected ${w}`, hint); }));
}

export default defineExercise<F>({
  id: "13.3",
  title: "the work of every rank at every step of the ring",
  chapter: "context-parallel",
  section: "causal-masks-and-load-balance",
  file: "exercises/context-parallel/ring-work.ts",
  exportName: "ringWork",
  signature: "ringWork(shards: number[][], causal: boolean): number[][]",
  summary:
    "For any placement of a sequence's tokens on C ranks, the number of (query, key) pairs each rank computes at each step of the ring, with or without a causal mask: which block a rank holds at step s, and how many of its pairs the mask keeps, counted without visiting them (a 2²⁰-token sequence). Random placements against the lib, C = 1, one token per rank; RangeError for shards that do not hold every position once.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectSame(f, reference, [[[0, 1], [2, 3]], true], { hint: `at step 0 a rank holds its own block; ${SEE}` });
    } },
    { name: "which block a rank holds at step s", points: 2, run: async (f) => {
        const hint = `rank r sends to rank r + 1: after s steps it holds the block that started s ranks before it; ${SEE}`;
        for (const C of [3, 4, 5]) await expectSame(f, reference, [sequenceShards(2 * C * 3, C, "contiguous"), true], { hint });
    } },
    { name: "any placement of the tokens, causal", points: 2, run: (f) => property(fc.record({ C: fc.integer({ min: 1, max: 6 }), n: fc.integer({ min: 1, max: 12 }), seed: fc.integer({ min: 0, max: 1e9 }) }), async ({ C, n, seed }) => {
        await expectSame(f, reference, [shuffled(C, n, seed), true], { hint: `a key is kept when its position is ≤ the query's (a token sees itself); the shards are not sorted; ${SEE}` });
    }, { numRuns: 80, seed: 1303 }) },
    { name: "no mask: every block is n²", points: 1, run: async (f) => {
        for (const layout of CP_LAYOUTS) await expectSame(f, reference, [sequenceShards(24, 3, layout), false], { hint: SEE });
        await expectSame(f, reference, [shuffled(4, 5, 3), false], { hint: SEE });
    } },
    { name: "C = 1, and one token per rank", points: 1, run: async (f) => {
        await expectSame(f, reference, [[[2, 0, 1]], true], { hint: `one rank holds its own block only; ${SEE}` });
        await expectSame(f, reference, [[[3], [1], [0], [2]], true], { hint: SEE });
        await expectSame(f, reference, [[[0]], false], { hint: SEE });
    } },
    { name: "a 2²⁰-token sequence", points: 1, run: async (f) => {
        const N = 2 ** 20;
        for (const [shards, what] of [[sequenceShards(N, 2, "zigzag"), "zig-zag"], [shuffled(2, N / 2, 5), "shuffled"]] as [number[][], string][]) {
          await sameLarge(f, shards, `ringWork(2 ${what} shards of 524,288 positions each, true)`, `sort each rank's positions once, then count the keys at or before each query by walking both lists together; ${SEE}`);
        }
    } },
    { name: "shards that do not hold every position once throw a RangeError", points: 1, run: async (f) => {
        const hint = "check the shards before counting: equal sizes, every position 0 … N−1 exactly once";
        await expectThrows(f, [[[0, 1], [1, 2]], true], /position 1|shards/, { class: RangeError, hint });
        await expectThrows(f, [[[0, 1], [2]], true], /shards/, { class: RangeError, hint });
        await expectThrows(f, [[[0, 5], [1, 2]], false], /position 5|shards|5/, { class: RangeError, hint });
    } },
  ],
});
