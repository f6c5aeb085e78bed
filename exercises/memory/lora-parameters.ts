import { notImplemented } from "../harness/index.js";

/** The shape of a Llama-style model, as its config.json gives it. */
export interface LlamaShape {
  hidden_size: number;
  intermediate_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  /** Missing means num_attention_heads (no grouped-query attention). */
  num_key_value_heads?: number;
}

/** Linear layers of a Llama block that LoRA can adapt (PEFT's names). */
export type Target = "q_proj" | "k_proj" | "v_proj" | "o_proj" | "gate_proj" | "up_proj" | "down_proj";

/**
 * Exercise 2.4 — trainable parameters of LoRA.
 *
 * What: how many parameters train when LoRA (Hu et al. 2021, §4) adapts the
 * listed linear layers of every block of a Llama-style model with rank r,
 * the rest frozen: the number PEFT's `print_trainable_parameters()` prints.
 * What LoRA adds beside one linear layer is in the chapter's "LoRA" section;
 * the shape (in → out) of each named layer of a Llama block follows from the
 * "Parameters from a config.json" section (head_dim = hidden_size / num_attention_heads).
 *
 * Convention: a target listed twice is adapted once. A missing
 * `num_key_value_heads` means as many KV heads as query heads.
 *
 * Errors (RangeError): `rank must be an integer >= 1, got 0`; an unknown target,
 * `unknown LoRA target "qkv_proj"; targets: q_proj, …`.
 *
 * Example: Llama-2-7B (hidden 4096, 32 layers, 32 heads) with r = 8 on q_proj
 * and v_proj has 4,194,304 trainable parameters.
 *
 * @param shape the config fields above (do not modify it)
 * @param rank r, a positive integer
 * @param targets the adapted layers of every block
 * @returns the number of trainable parameters
 * @throws RangeError as above
 */
export function loraParameters(shape: LlamaShape, rank: number, targets: Target[]): number {
  return notImplemented("2.4");
}
