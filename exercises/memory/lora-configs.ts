import { notImplemented } from "../harness/index.js";

/** The shape of a Llama-style model, as its config.json gives it. */
export interface LlamaShape {
  hidden_size: number;
  intermediate_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  /** Missing means num_attention_heads (no grouped-query attention). */
  num_key_value_heads?: number;
  /** Missing means hidden_size / num_attention_heads. */
  head_dim?: number;
}

/** Linear layers of a Llama block that LoRA can adapt (PEFT's names), in the block's order. */
export type Target = "q_proj" | "k_proj" | "v_proj" | "o_proj" | "gate_proj" | "up_proj" | "down_proj";

/** One LoRA configuration. */
export interface LoraConfig {
  rank: number;
  /** The adapted layers, in the block's order (q, k, v, o, gate, up, down). */
  targets: Target[];
}

/**
 * Exercise 2.4 — which LoRA configurations could have printed this?
 *
 * What: PEFT's `print_trainable_parameters()` printed `trainable params:
 * <trainable>` for a Llama-style model. Return every LoRA configuration that
 * gives exactly that count: a rank r in [1, 256] and a non-empty set of the
 * seven linear layers of a block, adapted in every block (Hu et al. 2021, §4).
 * What LoRA adds beside one linear layer is in the chapter's "LoRA" section;
 * the shape (in → out) of each layer follows from "Parameters from a
 * config.json" (K and V narrower with grouped-query attention).
 * Input: `shape` (not modified); `trainable`, a safe integer >= 0.
 * Output: a new array of configurations, sorted by rank, then by their
 * targets compared element by element in block order (a list before the
 * longer lists it starts: [q_proj] before [q_proj, k_proj] before [k_proj]);
 * [] when no configuration gives the count.
 * Errors: `trainable must be a safe integer >= 0, got -1` (RangeError).
 * Example: Llama-2-7B (hidden 4096, intermediate 11008, 32 layers, 32 heads)
 * and 4,194,304 give 11 configurations, from {rank: 4, targets: [q_proj,
 * k_proj, v_proj, o_proj]} to {rank: 16, targets: [o_proj]}; PEFT's default
 * for Llama, r = 8 on q_proj and v_proj, is one of them.
 *
 * @param shape the config fields above
 * @param trainable the printed count of trainable parameters
 * @returns every configuration that gives it, sorted
 * @throws RangeError as above
 */
export function loraConfigsFor(shape: LlamaShape, trainable: number): LoraConfig[] {
  return notImplemented("2.4");
}
