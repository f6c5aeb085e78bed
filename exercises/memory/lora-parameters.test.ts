import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, fail, property } from "../harness/index.js";
import { loraEstimate, parseModelConfig, type LoraTarget } from "../../lib/memory/index.js";
import type { loraParameters, LlamaShape, Target } from "./lora-parameters.js";

const reference: typeof loraParameters = (shape, rank, targets) =>
  loraEstimate(parseModelConfig({ model_type: "llama", vocab_size: 1, ...shape }), rank, targets as LoraTarget[]).loraParams;

const llama2_7b: LlamaShape = { hidden_size: 4096, intermediate_size: 11008, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 32 };
const mistral7b: LlamaShape = { hidden_size: 4096, intermediate_size: 14336, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8 };
const ALL: Target[] = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"];

export default defineExercise({
  id: "2.4",
  title: "LoRA trainable parameters",
  chapter: "memory",
  section: "lo-ra",
  file: "exercises/memory/lora-parameters.ts",
  exportName: "loraParameters",
  signature: "loraParameters(shape: LlamaShape, rank: number, targets: Target[]): number",
  summary:
    "Count LoRA's trainable parameters: r·(in + out) for every adapted linear layer in every block, with the layer shapes of a Llama-style model (grouped-query K and V are narrower). Llama-2-7B with r = 8 on q_proj and v_proj gives 4,194,304, as PEFT prints.",
  reference,
  checks: [
    { name: "Llama-2-7B, r = 8, q_proj + v_proj (PEFT: 4,194,304)", points: 2, run: async (f) => {
        await expectCall(f, [llama2_7b, 8, ["q_proj", "v_proj"]], 4_194_304, { hint: "A is in × r and B is r × out: r·(in + out) per layer, times the number of layers" });
    } },
    { name: "grouped-query attention narrows k_proj and v_proj", points: 2, run: async (f) => {
        await expectSame(f, reference, [mistral7b, 16, ["k_proj", "v_proj"]], { hint: "k_proj maps h to num_key_value_heads × head_dim (1024 for Mistral-7B), not to h" });
    } },
    { name: "every target, MLP included", points: 1, run: async (f) => {
        await expectSame(f, reference, [llama2_7b, 4, ALL], { hint: "gate_proj and up_proj are h → I, down_proj is I → h" });
    } },
    { name: "a target listed twice counts once", points: 1, run: async (f) => {
        await expectSame(f, reference, [llama2_7b, 8, ["q_proj", "q_proj"]], { hint: "PEFT adapts a module once, however often it is named" });
    } },
    { name: "a missing num_key_value_heads means no grouped-query attention", points: 1, run: async (f) => {
        const { num_key_value_heads: _kv, ...bare } = mistral7b;
        await expectSame(f, reference, [bare as LlamaShape, 8, ["k_proj", "v_proj"]], { hint: "the stub's LlamaShape says what a missing num_key_value_heads means" });
    } },
    { name: "bad rank or target: RangeError naming it", points: 1, run: async (f) => {
        const cases: [number, Target[], RegExp][] = [[0, ["q_proj"], /rank/], [2.5, ["q_proj"], /rank/], [NaN, ["q_proj"], /rank/], [8, ["qkv_proj" as Target], /qkv_proj/]];
        for (const [rank, targets, pattern] of cases) {
          const call = `loraParameters(llama2_7b, ${rank}, ${JSON.stringify(targets)})`;
          let out: unknown;
          try {
            out = await f({ ...llama2_7b }, rank, [...targets]);
          } catch (e) {
            const err = e as Error;
            if (err?.name === "NotImplementedError") throw e;
            if (err?.name !== "RangeError" || !pattern.test(err.message)) fail(`${call} threw ${err?.name}: "${err?.message}", expected a RangeError matching ${pattern}`, "the stub's contract lists the errors");
            continue;
          }
          fail(`${call} returned ${String(out)} instead of throwing a RangeError`, "the stub's contract lists the errors");
        }
    } },
    { name: "random shapes, ranks and targets", points: 2, run: (f) => property(
        fc.record({
          kv: fc.integer({ min: 1, max: 8 }), group: fc.integer({ min: 1, max: 4 }), headDim: fc.integer({ min: 1, max: 64 }),
          layers: fc.integer({ min: 1, max: 40 }), inter: fc.integer({ min: 1, max: 4096 }), rank: fc.integer({ min: 1, max: 64 }),
          targets: fc.subarray(ALL, { minLength: 1 }),
        }),
        async ({ kv, group, headDim, layers, inter, rank, targets }) => {
          // group 1 omits num_key_value_heads (it equals the heads): an optional field left out, as real configs do
          const shape: LlamaShape = { hidden_size: kv * group * headDim, intermediate_size: inter, num_hidden_layers: layers, num_attention_heads: kv * group, ...(group === 1 ? {} : { num_key_value_heads: kv }) };
          await expectSame(f, reference, [shape, rank, targets]);
        }, { numRuns: 80 }) },
  ],
});
