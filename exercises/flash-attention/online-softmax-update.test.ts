import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, fail, property } from "../harness/index.js";
import { onlineSoftmaxInit, onlineSoftmaxUpdate as reference } from "../../lib/flash-attention/onlineSoftmaxUpdate.js";
import type { onlineSoftmaxUpdate, OnlineSoftmaxState } from "./online-softmax-update.js";

const TOL = { abs: 1e-9, rel: 1e-9 };
type F = typeof onlineSoftmaxUpdate;
const same = (f: F, state: OnlineSoftmaxState, scores: number[], values: number[][], hint: string) =>
  expectSame(f, (reference satisfies F), [state, scores, values], { tol: TOL, hint, name: "onlineSoftmaxUpdate" });

export default defineExercise<F>({
  id: "10.2",
  kind: "transcription",
  title: "online softmax update",
  chapter: "flash-attention",
  section: "the-online-softmax-and-the-logsumexp",
  file: "exercises/flash-attention/online-softmax-update.ts",
  exportName: "onlineSoftmaxUpdate",
  signature: "onlineSoftmaxUpdate(state: {m, l, acc}, scores: number[], values: number[][]): {m, l, acc}",
  summary:
    "Fold a block of logits and their value rows into the running state {m, ℓ, acc} of one query row, so that the state keeps its invariant (m the largest score seen, ℓ = Σ e^{s−m}, acc = Σ e^{s−m}v over every score seen) without the earlier scores. Masked scores are −Infinity; an empty or fully masked block leaves the state unchanged (no NaN); logits of ±1e4 must work; mismatched values throw a RangeError naming values. Tolerance 1e-9 + 1e-9·|expected|.",
  reference: (reference satisfies F),
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectCall(f, [{ m: 0, l: 1, acc: [2] }, [0], [[4]]], { m: 0, l: 2, acc: [6] }, { tol: TOL, hint: "one more score equal to the running max: it adds e⁰ = 1 to ℓ and its value to acc", name: "onlineSoftmaxUpdate" });
    } },
    { name: "worked example (two blocks of one key)", points: 1, run: async (f) => {
        await same(f, onlineSoftmaxInit(1), [0], [[4]], "from the empty state: m' = 0, ℓ' = e⁰ = 1, acc' = 4");
        await same(f, { m: 0, l: 1, acc: [4] }, [Math.log(3)], [[8]], "the max grows to ln 3: the old ℓ and acc were sums of e^{s − 0}; the invariant wants e^{s − ln 3}");
    } },
    { name: "rescales ℓ and acc when the max grows", points: 2, run: async (f) => {
        await same(f, { m: 1, l: 2.5, acc: [1, -2, 0.5] }, [3, 0.5], [[1, 0, 0], [0, 1, 0]], "both ℓ and acc were sums relative to the old max; the invariant asks for sums relative to the new one (page: the online softmax)");
        await same(f, { m: 2, l: 1.25, acc: [0.5, 0.25] }, [1, 2, 4], [[1, 1], [2, 2], [3, -3]], "the largest score of the block is its last one: rescale the old state to the new max (page: the online softmax)");
    } },
    { name: "logits of ±1e4", points: 1, run: async (f) => {
        await same(f, { m: -1e4, l: 1, acc: [1] }, [1e4, 1e4 - 1], [[2], [3]], "exp(1e4) is Infinity in float64: keep every exponent relative to the running max");
        await same(f, onlineSoftmaxInit(2), [-1e4, -1e4 - 0.5], [[1, 0], [0, 1]], "exp(−1e4) is 0 in float64 and ℓ would be 0: keep every exponent relative to the running max");
    } },
    { name: "fully masked and empty blocks", points: 1, run: async (f) => {
        await same(f, onlineSoftmaxInit(2), [-Infinity, -Infinity], [[1, 2], [3, 4]], "no kept score: return the state unchanged (−∞ − (−∞) is NaN)");
        await same(f, { m: 0.5, l: 2, acc: [1] }, [-Infinity, 0.25], [[9], [1]], "a −Infinity score is a masked key: e^{−∞} = 0");
        await same(f, { m: 0.5, l: 2, acc: [1] }, [], [], "an empty block changes nothing");
    } },
    { name: "ragged blocks over random rows", points: 1, run: (f) => {
        const score = fc.oneof(fc.double({ min: -20, max: 20, noNaN: true }), fc.constantFrom(-Infinity, 1e4, -1e4));
        const row = fc.array(fc.tuple(score, fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })), { minLength: 1, maxLength: 20 });
        return property(fc.tuple(row, fc.integer({ min: 1, max: 7 })), async ([r, b]) => {
          let st = onlineSoftmaxInit(2);
          for (let k = 0; k < r.length; k += b) {
            const blk = r.slice(k, k + b);
            const scores = blk.map((x) => x[0]);
            const values = blk.map((x) => [x[1], x[2]]);
            await same(f, st, scores, values, "the state you receive is the reference's after the previous blocks; check the rescaling when the max grows and the masked scores");
            st = reference(st, scores, values);
          }
        }, { numRuns: 80 });
    } },
    { name: "rejects mismatched values (RangeError)", points: 1, run: async (f) => {
        const cases: [OnlineSoftmaxState, number[], number[][]][] = [
          [{ m: 0, l: 1, acc: [1, 2] }, [1, 2], [[1, 0]]],
          [{ m: 0, l: 1, acc: [1, 2] }, [1], [[1, 0, 3]]],
          [{ m: 0, l: 1, acc: [1, 2, 3] }, [0.5, -Infinity], [[1, 2, 3], [4, 5]]],
        ];
        for (const args of cases) {
          await expectThrows(f, args, /values/, { hint: "one value row of length d = state.acc.length per score: throw a RangeError naming values", name: "onlineSoftmaxUpdate" });
          try { await f(...args); } catch (e) {
            if ((e as Error)?.name !== "RangeError") fail(`onlineSoftmaxUpdate(${JSON.stringify(args)}) threw a ${(e as Error)?.name}, the contract asks for a RangeError`, "throw new RangeError(…)");
          }
        }
    } },
  ],
});
