import type { ModelArch } from "./modelArch.js";
import { activationBytesPerLayer, type Recompute } from "./activationBytes.js";

/**
 * How attention is computed: "eager" materialises the a·s² scores (Hugging Face's
 * `eager_attention_forward`, which upcasts the softmax to fp32); "flash" is
 * FlashAttention, which never stores them (Dao et al. 2022, Theorem 1).
 * @see Dao et al. 2022, *FlashAttention*, §3.1 and Theorem 1; Hugging Face Transformers `modeling_llama.py` (`eager_attention_forward`)
 */
export type Attention = "eager" | "flash";

/**
 * Whose cross-entropy computes the loss: Hugging Face's `ForCausalLMLoss` ("hf", fp32 logits and
 * their fp32 gradient) or Megatron-LM's vocab-parallel kernel ("megatron": one fp32 softmax, kept
 * for backward and overwritten by the gradient in place, beside the 16-bit logits).
 * @see {@link transientBytes}
 */
export type LossKernel = "hf" | "megatron";

/**
 * When a transient line is alive: on top of the steady state "always"; at the
 * "output" (the loss and its gradient, before the backward reaches the last
 * layer); or while one "layer" runs (its forward, or its recomputation in
 * backward). The output and layer phases do not overlap in time.
 * @see {@link transientBytes}
 */
export type PeakPhase = "always" | "output" | "layer";

/**
 * One named transient line of the peak, with its source.
 * @see {@link transientBytes}
 */
export interface TransientLine {
  /** Stable key, e.g. "recomputedLayer". */
  name: string;
  /** Bytes on one GPU (an integer). */
  bytes: number;
  phase: PeakPhase;
  /** One line for a reader: what these bytes are. */
  what: string;
  /** The primary source of the count. */
  source: string;
}

/**
 * Options of {@link transientBytes}: the model and the set-up of one GPU.
 * @see {@link transientBytes}
 */
export interface TransientOptions {
  /** The model; without it only the parameter-based lines are known. */
  arch?: ModelArch;
  /** Parameters this GPU's model shard holds, Ψ/(t·p). */
  paramsPerShard: number;
  seqLen: number;
  microBatch: number;
  tensorParallel: number;
  sequenceParallel: boolean;
  recompute: Recompute;
  attention: Attention;
  /** 2 (fp16/bf16 activations) or 4 (fp32). */
  bytesPerElement: 2 | 4;
  zeroStage: 0 | 1 | 2 | 3;
  /** Bytes per parameter of the working weights and their gradients (2 + 2 in the 16-bit model, 4 + 4 in fp32). */
  gatheredBytesPerParam: number;
  /** Largest single layer's parameters (for the ZeRO-3 gathered layer). */
  largestLayerParams: number;
  /** PyTorch AMP (autocast): 16-bit copies of the fp32 weights live during forward. */
  autocastCasts: boolean;
  /** Whose cross-entropy runs at the output (default "hf"). */
  loss?: LossKernel;
}

/**
 * The transient memory of one training step that a steady-state count leaves
 * out, as named lines (bytes per GPU, each with its phase and source).
 *
 * - recomputedLayer (layer): with full recomputation the backward rebuilds one
 *   whole layer, sbh(34 + 5as/h) bytes eager or 34·sbh with FlashAttention
 *   (Korthikanti et al. 2022, §4.1 Eq. 1 and §5); with selective recomputation
 *   the attention core of one layer, 5as²b; with none, nothing is rebuilt.
 * - attentionScoresFp32 (layer, eager attention of Llama-style models): the fp32
 *   softmax output of one layer, 4·a·s²·b/t bytes, before it is cast back to 16 bits.
 * - logitsFp32 (output): the fp32 logits and their gradient, 2 · 4·b·s·V/t; with Megatron-LM's
 *   kernel the 16-bit logits beside one fp32 softmax that becomes the gradient in place, (2 + 4)·b·s·V/t
 *   (4·b·s·V/t in fp32 training, where the logits are already fp32).
 * - gatheredLayer (always, ZeRO-3): the largest layer's gathered 16-bit weights
 *   and gradients, DeepSpeed's `4 * largest_layer_params`.
 * - autocastCasts (always, PyTorch AMP): 2 bytes per parameter of 16-bit weight copies.
 *
 * @param o see {@link TransientOptions}
 * @returns the lines, in this order, with zero-byte lines left out
 * @example transientBytes({ arch: llama2_13b, paramsPerShard: 13015864320, seqLen: 2048, microBatch: 8, tensorParallel: 1, sequenceParallel: false,
 *   recompute: "full", attention: "eager", bytesPerElement: 2, zeroStage: 2, gatheredBytesPerParam: 4, largestLayerParams: 163840000, autocastCasts: false })
 *   .map((l) => l.bytes) // [9563013120 (8.91 GiB), 5368709120 (5.00 GiB), 4194304000 (3.91 GiB)]
 * @see Korthikanti et al. 2022, §4.1 and §5; Hugging Face `modeling_llama.py` (`# upcast attention to fp32`) and `loss_utils.py` (`logits.float()`);
 *   DeepSpeed docs, "Memory Requirements" (`largest_layer_memory = 4*largest_layer_params`); PyTorch `autocast_mode.cpp` (cached casts)
 */
