/**
 * What the memory estimate does and does not model for an architecture
 * beyond the GPT layer of Korthikanti et al.: experts, latent attention,
 * a head size that is not h/a, sliding windows, MTP modules.
 */
import type { ModelArch } from "./modelArch.js";
import { parameterCount } from "./parameterCount.js";

const b = (n: number) => `${(n / 1e9).toFixed(n < 1e10 ? 2 : 1)}B`;

/**
 * The estimate's notes for one architecture (empty for a plain dense model).
 * Model states count every parameter: with experts, all of them, divided
 * by tensor and pipeline parallelism and ZeRO like any others (expert
 * parallelism, which places a subset of the experts on each GPU, is not modelled here).
 * Activations follow Korthikanti et al.'s dense layer of width h and a heads;
 * the routed experts' intermediate tensors (k experts of I_e per token instead
 * of one MLP of I), the router's scores and MLA's latent tensors are not in it.
 *
 * @param arch the model
 * @returns notes, one sentence each
 * @example architectureNotes(mixtral_8x7b)[0] // "mixture of experts: 8 experts, 2 per token, in 32 of 32 layers; …"
 * @see Jiang et al. 2024, *Mixtral of Experts* §2; DeepSeek-AI 2024, *DeepSeek-V3* §2.1 and §3.2 (expert parallelism); Korthikanti et al. 2022 §4 (the dense layer's activations)
 */
export function architectureNotes(arch: ModelArch): string[] {
  const notes: string[] = [];
  const p = parameterCount(arch);
  if (arch.moe && arch.moe.numMoeLayers > 0) {
    const m = arch.moe;
    notes.push(`mixture of experts: ${m.numExperts} experts, ${m.topK} per token, in ${m.numMoeLayers} of ${arch.numLayers} layers${m.sharedIntermediateSize ? ", plus shared experts" : ""}; ` +
      `the model states hold all ${b(p.total)} parameters, divided by tensor and pipeline parallelism and by ZeRO like any others (expert parallelism, which gives each GPU a subset of the experts, is not modelled), while a token uses ${b(p.activeParameters)}`);
    notes.push(`activations: counted as a dense layer of width ${arch.hiddenSize} (Korthikanti et al. 2022); the ${m.topK} routed experts' intermediate tensors per token (${m.topK} × ${m.expertIntermediateSize} wide) and the router's scores are not modelled`);
  }
  if (arch.mla) notes.push(`attention is multi-head latent attention (kv_lora_rank ${arch.mla.kvLoraRank}): its activations are counted as standard attention with ${arch.numHeads} heads`);
  else if (arch.headDim * arch.numHeads !== arch.hiddenSize) notes.push(`head_dim ${arch.headDim} × ${arch.numHeads} heads = ${arch.headDim * arch.numHeads} ≠ hidden_size ${arch.hiddenSize}: the parameter count uses head_dim; the activation formula assumes a·d = h`);
  if (arch.mtpModules) notes.push(`the weights also store ${arch.mtpModules} multi-token-prediction module${arch.mtpModules > 1 ? "s" : ""} (${b(p.mtp)} parameters besides the embedding and head ${arch.mtpModules > 1 ? "they share" : "it shares"}): not in the count, as transformers' ${arch.modelType} model does not build ${arch.mtpModules > 1 ? "them" : "it"}; training with MTP adds ${arch.mtpModules > 1 ? "them" : "it"}`);
  return notes;
}
