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
 * LoRA (Hu et al. 2021, §4) adds, beside a frozen linear layer W of shape
 * in × out, two matrices A (in × r) and B (r × out); only A and B train, so
 * each adapted layer adds r·(in + out) parameters. In every one of the
 * num_hidden_layers blocks, with h = hidden_size, d = h / num_attention_heads,
 * k = num_key_value_heads, I = intermediate_size:
 * q_proj h → a·d, k_proj and v_proj h → k·d, o_proj a·d → h,
 * gate_proj and up_proj h → I, down_proj I → h.
 * A target listed twice counts once. Check yourself: Llama-2-7B with r = 8 on
 * q_proj and v_proj has 4,194,304 trainable parameters (what PEFT prints).
 * Errors (RangeError): `rank must be an integer >= 1, got 0`; an unknown target,
 * `unknown LoRA target "qkv_proj"; targets: q_proj, …`.
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
