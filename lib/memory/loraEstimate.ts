import type { ModelArch } from "./modelArch.js";
import { parameterCount } from "./parameterCount.js";
import { bytesPerParam, type OptimizerName, type Precision } from "./modelStateBytes.js";

/**
 * Linear layers of a Llama-style block that LoRA can adapt (PEFT's `target_modules` names).
 * @see the sources of {@link loraEstimate}: Hu et al. 2021, *LoRA: Low-Rank Adaptation of Large Language Models*, §4; PEFT `LoraConfig`
 */
export type LoraTarget = "q_proj" | "k_proj" | "v_proj" | "o_proj" | "gate_proj" | "up_proj" | "down_proj";

/**
 * LoRA on a model: adapter parameters, the trainable fraction, and memory with a frozen base.
 * @see the sources of {@link loraEstimate}: Hu et al. 2021, *LoRA: Low-Rank Adaptation of Large Language Models*, §4; PEFT `LoraConfig`
 */
export interface LoraEstimate {
  /** Trainable adapter parameters r·(in + out) summed over targeted layers. */
  loraParams: number;
  /** Frozen base parameters. */
  baseParams: number;
  /** loraParams / (baseParams + loraParams). */
  trainableFraction: number;
  /** Model-state bytes on one GPU (no ZeRO): frozen base at 16 bits (fp32: 4), adapters with gradients and optimizer states. */
  bytes: { parameters: number; gradients: number; optimizerStates: number; total: number };
}

/**
 * LoRA (Hu et al. 2021): each targeted linear layer W (in × out) gets A (in × r)
 * and B (r × out); only A and B train. Adapter parameters r·(in + out) per
 * layer; memory = base weights + (P + G + K)·loraParams, with P, G, K from
 * {@link bytesPerParam}: the base has no gradients or optimizer states.
 *
 * @param arch a Llama-style architecture (family "llama")
 * @param rank r, a positive integer
 * @param targets module names (default PEFT's Llama default: q_proj, v_proj)
 * @param precision of training (default "bf16"); optimizer (default "adamw")
 * @returns {@link LoraEstimate}
 * @throws RangeError `rank must be an integer >= 1, got 0`; TypeError `LoRA targets need a Llama-style model, got gpt2`; TypeError `LoRA targets of a mixture of experts (mixtral) are not modelled: …`
 * @example loraEstimate(llama2_7b, 8).loraParams // 4194304 (32 layers · 2 · 8·(4096 + 4096))
 * @see Hu et al. 2021, *LoRA: Low-Rank Adaptation of Large Language Models*, §4; PEFT `LoraConfig`
 */
export function loraEstimate(
  arch: ModelArch,
  rank: number,
  targets: readonly LoraTarget[] = ["q_proj", "v_proj"],
  precision: Precision = "bf16",
  optimizer: OptimizerName = "adamw",
): LoraEstimate {
  if (!Number.isSafeInteger(rank) || rank < 1) throw new RangeError(`rank must be an integer >= 1, got ${rank}`);
  if (arch.family !== "llama") throw new TypeError(`LoRA targets need a Llama-style model, got ${arch.family}`);
  if (arch.moe || arch.mla) throw new TypeError(`LoRA targets of ${arch.moe ? "a mixture of experts" : "multi-head latent attention"} (${arch.modelType}) are not modelled: the estimate counts the dense Q, K, V, O and MLP projections`);
  const h = arch.hiddenSize;
  const q = arch.numHeads * arch.headDim;
  const kv = arch.numKvHeads * arch.headDim;
  const I = arch.intermediateSize;
  const shape: Record<LoraTarget, [number, number]> = {
    q_proj: [h, q], k_proj: [h, kv], v_proj: [h, kv], o_proj: [q, h], gate_proj: [h, I], up_proj: [h, I], down_proj: [I, h],
  };
  let perLayer = 0;
  for (const t of new Set(targets)) {
    const s = shape[t];
    if (!s) throw new RangeError(`unknown LoRA target ${JSON.stringify(t)}; targets: ${Object.keys(shape).join(", ")}`);
    perLayer += rank * (s[0] + s[1]);
  }
  const loraParams = arch.numLayers * perLayer;
  const baseParams = parameterCount(arch).total;
  const b = bytesPerParam(precision, optimizer);
  const parameters = b.parameters * (baseParams + loraParams);
  const gradients = b.gradients * loraParams;
  const optimizerStates = b.optimizerStates * loraParams;
  return {
    loraParams, baseParams, trainableFraction: loraParams / (baseParams + loraParams),
    bytes: { parameters, gradients, optimizerStates, total: parameters + gradients + optimizerStates },
  };
}
