import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, fail, property } from "../harness/index.js";
import { isCausalAllowed as lib } from "../../lib/flash-attention/isCausalAllowed.js";
import type { isCausalAllowed } from "./causal-mask.js";

type F = typeof isCausalAllowed;
const reference: F = (i, j, Nq, Nk) => lib(i, j, Nq, Nk, "bottom-right");

/** The whole Nq×Nk mask built from one implementation, as rows of 0/1. */
const maskOf = (f: F) => async (Nq: number, Nk: number): Promise<number[][]> => {
  const rows: number[][] = [];
  for (let i = 0; i < Nq; i++) {
    const row: number[] = [];
    for (let j = 0; j < Nk; j++) row.push((await f(i, j, Nq, Nk)) === true ? 1 : 0);
    rows.push(row);
  }
  return rows;
};
const sameMask = (f: F, Nq: number, Nk: number, hint: string) =>
  expectSame(maskOf(f), maskOf(reference), [Nq, Nk], { label: `the ${Nq}×${Nk} mask [isCausalAllowed(i, j, ${Nq}, ${Nk}) for all i, j]`, hint });

export default defineExercise<F>({
  id: "10.4",
  kind: "transcription",
  title: "causal mask for unequal lengths",
  chapter: "flash-attention",
  section: "causal-masks-when-the-lengths-differ",
  file: "exercises/flash-attention/causal-mask.ts",
  exportName: "isCausalAllowed",
  signature: "isCausalAllowed(i: number, j: number, Nq: number, Nk: number): boolean",
  summary:
    "Whether query i may attend to key j under FlashAttention's causal mask, aligned to the bottom-right corner when Nq ≠ Nk (the last query sees every key); PyTorch's is_causal aligns it top-left instead. Rows may be fully masked when Nq > Nk. Out-of-range indices throw a RangeError naming the field.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectCall(f, [0, 3, 2, 5], true, { hint: "the two queries are the last 2 of 5 tokens: query 0 is token 3", name: "isCausalAllowed" });
    } },
    { name: "README example Nq = 2, Nk = 5", points: 1, run: async (f) => { await sameMask(f, 2, 5, "the last query row sees all 5 keys (bottom-right alignment)"); } },
    { name: "README example Nq = 5, Nk = 2 (fully masked rows)", points: 1, run: async (f) => { await sameMask(f, 5, 2, "with Nq > Nk the first Nq − Nk rows see no key at all"); } },
    { name: "square masks are lower triangular", points: 1, run: async (f) => { for (const n of [1, 3, 6]) await sameMask(f, n, n, "when Nq = Nk keep j ≤ i"); } },
    { name: "random shapes", points: 3, run: (f) => property(fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 })), async ([Nq, Nk]) => {
        await sameMask(f, Nq, Nk, "random Nq, Nk from 1 to 9: which token is query i, in an Nk-token sequence?");
    }, { numRuns: 40 }) },
    { name: "rejects out-of-range indices (RangeError naming the field)", points: 1, run: async (f) => {
        const bad: [Parameters<F>, RegExp][] = [
          [[2, 0, 2, 5], /\bi\b/], [[-1, 0, 2, 5], /\bi\b/], [[0.5, 0, 2, 5], /\bi\b/],
          [[0, 5, 2, 5], /\bj\b/], [[0, 1.5, 2, 5], /\bj\b/], [[0, NaN, 2, 5], /\bj\b/],
          [[0, 0, 0, 5], /\bNq\b/], [[0, 0, Infinity, 5], /\bNq\b/], [[0, 0, 2, 2.5], /\bNk\b/], [[0, 0, 2, -3], /\bNk\b/],
        ];
        for (const [args, re] of bad) {
          await expectThrows(f, args, re, { hint: "see the contract: integers >= 1 for Nq and Nk, integers in range for i and j; the message names the field", name: "isCausalAllowed" });
          try { await f(...args); } catch (e) {
            if ((e as Error)?.name !== "RangeError") fail(`isCausalAllowed(${args.join(", ")}) threw a ${(e as Error)?.name}, the contract asks for a RangeError`, "throw new RangeError(…)");
          }
        }
    } },
  ],
});
