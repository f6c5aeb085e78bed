/**
 * What a sequence length means for a model's context: beyond the learned
 * position table it cannot run; beyond `max_position_embeddings` a rotary
 * model runs but was not trained (or scaled) for it.
 */
import type { ModelArch } from "./modelArch.js";

/**
 * The warning for a sequence longer than the model's context, or null.
 * Learned positions (GPT-2) have no row past `n_positions`: that is a hard
 * limit, which callers refuse (this returns the reason). Rotary models
 * (Llama, Qwen2, Gemma, Mixtral, DeepSeek-V3…) accept any length, so the
 * estimate stands, but quality past `max_position_embeddings` is not what the
 * model was trained for. A sliding window (Mistral, Gemma 2 on alternate
 * layers, Phi-3) limits what each token attends to, not the sequence.
 *
 * @param arch the model
 * @param seqLen tokens per sequence
 * @returns `{hard, message}` when seqLen exceeds the context, else null
 * @example contextWarning(llama2_13b, 1_000_000)?.message
 *   // "1,000,000 tokens are beyond the model's context of 4,096 tokens (max_position_embeddings, 244× it): …"
 * @see Hugging Face `PretrainedConfig` docs (max_position_embeddings); Su et al. 2021, *RoFormer* (rotary positions have no table);
 *   Radford et al. 2019, GPT-2 (learned position embeddings of n_positions rows)
 */
export function contextWarning(arch: ModelArch, seqLen: number): { hard: boolean; message: string } | null {
  const fmt = (n: number) => n.toLocaleString("en-US");
  if (arch.learnedPositions > 0 && seqLen > arch.learnedPositions) {
    return { hard: true, message: `${fmt(seqLen)} tokens exceed the model's n_positions (${fmt(arch.learnedPositions)}): its learned position table has no rows beyond that` };
  }
  const ctx = arch.contextLength;
  if (ctx == null || seqLen <= ctx) return null;
  const window = arch.slidingWindow ? ` Its ${fmt(arch.slidingWindow)}-token sliding window limits what each token attends to, not the sequence length.` : "";
  return {
    hard: false,
    message: `${fmt(seqLen)} tokens are beyond the model's context of ${fmt(ctx)} tokens (max_position_embeddings, ${(seqLen / ctx).toFixed(seqLen / ctx < 10 ? 1 : 0)}× it): ` +
      `rotary positions let it run, and the memory estimate stands, but the model was not trained for that length (extending it needs RoPE scaling and training at that length).${window}`,
  };
}
