import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, property, type AnyFunction } from "../harness/index.js";
import { tpBytesByCollective, tpSetupsFromBytes as lib } from "../../lib/tensor-parallel/index.js";
import type { tpSetupsFromBytes, TpLayer, TpSetup, TpBytes } from "./tp-setups-from-bytes.js";

type F = typeof tpSetupsFromBytes;
const reference: F = (measured, layer, maxT) => lib(measured, layer, maxT);
const SECTION = "communication-per-layer";
const HINT = `see the sections "Communication per layer" and "Which T fit a model" (src/tensor-parallel.md#${SECTION})`;
const same = (f: F, measured: TpBytes, layer: TpLayer, hint = HINT, maxT?: number) => expectSame(f, reference, maxT === undefined ? [measured, layer] : [measured, layer, maxT], { hint, name: "tpSetupsFromBytes" });
const bytes = (layer: TpLayer, T: number, sequenceParallel: boolean, recompute: TpSetup["recompute"]) => tpBytesByCollective(layer, { T, sequenceParallel, recompute });

const tiny: TpLayer = { tokens: 4, hiddenSize: 2, ffnHiddenSize: 8, numHeads: 2, numKvHeads: 2, headDim: 1, bytesPerElement: 4 };
const llama13: TpLayer = { tokens: 4096, hiddenSize: 5120, ffnHiddenSize: 13824, numHeads: 40, numKvHeads: 40, headDim: 128, bytesPerElement: 2 };
const mistral: TpLayer = { tokens: 4096, hiddenSize: 4096, ffnHiddenSize: 14336, numHeads: 32, numKvHeads: 8, headDim: 128, bytesPerElement: 2 };

export default defineExercise<F>({
  id: "6.2",
  kind: "concept",
  title: "what did this run do? read a profiler's byte counts",
  chapter: "tensor-parallel",
  file: "exercises/tensor-parallel/tp-setups-from-bytes.ts",
  exportName: "tpSetupsFromBytes",
  signature: "tpSetupsFromBytes(measured: {forward, backward}, layer: TpLayer, maxT?: number): { T, sequenceParallel, recompute }[]",
  summary:
    "A profiler measured the bytes one rank of a Megatron-LM run sent per layer and step, by pass and collective. Work backwards through the page's communication per layer: every setup (T, sequence parallelism on or off, full recomputation or not) that sends exactly those bytes, among the T the layer allows. Recomputation repeats the forward's collectives in backward; sequence parallelism gathers the column layer's input again; above the KV heads, the QKV activation is gathered too.",
  reference,
  section: SECTION,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectCall(f, [bytes(tiny, 2, false, "full"), tiny], [{ T: 2, sequenceParallel: false, recompute: "full" }], { name: "tpSetupsFromBytes", hint: `the stub's example; ${HINT}` });
    } },
    { name: "full recomputation: the forward's collectives again in backward", points: 2, run: async (f) => {
        for (const T of [2, 4, 8]) for (const sp of [false, true]) await same(f, bytes(llama13, T, sp, "full"), llama13, "with full recomputation the backward runs the layer's forward again, collectives included: they show up in the backward's counts");
    } },
    { name: "sequence parallelism: the re-gather in backward", points: 2, run: async (f) => {
        for (const T of [2, 4, 8]) await same(f, bytes(llama13, T, true, "none"), llama13, "Megatron keeps the column layer's input sharded and all-gathers it again in backward for the weight gradient");
    } },
    { name: "more ranks than KV heads: the QKV all-gather", points: 2, run: async (f) => {
        for (const [T, sp, rc] of [[16, false, "none"], [16, true, "full"], [32, false, "full"], [8, false, "none"]] as const) await same(f, bytes(mistral, T, sp, rc), mistral, "above G KV heads Megatron all-gathers the (N, (a + 2G)·d) QKV activation forward and reduce-scatters its gradient backward");
    } },
    { name: "T = 1 sends nothing; bytes no setup sends", points: 1, run: async (f) => {
        await same(f, bytes(llama13, 1, false, "none"), llama13, "nothing sent: T = 1");
        const off = bytes(llama13, 4, false, "none");
        await same(f, { ...off, backward: { ...off.backward, allReduce: off.backward.allReduce + 2 } }, llama13, "two bytes more than any setup sends: no setup");
        await same(f, bytes(mistral, 16, false, "none"), mistral, "maxT bounds the search", 8);
    } },
    { name: "random layers and setups", points: 3, run: (f) => property(
        fc.record({ kv: fc.integer({ min: 1, max: 8 }), group: fc.constantFrom(1, 2, 4), d: fc.constantFrom(16, 64, 128), tok: fc.integer({ min: 1, max: 64 }).map((x) => 64 * x), ti: fc.nat(10), sp: fc.boolean(), full: fc.boolean(), b: fc.constantFrom(2, 4) }),
        async (r) => {
          const layer: TpLayer = { tokens: r.tok, hiddenSize: r.kv * r.group * r.d, ffnHiddenSize: 4 * r.kv * r.group * r.d, numHeads: r.kv * r.group, numKvHeads: r.kv, headDim: r.d, bytesPerElement: r.b };
          const Ts = [1, 2, 4, 8, 16].filter((t) => layer.numHeads % t === 0 && (layer.numKvHeads % t === 0 || t % layer.numKvHeads === 0) && ((layer.numHeads + 2 * layer.numKvHeads) * r.d) % t === 0);
          const T = Ts[r.ti % Ts.length]!;
          await same(f, bytes(layer, T, T > 1 && r.sp, T > 1 && r.full ? "full" : "none"), layer, `the setup that sent these bytes must be in the list, with any other that sends the same; ${HINT}`);
        }, { numRuns: 120 }) },
    { name: "bad input: RangeError naming the field", points: 1, run: async (f) => {
        const ok = bytes(tiny, 2, false, "none");
        await expectThrows(f as AnyFunction, [{ ...ok, forward: { ...ok.forward, allGather: -1 } }, tiny], /measured\.forward\.allGather/, { class: RangeError, name: "tpSetupsFromBytes", hint: "each field by its path" });
        await expectThrows(f as AnyFunction, [{ ...ok, backward: { ...ok.backward, reduceScatter: NaN } }, tiny], /measured\.backward\.reduceScatter/, { class: RangeError, name: "tpSetupsFromBytes", hint: "each field by its path" });
        await expectThrows(f as AnyFunction, [ok, tiny, 0], /maxT/, { class: RangeError, name: "tpSetupsFromBytes", hint: "the contract's error" });
    } },
  ],
});
