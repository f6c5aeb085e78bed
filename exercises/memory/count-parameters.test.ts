import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, property } from "../harness/index.js";
import { parameterCount, parseModelConfig } from "../../lib/memory/index.js";
import type { countParameters, LlamaConfig } from "./count-parameters.js";

const reference: typeof countParameters = (config) => parameterCount(parseModelConfig({ model_type: "llama", ...config })).total;

const llama2_13b: LlamaConfig = { vocab_size: 32000, hidden_size: 5120, intermediate_size: 13824, num_hidden_layers: 40, num_attention_heads: 40, num_key_value_heads: 40, tie_word_embeddings: false };
const llama2_70b: LlamaConfig = { vocab_size: 32000, hidden_size: 8192, intermediate_size: 28672, num_hidden_layers: 80, num_attention_heads: 64, num_key_value_heads: 8, tie_word_embeddings: false };
const mistral7b: LlamaConfig = { vocab_size: 32000, hidden_size: 4096, intermediate_size: 14336, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8, tie_word_embeddings: false };

const config = fc.record({
  kv: fc.integer({ min: 1, max: 8 }), group: fc.integer({ min: 1, max: 4 }), headDim: fc.integer({ min: 1, max: 32 }),
  layers: fc.integer({ min: 1, max: 12 }), vocab: fc.integer({ min: 1, max: 1000 }), inter: fc.integer({ min: 1, max: 512 }), tied: fc.boolean(),
}).map(({ kv, group, headDim, layers, vocab, inter, tied }): LlamaConfig => ({
  vocab_size: vocab, hidden_size: kv * group * headDim, intermediate_size: inter, num_hidden_layers: layers,
  num_attention_heads: kv * group,
  // optional fields left out as real configs do: no num_key_value_heads without GQA, no tie_word_embeddings when untied
  ...(group === 1 ? {} : { num_key_value_heads: kv }), ...(tied ? { tie_word_embeddings: true } : {}),
}));

export default defineExercise({
  id: "2.1",
  title: "count parameters from a config.json",
  chapter: "memory",
  section: "parameters-from-a-config-json",
  file: "exercises/memory/count-parameters.ts",
  exportName: "countParameters",
  signature: "countParameters(config: LlamaConfig): number",
  summary:
    "Count the parameters of a Llama-style model from the fields of its config.json: embedding, per-layer attention (with grouped-query K and V), gated MLP and RMSNorms, final norm, and the output head unless the embeddings are tied. Llama-2-13B must give 13,015,864,320.",
  reference,
  checks: [
    { name: "Llama-2-13B (published 13,015,864,320)", points: 2, run: async (f) => {
        await expectCall(f, [llama2_13b], 13_015_864_320, { hint: "see the section \"Parameters from a config.json\": every part of a block, and what comes outside the blocks" });
    } },
    { name: "grouped-query attention (Llama-2-70B, Mistral-7B)", points: 2, run: async (f) => {
        await expectCall(f, [llama2_70b], 68_976_648_192, { hint: "see the section \"Parameters from a config.json\" on grouped-query attention" });
        await expectCall(f, [mistral7b], 7_241_732_096, { hint: "see the section \"Parameters from a config.json\" on grouped-query attention" });
    } },
    { name: "tied embeddings count the matrix once", points: 1, run: async (f) => {
        await expectSame(f, reference, [{ ...llama2_13b, tie_word_embeddings: true }], { hint: "see the section \"Parameters from a config.json\" on tie_word_embeddings" });
    } },
    { name: "missing optional fields take their defaults", points: 1, run: async (f) => {
        const { num_key_value_heads: _kv, tie_word_embeddings: _tied, ...bare } = llama2_13b;
        await expectSame(f, reference, [bare as LlamaConfig], { hint: "the stub's LlamaConfig says what a missing field means" });
    } },
    { name: "random small configs", points: 2, run: (f) => property(config, async (c) => {
        await expectSame(f, reference, [c], { hint: "see the section \"Parameters from a config.json\"; random configs also leave the optional fields out" });
    }, { numRuns: 60 }) },
  ],
});
