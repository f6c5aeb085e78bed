import { parameterCount, type ModelArch } from "../memory/index.js";
import { palmFlopsPerToken } from "../perf/index.js";
import { clusterOf, type Cluster } from "./clusterPresets.js";
import { evaluatePlan } from "./evaluatePlan.js";
import { gptArch } from "./gptArch.js";
import { planSizes, type Plan, type Workload } from "./planLabel.js";
import { stepTime, type RuntimeOptions } from "./stepTime.js";

/**
 * A training run whose layout and throughput were published, as the planner can replay it.
 * @see {@link PUBLISHED_RUNS}
 */
export interface PublishedRun {
  id: string;
  name: string;
  arch: ModelArch;
  cluster: Cluster;
  workload: Workload;
  plan: Plan;
  runtime: RuntimeOptions;
  /** The published figure and how it counts: TFLOP/s per GPU with 8Ψ per token (recomputation counted), tokens per second, or PaLM's MFU. */
  published: { metric: "tflops-8psi" | "tokens-per-s" | "palm-mfu"; value: number };
  /** Where every figure comes from, and what the replay assumes. */
  source: string;
  assumptions: string;
}

const GiB = 2 ** 30, TiB = 2 ** 40;

/**
 * Published runs the planner is checked against, beside Narayanan et al.'s Table 1:
 * - BLOOM-176B: 384 A100 80GB (48 nodes, 4 × 100 Gb/s Omni-Path each), t = 4, p = 12, d = 8,
 *   micro-batch 2, global batch 2,048 × 2,048, bf16, ZeRO-1 (DeepSpeed's BF16 optimizer), full
 *   recomputation, dropout 0.1, about 150 TFLOP/s per GPU counted as 8Ψ per token;
 * - MPT-70B: 64 H100 80GB, FSDP FULL_SHARD, checkpointing, micro-batch 8 × 4, s = 2048,
 *   66,523 tokens/s (llm-foundry's benchmark table);
 * - Llama 3 405B: 8,192 H100 80GB, t = 8, p = 16, d = 64, s = 8,192, 32 sequences per
 *   data-parallel rank, no recomputation, 43 % BF16 MFU (430 TFLOP/s per GPU).
 * @example PUBLISHED_RUNS.map((r) => r.id) // ["bloom-176b", "mpt-70b", "llama3-405b"]
 * @see BigScience, bigscience-workshop/bigscience `train/tr11-176B-ml/README.md` and `tr11-176B-ml.slurm` (layout, batch, hardware,
 *   "4*2" TFLOPs); BigScience 176B model notion page ("training throughput: about 150 TFLOPs"); MosaicML llm-foundry
 *   `scripts/train/benchmarking/README.md` and `yamls/pretrain/mpt-70b.yaml`; Dubey et al. 2024, *The Llama 3 Herd of Models*, §3.3 and Tables 3–4
 */
