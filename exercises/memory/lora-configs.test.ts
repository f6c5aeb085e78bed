import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { loraConfigsFor as libLoraConfigsFor, loraEstimate, parseModelConfig, LORA_TARGETS } from "../../lib/memory/index.js";
import type { loraConfigsFor, LlamaShape, Target } from "./lora-configs.js";

type F = typeof loraConfigsFor;
const arch = (shape: LlamaShape) => parseModelConfig({ model_type: "llama", vocab_size: 1, ...shape });
const reference: F = (shape, trainable) => libLoraConfigsFor(arch(shape), trainable) as ReturnType<F>;
const count = (shape: LlamaShape, rank: number, targets: Target[]) => loraEstimate(arch(shape), rank, targets).loraParams;

const SECTION = "see the page's section \"LoRA\" (src/memory.md#lo-ra)";
const same = (f: F, shape: LlamaShape, trainable: number, hint: string) => expectSame(f, reference, [shape, trainable], { name: "loraConfigsFor", hint });
const llama2_7b: LlamaShape = { hidden_size: 4096, intermediate_size: 11008, num_hidden_layers: 32, num_attention_heads: 32 };
const mistral7b: LlamaShape = { hidden_size: 4096, intermediate_size: 14336, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8 };
const shapes = fc.record({ kv: fc.integer({ min: 1, max: 4 }), group: fc.integer({ min: 1, max: 4 }), d: fc.integer({ min: 1, max: 32 }), I: fc.integer({ min: 1, max: 300 }), L: fc.integer({ min: 1, max: 6 }), ownDim: fc.option(fc.integer({ min: 1, max: 40 })) })
  .map((r): LlamaShape => ({ hidden_size: r.kv * r.group * r.d, intermediate_size: r.I, num_hidden_layers: r.L, num_attention_heads: r.kv * r.group,
    ...(r.group > 1 ? { num_key_value_heads: r.kv } : {}), ...(r.ownDim === null ? {} : { head_dim: r.ownDim }) }));

export default defineExercise({
  id: "2.4",
  kind: "concept",
  title: "which LoRA configurations could have printed this?",
  chapter: "memory",
  section: "lo-ra",
  file: "exercises/memory/lora-configs.ts",
  exportName: "loraConfigsFor",
  signature: "loraConfigsFor(shape: LlamaShape, trainable: number): { rank, targets }[]",
  summary:
    "PEFT printed a number of trainable parameters for a Llama-style model: return every LoRA configuration (rank 1–256, a non-empty set of the seven linear layers, adapted in every block) that gives exactly that count, sorted. The page counts LoRA's parameters forward; this is the inverse, where grouped-query attention and head_dim change which sets of layers are possible.",
  reference,
  checks: [
    { name: "the stub's example: PEFT's 4,194,304 on Llama-2-7B", points: 1, run: async (f) => {
        await same(f, llama2_7b, 4_194_304, `A is in × r and B is r × out, in every block; ${SECTION}`);
    } },
    { name: "grouped-query attention narrows k_proj and v_proj (Mistral-7B)", points: 3, run: async (f) => {
        for (const n of [3_407_872, count(mistral7b, 16, ["k_proj", "v_proj"]), count(mistral7b, 4, ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"])]) {
          await same(f, mistral7b, n, "k_proj and v_proj map h to num_key_value_heads × head_dim (1024 for Mistral-7B), not to h");
        }
    } },
    { name: "head_dim apart from the width; a missing num_key_value_heads", points: 1, run: async (f) => {
        const shape: LlamaShape = { hidden_size: 64, intermediate_size: 96, num_hidden_layers: 3, num_attention_heads: 4, head_dim: 24 };
        await same(f, shape, count(shape, 6, ["q_proj", "o_proj"]), "q_proj maps h to num_attention_heads × head_dim, which need not be h");
        const { num_key_value_heads: _kv, ...bare } = mistral7b;
        await same(f, bare, count(bare, 8, ["k_proj"]), "a missing num_key_value_heads means as many KV heads as query heads");
    } },
    { name: "the order of the list", points: 1, run: async (f) => {
        // attention layers 16 + 16, MLP layers 16 + 48: 192 = 3 · 64 is two attention layers or one MLP layer at rank 3, …
        const shape: LlamaShape = { hidden_size: 16, intermediate_size: 48, num_hidden_layers: 1, num_attention_heads: 2 };
        for (const n of [192, 96, 384]) await same(f, shape, n, "by rank; then the targets element by element in block order, a list before the longer lists it starts");
    } },
    { name: "counts no configuration gives: 0, off by one, above rank 256", points: 1, run: async (f) => {
        for (const n of [0, 4_194_303, 4_194_305, 257 * count(llama2_7b, 1, ["q_proj"]), 1]) await same(f, llama2_7b, n, "no configuration: an empty list");
        await same(f, llama2_7b, 256 * count(llama2_7b, 1, ["q_proj"]), "rank 256 is allowed (the contract's range is [1, 256])");
    } },
    { name: "random shapes and configurations", points: 4, run: (f) => property(
        fc.tuple(shapes, fc.integer({ min: 1, max: 40 }), fc.subarray([...LORA_TARGETS], { minLength: 1 })),
        async ([shape, rank, targets]) => { await same(f, shape, count(shape, rank, targets as Target[]), `the configuration that made this count must be in the list, with every other that gives it; ${SECTION}`); },
        { numRuns: 150 }) },
    { name: "bad input: a RangeError naming trainable", points: 1, run: async (f) => {
        for (const n of [-1, 1.5, NaN, 2 ** 60]) await expectThrows(f, [llama2_7b, n], /trainable/, { class: RangeError, name: "loraConfigsFor", hint: "the stub's contract: trainable must be a safe integer >= 0" });
    } },
  ],
});
