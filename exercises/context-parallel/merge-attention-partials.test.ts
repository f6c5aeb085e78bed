import * as fc from "fast-check";
import { callSafely, defineExercise, expectSame, expectThrows, fail, property } from "../harness/index.js";
import { mergeAttentionPartials as libMerge, blockAttention } from "../../lib/context-parallel/index.js";
import { randomTensor } from "../../lib/flash-attention/index.js";
import type { mergeAttentionPartials, AttentionPartial } from "./merge-attention-partials.js";

type F = typeof mergeAttentionPartials;
const reference: F = (a, b) => libMerge(a, b);
const TOL = { abs: 1e-6, rel: 1e-6 };
const SEE = "see the section “Merging two partial results”";
const part = (O: number[], lse: number[]): AttentionPartial => ({ O: Float32Array.from(O), lse: Float32Array.from(lse) });

/** Two blocks of keys of random attention, as ring attention produces them (causal, so some rows see nothing in a block). */
const blocksArb = fc.record({ rows: fc.integer({ min: 1, max: 6 }), n1: fc.integer({ min: 1, max: 5 }), n2: fc.integer({ min: 1, max: 5 }), d: fc.integer({ min: 1, max: 4 }), amp: fc.constantFrom(1, 4, 30), seed: fc.integer({ min: 0, max: 1e6 }) })
  .map(({ rows, n1, n2, d, amp, seed }) => {
    const q = randomTensor(rows * d, seed, amp), k = randomTensor((n1 + n2) * d, seed + 1, amp), v = randomTensor((n1 + n2) * d, seed + 2);
    const qPos = Array.from({ length: rows }, (_, i) => 2 * i), kPos = Array.from({ length: n1 + n2 }, (_, j) => j);
    const blk = (a: number, b: number) => blockAttention(q, k.slice(a * d, b * d), v.slice(a * d, b * d), { B: 1, H: 1, nq: rows, nk: b - a, d }, qPos, kPos.slice(a, b), { causal: true });
    return [blk(0, n1), blk(n1, n1 + n2)] as [AttentionPartial, AttentionPartial];
  });

/** expectSame for a million rows, with plain loops (the harness's general comparison takes seconds at this size). */
async function sameLarge(f: F, a: AttentionPartial, b: AttentionPartial, label: string, hint: string): Promise<void> {
  const want = reference(a, b);
  const before = [a.O, a.lse, b.O, b.lse].map((x) => x.slice());
  const got = await callSafely(f, [a, b], { label, hint, mutatesArguments: true });
  [a.O, a.lse, b.O, b.lse].forEach((x, i) => { for (let j = 0; j < x.length; j++) if (!Object.is(x[j], before[i][j])) fail(`${label} modified its argument #${i < 2 ? 1 : 2} (.${i % 2 ? "lse" : "O"}[${j}]); leave inputs unchanged and return new arrays`, hint); });
  for (const key of ["O", "lse"] as const) {
    const g = got?.[key], w = want[key];
    if (!(g instanceof Float32Array) || g.length !== w.length) fail(`${label}: .${key} should be a Float32Array of ${w.length} numbers, got ${g === undefined ? "nothing" : `${g?.constructor?.name} of ${(g as ArrayLike<number>)?.length}`}`, hint);
    for (let i = 0; i < w.length; i++) {
      if (w[i] === -Infinity ? g[i] !== -Infinity : !(Math.abs(g[i] - w[i]) <= TOL.abs + TOL.rel * Math.abs(w[i]))) fail(`${label}: .${key}[${i}] is ${g[i]}, expected ${w[i]} (|Δ| ≤ 1e-6 + 1e-6·|expected|)`, hint);
    }
  }
}

export default defineExercise<F>({
  id: "13.1",
  title: "merge two partial attention results",
  chapter: "context-parallel",
  section: "merging-two-partial-results",
  file: "exercises/context-parallel/merge-attention-partials.ts",
  exportName: "mergeAttentionPartials",
  signature: "mergeAttentionPartials(a: {O, lse}, b: {O, lse}): {O, lse}",
  summary:
    "From the attention of the same query rows over two disjoint blocks of keys (each its output O and its logsumexp), return the attention over both blocks. Rows whose keys in a block were all masked (logsumexp −∞), rows empty in both blocks (O = 0, lse = −∞, never NaN), logsumexps of ±1e4, a million rows; random blocks of real attention against the lib. RangeError when the shapes differ.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectSame(f, reference, [part([4], [0]), part([8], [Math.log(3)])], { tol: TOL, hint: `the weights of the two parts are their shares of the total exp-sum; ${SEE}` });
    } },
    { name: "a part that saw only masked keys (lse = −∞), and rows empty in both", points: 2, run: async (f) => {
        const hint = `a part with logsumexp −∞ holds no key: it weighs 0, and e^(−∞ − (−∞)) is NaN: handle the empty rows before any exp; ${SEE}`;
        await expectSame(f, reference, [part([0, 0, 1, 2], [-Infinity, 0.5]), part([5, -1, 3, 4], [2, -Infinity])], { tol: TOL, hint });
        await expectSame(f, reference, [part([0, 0, 7, 7], [-Infinity, 1]), part([0, 0, 3, 5], [-Infinity, 1])], { tol: TOL, hint });
        await expectSame(f, reference, [part([0], [-Infinity]), part([0], [-Infinity])], { tol: TOL, hint });
    } },
    { name: "logsumexps of ±1e4 (exp overflows)", points: 1, run: async (f) => {
        await expectSame(f, reference, [part([1, 3, 2], [1e4, -1e4, 1e4]), part([3, 5, 6], [1e4, -1e4, 1e4 - 2])], { tol: TOL, hint: `only differences of logsumexps are safe to exponentiate; ${SEE}` });
    } },
    { name: "random blocks of attention", points: 1, run: (f) => property(blocksArb, async ([a, b]) => {
        await expectSame(f, reference, [a, b], { tol: TOL, hint: SEE });
        await expectSame(f, reference, [b, a], { tol: TOL, hint: `the merge does not depend on the order of the blocks; ${SEE}` });
    }, { numRuns: 60, seed: 1301 }) },
    { name: "a million rows", points: 1, run: async (f) => {
        const rows = 1_000_000;
        const lseA = randomTensor(rows, 7, 20), lseB = randomTensor(rows, 8, 20);
        for (let i = 0; i < rows; i += 3) lseA[i] = -Infinity;
        await sameLarge(f, { O: randomTensor(rows, 9), lse: lseA }, { O: randomTensor(rows, 10), lse: lseB }, "mergeAttentionPartials(a, b) with 1,000,000 rows of d = 1 (every third row of a empty)", `one row at a time: spreading a million values into Math.max(...) or a recursion runs out of stack; ${SEE}`);
    } },
    { name: "shapes that do not match throw a RangeError", points: 1, run: async (f) => {
        await expectThrows(f, [part([1, 2, 3], [0, 0, 0]), part([1, 2], [0, 0])], /^b\.lse must have 3 rows like a\.lse, got 2$/, { class: RangeError, hint: "compare the row counts first" });
        await expectThrows(f, [part([1, 2, 3, 4], [0, 0]), part([1, 2, 3, 4, 5, 6], [0, 0])], /^a\.O must have rows·d elements/, { class: RangeError, hint: "a.O and b.O must hold the same whole number of rows" });
    } },
  ],
});
