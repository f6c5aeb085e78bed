import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property, type AnyFunction } from "../harness/index.js";
import { paddedVocabSize, tpSizesForPaddedVocab as lib } from "../../lib/tensor-parallel/index.js";
import type { tpSizesForPaddedVocab } from "./vocab-tp-sizes.js";

type F = typeof tpSizesForPaddedVocab;
const reference: F = (v, rows, m) => lib(v, rows, m);
const HINT = "see the section “Which T fit a model” (src/tensor-parallel.md#which-t-fit-a-model)";
const same = (f: F, args: Parameters<F>, hint = HINT) => expectSame(f, reference, args, { hint, name: "tpSizesForPaddedVocab" });

export default defineExercise<F>({
  id: "6.4",
  kind: "concept",
  title: "which T was this checkpoint saved with?",
  chapter: "tensor-parallel",
  file: "exercises/tensor-parallel/vocab-tp-sizes.ts",
  exportName: "tpSizesForPaddedVocab",
  signature: "tpSizesForPaddedVocab(vocabSize: number, paddedRows: number, makeVocabSizeDivisibleBy?: number): number[]",
  summary:
    "A Megatron checkpoint's embedding has more rows than the tokenizer has tokens, because Megatron pads the vocabulary to a multiple of 128·T. Read the padding backwards: every tensor-parallel size T that pads the vocabulary to exactly those rows, ascending. Several T, some far larger than any server, give the same rows.",
  reference,
  section: "which-t-fit-a-model",
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => { await same(f, [32000, 32256], `the stub's example; ${HINT}`); } },
    { name: "GPT-2's 50,304 rows: T = 1 is not the only answer", points: 2, run: async (f) => {
        await same(f, [50257, 50304], "the padding to a multiple of 128·T can land on the same rows for several T, large ones too");
    } },
    { name: "a vocabulary that needs no padding; rows it cannot have", points: 2, run: async (f) => {
        for (const [v, rows] of [[32000, 32000], [32000, 31999], [32000, 32001], [50257, 50176], [128, 128], [1, 128]] as const) await same(f, [v, rows], "rows below the vocabulary, or not a multiple of the multiple, come from no T");
    } },
    { name: "another multiple, and 1", points: 2, run: async (f) => {
        for (const [v, rows, m] of [[100, 192, 64], [50257, 50257, 1], [50257, 50260, 1], [1000, 1024, 256]] as const) await same(f, [v, rows, m], "makeVocabSizeDivisibleBy changes the multiple: m·T");
    } },
    { name: "random checkpoints", points: 3, run: (f) => property(
        fc.tuple(fc.integer({ min: 1, max: 300000 }), fc.integer({ min: 1, max: 64 }), fc.option(fc.constantFrom(1, 8, 64, 128, 256), { nil: undefined })),
        async ([v, T, m]) => { await same(f, [v, paddedVocabSize(v, T, m), m], `the T that wrote it must be in the list, with every other that gives the same rows; ${HINT}`); }, { numRuns: 150 }) },
    { name: "bad input: RangeError naming the field", points: 1, run: async (f) => {
        for (const [args, re] of [[[0, 128], /vocabSize/], [[100, 0], /paddedRows/], [[100, 128, 0], /makeVocabSizeDivisibleBy/], [[1.5, 128], /vocabSize/]] as const) {
          await expectThrows(f as AnyFunction, args as unknown as unknown[], re, { class: RangeError, name: "tpSizesForPaddedVocab", hint: "the stub's contract lists the errors" });
        }
    } },
  ],
});
