import type { Recompute } from "./activationBytes.js";

/**
 * Peak dense fp16/bf16 Tensor Core throughput of one NVIDIA A100, in FLOP/s
 * (624 T is the figure "with sparsity", which dense training does not use).
 * @example A100_DENSE_FP16_FLOPS / 1e12 // 312
 * @see NVIDIA A100 Tensor Core GPU datasheet (FP16 / BF16 Tensor Core: 312 TFLOPS, 624 with sparsity)
 */
export const A100_DENSE_FP16_FLOPS = 312e12;

function check(name: string, v: number, positive: boolean): void {
  if (typeof v !== "number" || !Number.isFinite(v) || (positive ? v <= 0 : v < 0)) {
    throw new RangeError(`${name} must be a finite number ${positive ? "> 0" : ">= 0"}, got ${v}`);
  }
}

/**
 * Training FLOPs per token of a dense transformer of Ψ parameters: 6Ψ (forward
 * 2Ψ, backward 4Ψ: one multiply-add per parameter per token, twice in
 * backward), and 8Ψ with full recomputation (one more forward). The count
 * leaves out attention's s-dependent FLOPs (the QKᵀ and PV products, 12·L·h·s per
 * token, PaLM Appendix B) and includes an untied input-embedding table, which costs no
 * matmul; for the models the notes benchmark (billions of parameters, s = 2048) the
 * first term dominates and 6Ψ falls below the real work, which is what a plausibility
 * check needs; for a small untied model with a large vocabulary it overcounts
 * (Pythia-70M at s = 2048: 1.23 × PaLM's count). lib/perf's `palmFlopsPerToken` counts both.
 * Selective recomputation re-runs only that left-out attention core: 6Ψ.
 *
 * @param params Ψ, parameters
 * @param recompute "none" | "selective" | "full" (default "none")
 * @returns FLOPs per token
 * @throws RangeError `params must be a finite number > 0, got 0`; `recompute must be none, selective or full, got "x"`
 * @example trainingFlopsPerToken(13015864320) // 78095185920 (6Ψ)
 * @example trainingFlopsPerToken(13015864320, "full") // 104126914560 (8Ψ)
 * @see Kaplan et al. 2020, *Scaling Laws for Neural Language Models*, §2.1 (C ≈ 6N per token);
 *   Narayanan et al. 2021, *Megatron-LM*, §5.1 (activation recomputation adds a forward pass); EleutherAI, *Transformer Math 101*
 */
export function trainingFlopsPerToken(params: number, recompute: Recompute = "none"): number {
  check("params", params, true);
  if (!["none", "selective", "full"].includes(recompute)) throw new RangeError(`recompute must be none, selective or full, got ${JSON.stringify(recompute)}`);
  return (recompute === "full" ? 8 : 6) * params;
}

/**
 * A measured training run, as the notes print it.
 * @see {@link achievedFlopsPerGpu}
 */
export interface ThroughputRun {
  /** Training samples per second, all GPUs together (Hugging Face's `train_samples_per_second`). */
  samplesPerSecond: number;
  /** Tokens per sample (the sequence length when every sample is packed to full length). */
  tokensPerSample: number;
  numGpus: number;
  recompute?: Recompute;
}

/**
 * FLOP/s each GPU must have sustained for a model of Ψ parameters to train at
 * a measured rate: flopsPerToken(Ψ) × samples/s × tokens per sample ÷ GPUs.
 * Above the GPU's peak, the model cannot have had Ψ parameters.
 *
 * @param params Ψ
 * @param run see {@link ThroughputRun}
 * @returns FLOP/s per GPU
 * @throws RangeError as {@link trainingFlopsPerToken}, and `samplesPerSecond must be a finite number > 0, got -1` (same for tokensPerSample, numGpus)
 * @example achievedFlopsPerGpu(13015864320, { samplesPerSecond: 31.297, tokensPerSample: 2048, numGpus: 8 }) / 1e12 // 625.7 (TFLOP/s, > 312)
 * @see Kaplan et al. 2020, §2.1; Chowdhery et al. 2022, *PaLM*, Appendix B (model FLOPs utilisation)
 */
export function achievedFlopsPerGpu(params: number, run: ThroughputRun): number {
  check("samplesPerSecond", run.samplesPerSecond, true);
  check("tokensPerSample", run.tokensPerSample, true);
  check("numGpus", run.numGpus, true);
  return (trainingFlopsPerToken(params, run.recompute ?? "none") * run.samplesPerSecond * run.tokensPerSample) / run.numGpus;
}

/**
 * The largest Ψ a run could have trained at its measured rate if every GPU ran at
 * `peakFlopsPerGpu` the whole time (100% utilisation, an upper bound).
 * @param run see {@link ThroughputRun}
 * @param peakFlopsPerGpu e.g. {@link A100_DENSE_FP16_FLOPS}
 * @returns parameters (rounded down to an integer)
 * @throws RangeError `peakFlopsPerGpu must be a finite number > 0, got 0`, and those of {@link achievedFlopsPerGpu}
 * @example largestPlausibleParams({ samplesPerSecond: 31.297, tokensPerSample: 2048, numGpus: 8 }, 312e12) // 6490238681 (6.5e9)
 * @see Kaplan et al. 2020, §2.1
 */
export function largestPlausibleParams(run: ThroughputRun, peakFlopsPerGpu: number): number {
  check("peakFlopsPerGpu", peakFlopsPerGpu, true);
  const perParam = achievedFlopsPerGpu(1, run);
  return Math.floor(peakFlopsPerGpu / perParam);
}
