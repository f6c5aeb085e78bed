import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, property } from "../harness/index.js";
import { parameterCount, parseModelConfig } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";
import type { countParameters, HfConfig } from "./count-parameters.js";

type F = typeof countParameters;
const reference: F = (config) => parameterCount(parseModelConfig(config)).total;

const SECTION = "see the page's section \"Parameters from a config.json\" (src/memory.md#parameters-from-a-config-json)";
const shipped = (name: string) => JSON.parse(loadPresetText(name)) as HfConfig;
const same = (f: F, config: HfConfig, hint: string, label?: string) => expectSame(f, reference, [config], { name: "countParameters", hint, label });

const llama2_13b = { model_type: "llama", vocab_size: 32000, hidden_size: 5120, intermediate_size: 13824, num_hidden_layers: 40, num_attention_heads: 40, num_key_value_heads: 40, tie_word_embeddings: false };

/** Random small configs of each family, optional fields left out or set, as real files do. */
const llamaLike = fc.record({
  kv: fc.integer({ min: 1, max: 6 }), group: fc.integer({ min: 1, max: 4 }), headDim: fc.integer({ min: 1, max: 24 }), layers: fc.integer({ min: 1, max: 10 }),
  vocab: fc.integer({ min: 1, max: 900 }), inter: fc.integer({ min: 1, max: 400 }), tied: fc.option(fc.boolean()), ownHeadDim: fc.option(fc.integer({ min: 1, max: 40 })),
  attnBias: fc.option(fc.boolean()), mlpBias: fc.option(fc.boolean()), type: fc.constantFrom("llama", "mistral"),
}).map((r): HfConfig => ({
  model_type: r.type, vocab_size: r.vocab, hidden_size: r.kv * r.group * r.headDim, intermediate_size: r.inter, num_hidden_layers: r.layers,
  num_attention_heads: r.kv * r.group, ...(r.group === 1 ? {} : { num_key_value_heads: r.kv }),
  ...(r.tied === null ? {} : { tie_word_embeddings: r.tied }), ...(r.ownHeadDim === null ? {} : { head_dim: r.ownHeadDim }),
  ...(r.attnBias === null ? {} : { attention_bias: r.attnBias }), ...(r.mlpBias === null ? {} : { mlp_bias: r.mlpBias }),
}));
const gpt2 = fc.record({ heads: fc.integer({ min: 1, max: 8 }), headDim: fc.integer({ min: 1, max: 16 }), layers: fc.integer({ min: 1, max: 8 }), vocab: fc.integer({ min: 1, max: 900 }),
  positions: fc.integer({ min: 1, max: 300 }), inner: fc.option(fc.integer({ min: 1, max: 300 })), tied: fc.option(fc.boolean()), innerMissing: fc.boolean() })
  .map((r): HfConfig => ({ model_type: "gpt2", vocab_size: r.vocab, n_embd: r.heads * r.headDim, n_layer: r.layers, n_head: r.heads, n_positions: r.positions,
    ...(r.inner === null && r.innerMissing ? {} : { n_inner: r.inner }), ...(r.tied === null ? {} : { tie_word_embeddings: r.tied }), n_ctx: r.positions, resid_pdrop: 0.1 }));
const neox = fc.record({ heads: fc.integer({ min: 1, max: 8 }), headDim: fc.integer({ min: 1, max: 16 }), layers: fc.integer({ min: 1, max: 8 }), vocab: fc.integer({ min: 1, max: 900 }),
  inter: fc.integer({ min: 1, max: 300 }), tied: fc.option(fc.boolean()) })
  .map((r): HfConfig => ({ model_type: "gpt_neox", vocab_size: r.vocab, hidden_size: r.heads * r.headDim, intermediate_size: r.inter, num_hidden_layers: r.layers,
    num_attention_heads: r.heads, ...(r.tied === null ? {} : { tie_word_embeddings: r.tied }), rotary_pct: 0.25, use_parallel_residual: true }));

