/**
 * The inverse of LoRA's parameter count: every rank and set of adapted layers
 * that gives a printed number of trainable parameters.
 */
import type { ModelArch } from "./parseModelConfig.js";
import type { LoraTarget } from "./loraEstimate.js";

/** The linear layers of a Llama block that LoRA can adapt, in PEFT's names and the block's order. */
export const LORA_TARGETS: readonly LoraTarget[] = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"];

/** One LoRA configuration: a rank and the adapted layers, in {@link LORA_TARGETS} order. */
export interface LoraConfig { rank: number; targets: LoraTarget[] }

/**
 * Every LoRA configuration (rank r in [1, maxRank], a non-empty set of target layers adapted in
 * every block) whose trainable parameters, L·r·Σ(in + out), equal `trainable`: what PEFT's
 * "trainable params" line could have come from. Sorted by rank, then by the targets compared
 * element by element in block order (a list before the longer lists it starts).
 * @param arch a Llama-style architecture (in, out of each layer from its widths; K and V narrower with GQA)
 * @param trainable the printed count, a safe integer >= 0
 * @param maxRank the largest rank considered (default 256)
 * @returns the configurations, [] when none fits
 * @throws {RangeError} `trainable must be a safe integer >= 0, got -1`; `maxRank must be an integer >= 1, got 0`;
 *   TypeError `LoRA targets need a Llama-style model, got gpt2`
 * @example loraConfigsFor(llama2_7b, 4_194_304).slice(0, 3)
 *   // [{rank: 4, targets: ["q_proj", "k_proj", "v_proj", "o_proj"]}, {rank: 8, targets: ["q_proj", "k_proj"]},
 *   //  {rank: 8, targets: ["q_proj", "v_proj"]}] (11 in all; PEFT's default for Llama, r = 8 on q_proj and v_proj, is one)
 * @see Hu et al. 2021, *LoRA*, §4; PEFT `print_trainable_parameters`
 */
export function loraConfigsFor(arch: ModelArch, trainable: number, maxRank = 256): LoraConfig[] {
  if (!Number.isSafeInteger(trainable) || trainable < 0) throw new RangeError(`trainable must be a safe integer >= 0, got ${trainable}`);
  if (!Number.isSafeInteger(maxRank) || maxRank < 1) throw new RangeError(`maxRank must be an integer >= 1, got ${maxRank}`);
  if (arch.family !== "llama") throw new TypeError(`LoRA targets need a Llama-style model, got ${arch.family}`);
  const h = arch.hiddenSize, q = arch.numHeads * arch.headDim, kv = arch.numKvHeads * arch.headDim, I = arch.intermediateSize;
  const width: Record<LoraTarget, number> = { q_proj: h + q, k_proj: h + kv, v_proj: h + kv, o_proj: q + h, gate_proj: h + I, up_proj: h + I, down_proj: I + h };
  const out: LoraConfig[] = [];
  const subsets = Array.from({ length: 2 ** LORA_TARGETS.length - 1 }, (_, m) => LORA_TARGETS.filter((_, i) => ((m + 1) >> i) & 1));
  for (const targets of subsets) {
    const perRank = arch.numLayers * targets.reduce((s, t) => s + width[t], 0);
    if (trainable > 0 && trainable % perRank === 0 && trainable / perRank <= maxRank) out.push({ rank: trainable / perRank, targets });
  }
  const order = (t: LoraTarget) => LORA_TARGETS.indexOf(t);
  return out.sort((a, b) => {
    if (a.rank !== b.rank) return a.rank - b.rank;
    for (let i = 0; i < Math.min(a.targets.length, b.targets.length); i++) if (a.targets[i] !== b.targets[i]) return order(a.targets[i]!) - order(b.targets[i]!);
    return a.targets.length - b.targets.length;
  });
}