export const PUBLISHED_RUNS: readonly PublishedRun[] = Object.freeze([
  {
    id: "bloom-176b", name: "BLOOM-176B (BigScience, 2022)",
    arch: { ...gptArch({ hiddenSize: 14336, numLayers: 70, numHeads: 112, vocabSize: 250880, seqLen: 2048 }), learnedPositions: 0 },
    cluster: clusterOf("a100-80gb", 8, 48, "net-50g", 512 * GiB),
    workload: { globalBatch: 2048, seqLen: 2048, precision: "bf16", optimizer: "adamw" },
    plan: { dataParallel: 8, tensorParallel: 4, pipelineParallel: 12, zeroStage: 1, offload: "none", recompute: "full", sequenceParallel: false, attention: "eager", microBatch: 2, gradAccum: 128 },
    runtime: { balanceEdgeStages: true, tpBackwardOverlap: false, overlapGradReduce: false, dropout: true },
    published: { metric: "tflops-8psi", value: 150 },
    source: "tr11-176B-ml README and slurm script (TP 4, PP 12, DP 8, MBS 2, GBS 2048, 70 layers, h 14336, 112 heads, vocabulary padded to 250,880, bf16, ZeRO-1 in the BF16 optimizer, 'type:transformer|embedding' partition, 4 Omni-Path links per node); about 150 TFLOPs per GPU with the '4*2' coefficient (BigScience notion page)",
    assumptions: "Megatron-DeepSpeed of 2022: tensor-parallel and data-parallel collectives not overlapped; NVSwitch inside a node; eager attention (no FlashAttention in 2022)",
  },
  {
    id: "mpt-70b", name: "MPT-70B (MosaicML llm-foundry benchmark)",
    arch: { ...gptArch({ hiddenSize: 8192, numLayers: 80, numHeads: 64, vocabSize: 50368, seqLen: 2048 }), learnedPositions: 0, attentionBias: false, mlpBias: false },
    cluster: clusterOf("h100-80gb", 8, 8, "net-400g", 2 * TiB),
    workload: { globalBatch: 2048, seqLen: 2048, precision: "bf16", optimizer: "adamw" },
    plan: { dataParallel: 64, tensorParallel: 1, pipelineParallel: 1, zeroStage: 3, offload: "none", recompute: "full", sequenceParallel: false, attention: "flash", microBatch: 8, gradAccum: 4 },
    runtime: { dropout: false },
    published: { metric: "tokens-per-s", value: 66523 },
    source: "llm-foundry scripts/train/benchmarking/README.md, H100 80GB BF16 table (70b, 64 GPUs, 2048 tokens, 66,523 tokens/s, MFU 42.57 %); mpt-70b.yaml (d_model 8192, 64 heads, 80 layers, ALiBi, no biases, no dropout)",
    assumptions: "PyTorch FSDP FULL_SHARD timed as ZeRO-3 (3Ψ per micro-batch, prefetched); 400 Gb/s per GPU between nodes",
  },
  {
    id: "llama3-405b", name: "Llama 3 405B (Meta, 2024), 8,192 GPUs",
    arch: { family: "llama", modelType: "llama", vocabSize: 128256, hiddenSize: 16384, intermediateSize: 53248, numLayers: 126, numHeads: 128, numKvHeads: 8, headDim: 128, learnedPositions: 0, tiedEmbeddings: false, attentionBias: false, mlpBias: false, norm: "rmsnorm", mlp: "gated" },
    cluster: clusterOf("h100-80gb", 8, 1024, "net-400g", 2 * TiB),
    workload: { globalBatch: 2048, seqLen: 8192, precision: "bf16", optimizer: "adamw" },
    plan: { dataParallel: 64, tensorParallel: 8, pipelineParallel: 16, zeroStage: 1, offload: "none", recompute: "none", sequenceParallel: true, attention: "flash", microBatch: 1, gradAccum: 32 },
    runtime: { balanceEdgeStages: true, virtualStages: 2 },
    published: { metric: "palm-mfu", value: 0.43 },
    source: "Dubey et al. 2024, Table 3 (126 layers, model dimension 16,384, FFN 53,248, 128 heads, 8 KV heads, vocabulary 128K) and Table 4 (8,192 GPUs, TP 8, CP 1, PP 16, DP 64, sequence 8,192, 32 sequences per DP group, 16M tokens per batch, 430 TFLOP/s per GPU, BF16 MFU 43 %); §3.3.2 (interleaved schedule, one layer fewer on the first and last stages, no activation checkpointing at 8K); §3.3.1 (400 Gb/s RoCE between GPUs)",
    assumptions: "their FSDP (gradients and optimizer states sharded) timed as Megatron's distributed optimizer; sequence parallelism on; V = 2 chunks per rank (the paper does not print V: 8 layers per rank allow 2, 4 or 8, and more chunks predict more)",
  },
].map((r) => Object.freeze(r as PublishedRun)));

/**
 * A published run replayed by the planner: its step time ({@link stepTime} with the run's runtime),
 * the predicted figure in the published metric, the ratio, and the memory per GPU (lib/memory's
 * estimate; when p does not divide the layers, with the layer count rounded up to a multiple of p,
 * an upper bound).
 * @param run one of {@link PUBLISHED_RUNS}
 * @returns `{predicted, published, ratio, mfu, fits, peakBytes, totalS}`: `ratio` = predicted / published
 * @throws the errors of stepTime and evaluatePlan
 * @example predictPublishedRun(PUBLISHED_RUNS[1]).ratio // MPT-70B: predicted over measured tokens/s
 * @see {@link PUBLISHED_RUNS}
 */
export function predictPublishedRun(run: PublishedRun): { predicted: number; published: number; ratio: number; mfu: number; fits: boolean; peakBytes: number; totalS: number } {
  const N = planSizes(run.plan).gpus; // d·t·p·C
  const time = stepTime(run.arch, run.plan, run.cluster, run.workload, { runtime: run.runtime });
  const tokensPerS = (run.workload.globalBatch * run.workload.seqLen) / time.totalS;
  const mfu = (palmFlopsPerToken(run.arch, run.workload.seqLen) * tokensPerS) / (N * run.cluster.gpu.peakFlops16);
  const predicted = run.published.metric === "tokens-per-s" ? tokensPerS
    : run.published.metric === "palm-mfu" ? mfu
    : (8 * parameterCount(run.arch).total * tokensPerS) / N / 1e12;
  const p = run.plan.pipelineParallel;
  const memArch = { ...run.arch, numLayers: Math.ceil(run.arch.numLayers / p) * p };
  const judged = evaluatePlan(memArch, run.plan, run.cluster, run.workload, { runtime: run.runtime });
  return { predicted, published: run.published.value, ratio: predicted / run.published.value, mfu, fits: judged.fits, peakBytes: judged.memory.peak.total, totalS: time.totalS };
}
