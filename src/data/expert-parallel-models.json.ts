// Data loader (Node, build time): the two worked MoE models of chapter 14, read from the
// config.json files the memory chapter ships (lib/memory/configs) and counted by
// lib/memory's parameterCount (lib/expert-parallel moeParameterSplit).
import { parseModelConfig } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";
import { moeParameterSplit } from "../../lib/expert-parallel/index.js";

const models = [["Mixtral-8x7B", "mixtral-8x7b"], ["DeepSeek-V3", "deepseek-v3"]].map(([name, preset]) => {
  const arch = parseModelConfig(JSON.parse(loadPresetText(preset)));
  return { name, preset, hiddenSize: arch.hiddenSize, numLayers: arch.numLayers, numMoeLayers: arch.moe!.numMoeLayers, expertIntermediateSize: arch.moe!.expertIntermediateSize, ...moeParameterSplit(arch) };
});
process.stdout.write(JSON.stringify(models));
