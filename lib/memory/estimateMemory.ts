import type { ModelArch } from "./modelArch.js";
import { largestLayerParams, parameterCount } from "./parameterCount.js";
import { architectureNotes } from "./architectureNotes.js";
import { bytesPerParam, modelStateBytes, type AmpDesign, type Offload, type OptimizerName, type Precision, type ZeroStage } from "./modelStateBytes.js";
import { type Recompute } from "./activationBytes.js";
import { firstStageActivationBytes, inFlightChunks, type PipelineSchedule } from "./firstStageActivationBytes.js";
import { peakBytes, transientBytes, type Attention, type LossKernel, type TransientLine } from "./peakMemory.js";
import { checkTensorParallelSize, tpModelConfig } from "../tensor-parallel/config.js";

/**
 * A training set-up to size. Either `arch` (a parsed config.json) or `params` must be given.
 * @see the sources of {@link CONVENTION}: Rajbhandari et al. 2019, *ZeRO*, §3 and Figure 1 (model states); Korthikanti et al. 2022, §4, Table 2 (activations)
 */
export interface TrainingSetup {
  /** The model; activations need it. */
  arch?: ModelArch;
  /** Parameter count Ψ; defaults to parameterCount(arch).total. */
  params?: number;
  /** All GPUs: data × tensor × pipeline parallel. */
  numGpus: number;
  zeroStage: ZeroStage;
  offload?: Offload;
  precision: Precision;
  optimizer: OptimizerName;
  /** b, sequences per GPU per micro-batch. */
  microBatch: number;
  /** s, tokens per sequence. */
  seqLen: number;
  recompute?: Recompute;
  /** t, tensor-parallel size (default 1). */
  tensorParallel?: number;
  /** p, pipeline-parallel size (default 1). */
  pipelineParallel?: number;
  sequenceParallel?: boolean;
  /** m, micro-batches per step (gradient-accumulation steps) for the pipeline's in-flight activations (default p: a full 1F1B pipeline). */
  microBatches?: number;
  /** Pipeline schedule for the activations of the first stage (default "1f1b"). */
  pipelineSchedule?: PipelineSchedule;
  /** v, model chunks per stage with pipelineSchedule "interleaved" (default 2). */
  virtualStages?: number;
  /** "eager" (default: Hugging Face's eager attention, the scores materialised) or "flash" (FlashAttention). */
  attention?: Attention;
  /** Mixed-precision design, default "deepspeed" (16-bit model, fp32 master in the optimizer); "torch" = PyTorch AMP with DDP, zeroStage 0. */
  ampDesign?: AmpDesign;
  /** Whose cross-entropy the output runs: "hf" (default, Hugging Face's ForCausalLMLoss) or "megatron" (Megatron-LM's vocab-parallel kernel). */
  loss?: LossKernel;
  /** PyTorch DDP's `gradient_as_bucket_view` (default false, PyTorch's default): true removes the bucket copy of the gradients. */
  gradientAsBucketView?: boolean;
}

/**
 * Bytes per GPU, in the house order.
 * @see the sources of {@link CONVENTION}: Rajbhandari et al. 2019, *ZeRO*, §3 and Figure 1 (model states); Korthikanti et al. 2022, §4, Table 2 (activations)
 */
export interface MemoryBreakdown {
  parameters: number;
  gradients: number;
  optimizerStates: number;
  /** PyTorch DDP's all-reduce buckets: a second copy of the gradients unless gradient_as_bucket_view (ampDesign "torch", more than one GPU). */
  gradientBuckets: number;
  /** Stored activations (checkpoints under recomputation). */
  activations: number;
  /** Steady state: the sum of the lines above. */
  total: number;
}

/**
 * The peak per GPU: the transient lines and their total.
 * @see {@link transientBytes} and {@link peakBytes}
 */
export interface PeakEstimate {
  lines: TransientLine[];
  /** Steady state + "always" lines + the larger of the output and layer phases. */
  total: number;
}

/**
 * The estimate: bytes per GPU, the parallel layout, CPU bytes moved by offload, and notes.
 * @see the sources of {@link CONVENTION}: Rajbhandari et al. 2019, *ZeRO*, §3 and Figure 1 (model states); Korthikanti et al. 2022, §4, Table 2 (activations)
 */
export interface MemoryEstimate {
  params: number;
  perGpu: MemoryBreakdown;
  /** N_d = numGpus / (t · p). */
  dataParallel: number;
  /** Parameters held by one tensor/pipeline shard: Ψ / (t · p), rounded up. */
  paramsPerShard: number;
  cpuBytesPerGpu: number;
  /** The peak of one step, beside the steady state `perGpu.total`. */
  peak: PeakEstimate;
  notes: string[];
}

/**
 * The convention every figure of this chapter follows, in one sentence.
 * @example CONVENTION.startsWith("Bytes per GPU.") // true
 * @see Rajbhandari et al. 2019, *ZeRO*, §3 and Figure 1 (model states); Korthikanti et al. 2022, §4, Table 2 (activations)
 */