export function transientBytes(o: TransientOptions): TransientLine[] {
  const lines: TransientLine[] = [];
  const t = o.tensorParallel;
  if (o.arch) {
    const { hiddenSize: h, numHeads: a, vocabSize: V } = o.arch;
    const { seqLen: s, microBatch: b } = o;
    const perLayer = { seqLen: s, microBatch: b, hiddenSize: h, numHeads: a, tensorParallel: t, sequenceParallel: o.sequenceParallel, bytesPerElement: o.bytesPerElement };
    const attentionCore = activationBytesPerLayer({ ...perLayer, recompute: "none" }) - activationBytesPerLayer({ ...perLayer, recompute: "selective" });
    let rebuilt = 0;
    if (o.recompute === "full") rebuilt = activationBytesPerLayer({ ...perLayer, recompute: o.attention === "flash" ? "selective" : "none" });
    else if (o.recompute === "selective" && o.attention === "eager") rebuilt = attentionCore;
    if (rebuilt > 0) {
      lines.push({
        name: "recomputedLayer", bytes: rebuilt, phase: "layer",
        what: o.recompute === "full"
          ? `one layer rebuilt during backward: ${o.attention === "flash" ? "34·sbh (FlashAttention keeps no scores)" : "sbh(34 + 5as/h)"}`
          : "one layer's attention core rebuilt during backward: 5as²b",
        source: "Korthikanti et al. 2022, §4.1 (Eq. 1) and §5",
      });
    }
    // Verified for Llama-style models (HF's Llama/Mistral eager attention upcasts the softmax); GPT-2's eager path keeps the input dtype.
    if (o.attention === "eager" && o.arch.family === "llama") {
      lines.push({
        name: "attentionScoresFp32", bytes: Math.ceil((4 * a * s * s * b) / t), phase: "layer",
        what: "one layer's softmax computed in fp32, 4·a·s²·b, before its cast back to 16 bits",
        source: "Hugging Face modeling_llama.py, eager_attention_forward (softmax dtype=torch.float32)",
      });
    }
    lines.push(o.loss === "megatron" ? {
      name: "logitsFp32", bytes: Math.ceil(((o.bytesPerElement === 4 ? 4 : o.bytesPerElement + 4) * b * s * V) / t), phase: "output",
      what: o.bytesPerElement === 4 ? "fp32 logits, whose softmax becomes the gradient in place, 4·b·s·V" : "16-bit logits and one fp32 softmax that becomes the gradient in place, (2 + 4)·b·s·V",
      source: "Megatron-LM megatron/core/tensor_parallel/cross_entropy.py (_VocabParallelCrossEntropy: logits.float(), the softmax saved, its backward writes the gradient into it) at d98e8a6",
    } : {
      name: "logitsFp32", bytes: Math.ceil((2 * 4 * b * s * V) / t), phase: "output",
      what: "fp32 logits and their gradient at the output, 2 · 4·b·s·V",
      source: "Hugging Face loss_utils.py ForCausalLMLoss (logits upcast to fp32 for the loss); cross-entropy's gradient has the logits' shape",
    });
  }
  if (o.zeroStage === 3) {
    lines.push({
      name: "gatheredLayer", bytes: o.gatheredBytesPerParam * o.largestLayerParams, phase: "always",
      what: "ZeRO-3: the largest layer's gathered weights and its gradients",
      source: "DeepSpeed docs, Memory Requirements: largest_layer_memory = 4*largest_layer_params",
    });
  }
  if (o.autocastCasts) {
    lines.push({
      name: "autocastCasts", bytes: 2 * o.paramsPerShard, phase: "always",
      what: "16-bit copies of the fp32 weights that autocast makes in forward",
      source: "PyTorch aten/src/ATen/autocast_mode.cpp (cache of lower-precision casts of fp32 weights)",
    });
  }
  return lines.filter((l) => l.bytes > 0);
}

/**
 * The peak bytes per GPU: the steady state, every "always" line, and the larger
 * of the "output" and "layer" phases (they do not overlap). An upper bound in
 * one respect: the whole stored set is counted beside either phase.
 * @param steadyBytes the steady-state total (model states and stored activations)
 * @param lines from {@link transientBytes}
 * @returns bytes (an integer)
 * @example peakBytes(55520377600, [{ bytes: 9563013120, phase: "layer" }, { bytes: 5368709120, phase: "layer" }, { bytes: 4194304000, phase: "output" }] as TransientLine[])
 *   // 55520377600 + 14931722240 = 70452099840 (65.61 GiB)
 * @see {@link transientBytes}
 */
export function peakBytes(steadyBytes: number, lines: readonly TransientLine[]): number {
  const sum = (phase: PeakPhase) => lines.filter((l) => l.phase === phase).reduce((acc, l) => acc + l.bytes, 0);
  return steadyBytes + sum("always") + Math.max(sum("output"), sum("layer"));
}
