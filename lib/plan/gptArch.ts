import type { ModelArch } from "../memory/index.js";

/**
 * A GPT model of the Megatron-LM papers, as a {@link ModelArch}: LayerNorm,
 * a 4h MLP, biases, learned positions of the sequence length, tied embeddings.
 * Its parameter count is 12·l·h²·(1 + 13/(12h) + (V + s)/(12·l·h)), the
 * papers' formula.
 * @param o hidden size, layers, heads, vocabulary and sequence length
 * @returns the architecture
 * @example gptArch({ hiddenSize: 2304, numLayers: 24, numHeads: 24, vocabSize: 51200, seqLen: 2048 }) // the 1.7B model of Table 1
 * @see Narayanan et al. 2021, §5.1 (the parameter count) and Table 1
 */
export function gptArch(o: { hiddenSize: number; numLayers: number; numHeads: number; vocabSize: number; seqLen: number }): ModelArch {
  return {
    family: "gpt2", modelType: "gpt2", vocabSize: o.vocabSize, hiddenSize: o.hiddenSize, intermediateSize: 4 * o.hiddenSize,
    numLayers: o.numLayers, numHeads: o.numHeads, numKvHeads: o.numHeads, headDim: o.hiddenSize / o.numHeads,
    learnedPositions: o.seqLen, tiedEmbeddings: true, attentionBias: true, mlpBias: true, norm: "layernorm", mlp: "plain",
  };
}