export default defineExercise({
  id: "2.1",
  kind: "concept",
  title: "count parameters from a config.json, four families",
  chapter: "memory",
  section: "parameters-from-a-config-json",
  file: "exercises/memory/count-parameters.ts",
  exportName: "countParameters",
  signature: "countParameters(config: HfConfig): number",
  summary:
    "Count the parameters transformers builds from a real config.json, for Llama, Mistral, GPT-2 and GPT-NeoX (Pythia), each with its own field names and defaults (the stub lists them). The page derives the Llama block and sketches GPT-2; work out the rest: biases, LayerNorms, the position table, tied or untied heads, head_dim given apart from the width. Graded on the published counts and on random configs of each family.",
  reference,
  checks: [
    { name: "the stub's example: Llama-2-13B (13,015,864,320)", points: 2, run: async (f) => {
        await expectCall(f, [llama2_13b], 13_015_864_320, { name: "countParameters", hint: `the published count of Llama-2-13B; ${SECTION}` });
    } },
    { name: "the shipped configs: Llama-2, Mistral-7B, GPT-2 (124,439,808), Pythia-70M (70,426,624)", points: 3, run: async (f) => {
        await expectCall(f, [shipped("gpt2")], 124_439_808, { name: "countParameters", label: "countParameters(gpt2's config.json)", hint: "GPT-2 small: biases everywhere, LayerNorms with a bias, a learned position table, a head tied to the embedding" });
        await expectCall(f, [shipped("pythia-70m")], 70_426_624, { name: "countParameters", label: "countParameters(pythia-70m's config.json)", hint: "GPT-NeoX: GPT-2's modules with rotary positions (no table) and an output head of its own (tie_word_embeddings false)" });
        for (const n of ["llama-2-7b", "llama-2-70b", "mistral-7b"]) await same(f, shipped(n), `grouped-query attention narrows K and V; ${SECTION}`, `countParameters(${n}'s config.json)`);
    } },
    { name: "Llama-style options: head_dim, attention_bias, mlp_bias, tied", points: 1, run: async (f) => {
        const base = { model_type: "llama", vocab_size: 1000, hidden_size: 64, intermediate_size: 172, num_hidden_layers: 3, num_attention_heads: 8, num_key_value_heads: 2 };
        for (const extra of [{ head_dim: 16 }, { attention_bias: true }, { mlp_bias: true }, { tie_word_embeddings: true }, { head_dim: 12, attention_bias: true, mlp_bias: true }]) {
          await same(f, { ...base, ...extra }, "head_dim sets the width of every head (Q is heads × head_dim, which need not be the hidden size); the biases add one vector per projection");
        }
    } },
    { name: "GPT-2: n_inner, the position table, the tie", points: 1, run: async (f) => {
        const base = { model_type: "gpt2", vocab_size: 500, n_embd: 48, n_layer: 2, n_head: 4, n_positions: 64 };
        for (const extra of [{}, { n_inner: null }, { n_inner: 100 }, { tie_word_embeddings: false }, { n_positions: 1 }]) {
          await same(f, { ...base, ...extra }, "n_inner null or missing means 4·n_embd; the position table has n_positions rows; GPT-2 ties its head unless told otherwise");
        }
    } },
    { name: "random configs of each family", points: 4, run: (f) => property(fc.oneof(llamaLike, gpt2, neox), async (c) => { await same(f, c, `compare with the cases above; ${SECTION}`); }, { numRuns: 300 }) },
    { name: "bad input: the error names the field or the model_type", points: 1, run: async (f) => {
        await expectThrows(f, [{ ...llama2_13b, model_type: "bert" }], /bert/, { class: RangeError, hint: "a model_type outside the four families: a RangeError that names it" });
        await expectThrows(f, [{ model_type: "gpt2", vocab_size: 10, n_layer: 2, n_head: 2, n_positions: 8 }], /n_embd/, { hint: "a missing required field: the error names it" });
        await expectThrows(f, [{ ...llama2_13b, num_hidden_layers: 0 }], /num_hidden_layers/, { hint: "a field that is not a positive integer: the error names it" });
    } },
  ],
});
