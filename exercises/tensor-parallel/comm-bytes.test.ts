import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property, type AnyFunction } from "../harness/index.js";
import { tpCommPerLayer } from "../../lib/tensor-parallel/index.js";
import type { tpBytesPerRank } from "./comm-bytes.js";

type F = typeof tpBytesPerRank;
const reference: F = (o) => {
  const rows = tpCommPerLayer({ ...o, regions: 2 });
  const sum = (pass: string) => rows.filter((r) => r.pass === pass).reduce((s, r) => s + r.bytesPerRank, 0);
  return { forward: sum("forward"), backward: sum("backward") };
};
const TOL = { abs: 1e-6, rel: 1e-12 };
const HINT = "see the section “Communication per layer”";
const same = (f: F, o: Parameters<F>[0], hint = HINT) => expectSame(f, reference, [o], { tol: TOL, hint, name: "tpBytesPerRank" });

async function rangeError(f: F, o: Parameters<F>[0], re: RegExp): Promise<void> {
  await expectThrows(f as AnyFunction, [o] as unknown[], re, { class: RangeError });
}

export default defineExercise<F>({
  id: "6.2",
  title: "bytes per layer, with and without sequence parallelism",
  chapter: "tensor-parallel",
  file: "exercises/tensor-parallel/comm-bytes.ts",
  exportName: "tpBytesPerRank",
  signature: "tpBytesPerRank(o: {tokens, hiddenSize, T, sequenceParallel?, bytesPerElement?}): {forward, backward}",
  summary:
    "Bytes one rank sends per transformer layer per step, forward and backward, on ring collectives: Megatron's f and g, or sequence parallelism's all-gathers and reduce-scatters including the backward re-gather of the column layer's input. T = 1 sends nothing; bytesPerElement defaults to 2. RangeError naming the field; tokens must divide by T with sequence parallelism.",
  reference,
  section: "communication-per-layer",
  checks: [
    { name: "worked example", points: 1, run: async (f) => { await same(f, { tokens: 4, hiddenSize: 2, T: 2, bytesPerElement: 4 }); } },
    { name: "without sequence parallelism, default bytesPerElement", points: 1, run: async (f) => {
        await same(f, { tokens: 2048, hiddenSize: 12288, T: 8 }, "two all-reduces each way, 2(T−1)/T of the (N, h) tensor each, 2 bytes per element by default");
        await same(f, { tokens: 7, hiddenSize: 3, T: 3 }, "N·h need not divide by T without sequence parallelism");
        await same(f, { tokens: 5, hiddenSize: 3, T: 1 }, "one rank sends nothing");
    } },
    { name: "with sequence parallelism", points: 2, run: async (f) => {
        await same(f, { tokens: 2048, hiddenSize: 12288, T: 8, sequenceParallel: true }, "forward: the same bytes as the all-reduces; backward: one more all-gather per region (the re-gathered input)");
        await same(f, { tokens: 6, hiddenSize: 5, T: 3, sequenceParallel: true, bytesPerElement: 4 });
    } },
    { name: "random sizes and T", points: 1, run: (f) => property(
        fc.record({ T: fc.integer({ min: 1, max: 16 }), k: fc.integer({ min: 1, max: 64 }), hiddenSize: fc.integer({ min: 1, max: 512 }), sequenceParallel: fc.boolean(), bytesPerElement: fc.constantFrom(1, 2, 4) }),
        async ({ T, k, ...rest }) => { await same(f, { tokens: k * T, T, ...rest }); }, { numRuns: 60 }) },
    { name: "bad input: RangeError naming the field", points: 1, run: async (f) => {
        await rangeError(f, { tokens: 0, hiddenSize: 2, T: 1 }, /^tokens must be an integer >= 1, got 0$/);
        await rangeError(f, { tokens: 2, hiddenSize: 2, T: 0 }, /^T must be an integer >= 1, got 0$/);
        await rangeError(f, { tokens: 3, hiddenSize: 2, T: 2, sequenceParallel: true }, /^tokens \(3\) must be divisible by T \(2\) with sequence parallelism$/);
    } },
  ],
});
