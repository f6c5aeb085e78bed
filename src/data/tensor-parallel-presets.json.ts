// Data loader (Node, build time): the tensor-parallel facts of the model
// presets shipped with the memory chapter (lib/memory/configs/*.json, read with
// loadPresetText, which is Node-only): valid T (Megatron's rule today, and the
// rule before commit f7dfb99) and the padded vocabulary for each valid T,
// computed by lib/tensor-parallel.
import { parseModelConfig } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";
import { validTensorParallelSizes, paddedVocabSize, tpModelConfig } from "../../lib/tensor-parallel/index.js";

const names = ["llama-2-7b", "llama-2-13b", "llama-2-70b", "mistral-7b"];
const out = names.map((name) => {
  const a = parseModelConfig(JSON.parse(loadPresetText(name)));
  const config = tpModelConfig(a);
  const validT = validTensorParallelSizes(config);
  const validTBefore = validTensorParallelSizes(config, a.numHeads, { gqaRule: "divide" });
  return { name, ...config, vocabSize: a.vocabSize, numLayers: a.numLayers, validT, validTBefore, padded: validT.map((T) => ({ T, vocab: paddedVocabSize(a.vocabSize, T) })) };
});
process.stdout.write(JSON.stringify(out, null, 2));
