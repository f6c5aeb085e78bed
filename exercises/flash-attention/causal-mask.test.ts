import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
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
  id: "10.1",
  title: "causal mask for unequal lengths",
  chapter: "flash-attention",
  file: "exercises/flash-attention/causal-mask.ts",
  exportName: "isCausalAllowed",
  signature: "isCausalAllowed(i: number, j: number, Nq: number, Nk: number): boolean",
  summary:
    "Whether query i may attend to key j under FlashAttention's causal mask, aligned to the bottom-right corner when Nq ≠ Nk (the last query sees every key); PyTorch's is_causal aligns it top-left instead. Rows may be fully masked when Nq > Nk. Out-of-range indices throw a RangeError naming the field.",
  reference,
  checks: [
    { name: "README example Nq = 2, Nk = 5", points: 1, run: async (f) => { await sameMask(f, 2, 5, "the last query row sees all 5 keys: shift the diagonal by Nk − Nq"); } },
    { name: "README example Nq = 5, Nk = 2 (fully masked rows)", points: 1, run: async (f) => { await sameMask(f, 5, 2, "with Nq > Nk the first Nq − Nk rows see no key at all"); } },
    { name: "square masks are lower triangular", points: 1, run: async (f) => { for (const n of [1, 3, 6]) await sameMask(f, n, n, "when Nq = Nk keep j ≤ i"); } },
    { name: "random shapes", points: 2, run: (f) => property(fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 })), async ([Nq, Nk]) => {
        await sameMask(f, Nq, Nk, "keep (i, j) iff j ≤ i + (Nk − Nq)");
    }, { numRuns: 40 }) },
    { name: "rejects out-of-range indices", points: 1, run: async (f) => {
        await expectThrows(f, [2, 0, 2, 5], /\bi\b/, { hint: "i must be an integer in [0, Nq): throw new RangeError(`i must be an integer in [0, ${Nq}), got ${i}`)" });
        await expectThrows(f, [0, 5, 2, 5], /\bj\b/, { hint: "j must be an integer in [0, Nk)" });
        await expectThrows(f, [0, 0, 0, 5], /Nq/, { hint: "Nq must be an integer >= 1" });
        await expectThrows(f, [0, 1.5, 2, 5], /\bj\b/, { hint: "indices must be integers" });
    } },
  ],
});