export const CONVENTION =
  "Bytes per GPU. Model states after ZeRO (Rajbhandari et al. 2019): in the default DeepSpeed/Megatron design mixed precision keeps 16-bit weights and gradients and fp32 master weights plus optimizer states (K = 12 for AdamW); PyTorch AMP (ampDesign torch) keeps fp32 weights and gradients and Adam's 8 bytes, plus DDP's bucket copy of the gradients; fp32 keeps everything at 4 bytes without a master copy; a partition is a whole number of elements, rounded up. Tensor and pipeline parallelism divide the parameters evenly (Ψ/(t·p)). Activations after Korthikanti et al. 2022 (GPT layer, 16-bit activations for fp16/bf16 and 32-bit for fp32, 1-byte dropout masks), excluding embeddings, logits and loss, which the peak adds: the layer rebuilt in backward, the fp32 softmax of eager attention, the fp32 logits and their gradient, ZeRO-3's gathered layer and autocast's 16-bit weight copies. Not included: CUDA context, other communication buffers, other temporary tensors, fragmentation.";

function need(name: string, v: number | undefined, min: number): number {
  if (v === undefined || !Number.isSafeInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${v}`);
  return v;
}

/** FlashAttention stores no a·s² tensors: its stored set is the selective-recomputation count (Korthikanti Table 2 without 5as/h). */
function flashStored(recompute: Recompute, attention: Attention): Recompute {
  return attention === "flash" && recompute === "none" ? "selective" : recompute;
}

/**
 * Whether an estimate fits in a GPU's memory, judged by its PEAK (not its steady state).
 * @param estimate from {@link estimateMemory}
 * @param gpuBytes usable bytes of one GPU (e.g. 80 · 2^30)
 * @returns true when `estimate.peak.total <= gpuBytes`
 * @throws RangeError `gpuBytes must be a finite number > 0, got 0`
 * @example fitsInMemory(estimateMemory({ arch: llama2_13b, numGpus: 8, zeroStage: 2, precision: "fp16", optimizer: "adamw", microBatch: 8, seqLen: 2048, recompute: "full" }), 80 * GiB) // true: peak 65.61 GiB
 * @see {@link PeakEstimate}
 */
export function fitsInMemory(estimate: Pick<MemoryEstimate, "peak">, gpuBytes: number): boolean {
  if (!Number.isFinite(gpuBytes) || gpuBytes <= 0) throw new RangeError(`gpuBytes must be a finite number > 0, got ${gpuBytes}`);
  return estimate.peak.total <= gpuBytes;
}

/**
 * Memory per GPU for training a model: parameters, gradients, optimizer
 * states (ZeRO stage, offload, precision, optimizer) and activations
 * (Korthikanti), with tensor and pipeline parallelism.
 *
 * The GPUs form N_d × t × p; model states are those of Ψ/(t·p) parameters
 * partitioned by ZeRO over N_d; activations are those of L layers of one
 * micro-batch on the FIRST pipeline stage, which holds the most: {@link firstStageActivationBytes}
 * for `microBatches` (default p, i.e. L layers' worth under 1F1B) and `pipelineSchedule`; 0 with a note when no `arch` is given.
 * Beside this steady state, `peak` adds the transient lines of {@link transientBytes}.
 *
 * @param s see {@link TrainingSetup}
 * @returns the breakdown and notes; every byte count is an integer
 * @throws RangeError `numGpus (6) must be a multiple of tensorParallel × pipelineParallel (4)`,
 *   `tensorParallel (3) cannot split this model (Megatron-LM's rule): numHeads (40) must be divisible by T (3); valid T for this config: 1, 2, 4, 8`
 *   (the rule is {@link checkTensorParallelSize}'s, the one the planner and chapter 6 use), `pipelineParallel (3) must divide num_hidden_layers (40)`,
 *   `give arch or params`, and those of modelStateBytes / activationBytes
 * @example estimateMemory({ arch: llama2_13b, numGpus: 8, zeroStage: 2, precision: "fp16", optimizer: "adamw", microBatch: 8, seqLen: 2048, recompute: "full" }).perGpu.total
 *   // steady 26,031,728,640 + 3,253,966,080 + 19,523,796,480 + 6,710,886,400 = 55,520,377,600 bytes (51.71 GiB);
 *   // .peak.total 70,452,099,840 (65.61 GiB: + the rebuilt layer 8.91 and the fp32 softmax 5.00, eager attention)
 * @see Rajbhandari et al. 2019 (ZeRO), Korthikanti et al. 2022, Narayanan et al. 2021 (3D parallelism)
 */
export function estimateMemory(s: TrainingSetup): MemoryEstimate {
  const notes: string[] = [];
  const numGpus = need("numGpus", s.numGpus, 1);
  const t = need("tensorParallel", s.tensorParallel ?? 1, 1);
  const p = need("pipelineParallel", s.pipelineParallel ?? 1, 1);
  need("microBatch", s.microBatch, 1);
  need("seqLen", s.seqLen, 1);
  if (numGpus % (t * p) !== 0) throw new RangeError(`numGpus (${numGpus}) must be a multiple of tensorParallel × pipelineParallel (${t * p})`);
  if (s.arch) {
    try {
      checkTensorParallelSize(tpModelConfig(s.arch), t);
    } catch (e) {
      throw new RangeError(`tensorParallel (${t}) cannot split this model (Megatron-LM's rule): ${(e as Error).message}`);
    }
    if (s.arch.numLayers % p !== 0) throw new RangeError(`pipelineParallel (${p}) must divide num_hidden_layers (${s.arch.numLayers})`);
  }
  const params = s.params ?? (s.arch ? parameterCount(s.arch).total : undefined);
  if (params === undefined) throw new RangeError("give arch or params: the parameter count is needed");
  need("params", params, 0);
  const dataParallel = numGpus / (t * p);
  const paramsPerShard = Math.ceil(params / (t * p));
  const states = modelStateBytes({
    params: paramsPerShard, dataParallel, zeroStage: s.zeroStage, precision: s.precision, optimizer: s.optimizer, offload: s.offload ?? "none",
    ampDesign: s.ampDesign ?? "deepspeed",
  });
  const attention = s.attention ?? "eager";
  if (attention !== "eager" && attention !== "flash") throw new RangeError(`attention must be eager or flash, got ${JSON.stringify(attention)}`);
  const torchAmp = (s.ampDesign ?? "deepspeed") === "torch" && s.precision !== "fp32";
  let activations = 0;
  if (s.arch) {
    const pipe = { numLayers: s.arch.numLayers, pipelineParallel: p, microBatches: s.microBatches, schedule: s.pipelineSchedule, virtualStages: s.virtualStages };
    activations = firstStageActivationBytes({
      seqLen: s.seqLen, microBatch: s.microBatch, hiddenSize: s.arch.hiddenSize, numHeads: s.arch.numHeads, ...pipe,
      tensorParallel: t, sequenceParallel: s.sequenceParallel ?? false, recompute: flashStored(s.recompute ?? "none", attention),
      bytesPerElement: s.precision === "fp32" ? 4 : 2,
    });
    if (p > 1 || s.microBatches !== undefined) {
      const v = s.virtualStages ?? (s.pipelineSchedule === "interleaved" ? 2 : 1), chunks = inFlightChunks(pipe);
      notes.push(`activations: the first pipeline stage's peak (the most loaded stage), ${chunks} chunk${chunks === 1 ? "" : "s"} of ${s.arch.numLayers / (p * v)} layer${s.arch.numLayers / (p * v) === 1 ? "" : "s"} in flight ` +
        `(${s.pipelineSchedule ?? "1f1b"}, ${s.microBatches ?? p} micro-batches, p = ${p}${v > 1 ? `, v = ${v}` : ""}) = ${(chunks * s.arch.numLayers) / (p * v)} layers' worth; Korthikanti et al. 2022 §4.2.3`);
    }
    notes.push(...architectureNotes(s.arch));
  } else {
    notes.push("activations: 0 (no architecture given: activations need hidden size, heads and layers from a config.json)");
  }
  if (s.sequenceParallel && t === 1) notes.push("sequence parallelism has no effect with tensorParallel 1");
  const { parameters, gradients, optimizerStates } = states;
  const gradientBuckets = (s.ampDesign ?? "deepspeed") === "torch" && dataParallel > 1 && !s.gradientAsBucketView ? gradients : 0;
  const total = parameters + gradients + optimizerStates + gradientBuckets + activations;
  // The 16-bit model (or fp32 training) gathers weights and gradients at their own width: 2 + 2 or 4 + 4 bytes.
  const working = bytesPerParam(s.precision, s.optimizer, s.ampDesign ?? "deepspeed");
  const lines = transientBytes({
    arch: s.arch, paramsPerShard, seqLen: s.seqLen, microBatch: s.microBatch, tensorParallel: t, sequenceParallel: s.sequenceParallel ?? false,
    recompute: s.recompute ?? "none", attention, bytesPerElement: s.precision === "fp32" ? 4 : 2, zeroStage: s.zeroStage,
    gatheredBytesPerParam: working.parameters + working.gradients, largestLayerParams: s.arch ? Math.ceil(largestLayerParams(s.arch) / t) : 0,
    autocastCasts: torchAmp, loss: s.loss ?? "hf",
  });
  if (!s.arch && s.zeroStage === 3) notes.push("ZeRO-3's gathered layer: unknown without an architecture (give a config.json)");
  return {
    params,
    perGpu: { parameters, gradients, optimizerStates, gradientBuckets, activations, total },
    dataParallel, paramsPerShard, cpuBytesPerGpu: states.cpuBytes,
    peak: { lines, total: peakBytes(total, lines) },
    notes,
  };
}
