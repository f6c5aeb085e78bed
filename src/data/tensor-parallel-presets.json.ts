// Data loader (Node, build time): the tensor-parallel facts of the model
// presets shipped with the memory chapter (lib/memory/configs/*.json, read with
// loadPresetText, which is Node-only): valid T (Megatron's rules) and the padded
// vocabulary for each valid T, computed by lib/tensor-parallel.
import { parseModelConfig } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";
import { validTensorParallelSizes, paddedVocabSize } from "../../lib/tensor-parallel/index.js";

const names = ["llama-2-7b", "llama-2-13b", "llama-2-70b", "mistral-7b"];
const out = names.map((name) => {
  const a = parseModelConfig(JSON.parse(loadPresetText(name)));
  const config = { numHeads: a.numHeads, numKvHeads: a.numKvHeads, hiddenSize: a.hiddenSize, ffnHiddenSize: a.intermediateSize };
  const validT = validTensorParallelSizes(config);
  return { name, ...config, vocabSize: a.vocabSize, numLayers: a.numLayers, validT, padded: validT.map((T) => ({ T, vocab: paddedVocabSize(a.vocabSize, T) })) };
});
process.stdout.write(JSON.stringify(out, null, 2));
