import { notImplemented } from "../harness/index.js";

/** The training run to size: mixed precision (fp16 or bf16) in the DeepSpeed/Megatron design, AdamW, data parallelism only. */
export interface RunSpec {
  /** ZeRO stage over all the GPUs of the cluster. */
  zeroStage: 0 | 1 | 2 | 3;
  /** b, sequences per GPU per micro-batch. */
  microBatch: number;
  /** s, tokens per sequence. */
  seqLen: number;
  recompute: "none" | "selective" | "full";
  /** "eager" materialises the attention scores (and computes the softmax in fp32); "flash" is FlashAttention. */
  attention: "eager" | "flash";
}

/** The cluster: how many GPUs, and the usable bytes of each. */
export interface Cluster {
  numGpus: number;
  gpuMemoryBytes: number;
}

/** The answer, in bytes per GPU. */
export interface FitAnswer {
  /** Ψ, the model's parameter count. */
  params: number;
  /** Model states after ZeRO plus the stored activations. */
  steadyBytes: number;
  /** The steady state plus the transients of one training step. */
  peakBytes: number;
  /** Whether the run fits: peakBytes <= gpuMemoryBytes. */
  fits: boolean;
}

/**
 * Exercise 2.5 (build it) — does a training run fit on a cluster?
 *
 * What: from a real Hugging Face `config.json` of a Llama-style model
 * (`model_type` "llama" or "mistral"; optional fields such as
 * `num_key_value_heads`, `head_dim` and `tie_word_embeddings` may be missing,
 * with the meanings of exercise 2.1), a run and a cluster, return the bytes per
 * GPU at steady state and at the peak, and the decision. Your answer is graded
 * against the course's estimator on the shipped configs and on hidden
 * clusters: per decision, and per byte.
 *
 * Convention (the chapter's, section by section; you may call your own 2.1–2.3):
 * - parameters: "Parameters from a config.json";
 * - model states: "Model states: two mixed-precision designs", DeepSpeed design,
 *   AdamW (2 + 2 + 12 bytes), ZeRO over all `numGpus`, partitions of ⌈Ψ/N⌉ elements;
 * - stored activations: "Activations", L layers of the GPT-layer count with
 *   16-bit activations, t = 1; FlashAttention stores no a·s² tensors (its
 *   stored layer is the selective count);
 * - peak: "Peak memory, not only the steady state". Three phases do not
 *   overlap, and the peak is steady + "always" + the larger of "layer" and
 *   "output":
 *   - "layer", the layer rebuilt in backward: with full recomputation one
 *     whole layer, sbh(34 + 5as/h) with eager attention and 34·sbh with
 *     FlashAttention; with selective recomputation the attention core,
 *     5as²b, with eager attention and nothing with FlashAttention (it stores
 *     and rebuilds no a·s² tensor); with no recomputation nothing; plus, with
 *     eager attention, the fp32 softmax of one layer, 4·a·s²·b;
 *   - "output": the fp32 logits and their gradient, 8·b·s·V;
 *   - "always": for ZeRO-3 the gathered layer, 4 bytes × the largest single
 *     weight matrix (for these models max(V·h, h·I, h·a·d)); otherwise nothing.
 * Every byte count is an exact integer (round up once, where a count is a fraction).
 *
 * Errors: RangeError naming the field for a bad run or cluster (`numGpus must
 * be an integer >= 1, got 0`, `gpuMemoryBytes must be a number > 0, got -1`);
 * RangeError for a `model_type` other than llama or mistral; TypeError for a
 * missing required field (`config.json: field "hidden_size" is missing …`).
 *
 * Example: Llama-2-13B's config.json, ZeRO-2, micro-batch 8, sequences of 2048,
 * full recomputation, eager attention, on 8 GPUs of 80 GiB:
 * { params: 13015864320, steadyBytes: 55520377600, peakBytes: 70452099840, fits: true }.
 *
 * @param config the parsed config.json (do not modify it)
 * @param run see {@link RunSpec}
 * @param cluster see {@link Cluster}
 * @returns a new {@link FitAnswer}
 */
export function doesItFit(config: Record<string, unknown>, run: RunSpec, cluster: Cluster): FitAnswer {
  return notImplemented("2.5");
}
