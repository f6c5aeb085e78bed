/**
 * A Megatron-LM launch (pretrain_gpt.py's arguments in a script or a pasted
 * command line) read as `megatron/training/arguments.py` (NVIDIA/Megatron-LM
 * d98e8a6, 2026-08-22) reads and validates it: the model, the parallel
 * layout, the batch, the precision and the recomputation.
 */
import type { ModelArch } from "../memory/index.js";
import { shellFlags, type ShellFlag } from "./shellFlags.js";
import { checkTensorParallelSize } from "../tensor-parallel/config.js";
import type { RuntimeOptions } from "./stepTime.js";

/** What a Megatron launch trains, and how. */
export interface MegatronLaunch {
  arch: ModelArch;
  /** the caller's worldSize, or torchrun's --nproc_per_node × --nnodes, or null. */
  worldSize: number | null;
  tensorParallel: number;
  pipelineParallel: number;
  contextParallel: number;
  /** --expert-model-parallel-size (1 without experts). */
  expertParallel: number;
  /** --fp8-format given: the linears' GEMMs in FP8 (Transformer Engine). */
  fp8: boolean;
  /** world / (t·p·cp), or null without a world size. */
  dataParallel: number | null;
  /** Model chunks per pipeline rank (interleaved schedule), 1 without. */
  virtualStages: number;
  sequenceParallel: boolean;
  microBatch: number;
  /** --global-batch-size, or micro × data-parallel size (Megatron's default), or null without a world size. */
  globalBatch: number | null;
  seqLen: number;
  /** fp32 without --bf16/--fp16 (params_dtype torch.float). */
  precision: "fp32" | "fp16" | "bf16";
  /** --use-distributed-optimizer: the fp32 master weights and optimizer states sharded over data parallelism (ZeRO-1). */
  distributedOptimizer: boolean;
  /** What data parallelism shards, as a ZeRO stage: 1 with the distributed optimizer, 0 without; with --use-megatron-fsdp its
   *  --data-parallel-sharding-strategy (no_shard 0, optim 1, optim_grads 2, optim_grads_params 3, the default). */
  zeroStage: 0 | 1 | 2 | 3;
  recompute: "none" | "selective" | "full";
  /** "flash" unless --attention-backend unfused/local (the default auto picks a fused kernel without the s² scores). */
  attention: "flash" | "eager";
  /** The launch's switches that change a step's time and memory (lib/plan stepTime): Megatron's defaults where a flag is absent. */
  runtime: RuntimeOptions;
  /** What was read, defaulted, not modelled or ignored. */
  notes: string[];
}

const TORCHRUN = ["--nproc_per_node", "--nproc-per-node", "--nnodes", "--node_rank", "--node-rank", "--master_addr", "--master-addr", "--master_port", "--master-port", "--rdzv_backend", "--rdzv-backend", "--rdzv_endpoint", "--rdzv-endpoint", "--rdzv_id", "--rdzv-id", "--standalone"];
const MODELLED = ["--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--context-parallel-size", "--sequence-parallel", "--micro-batch-size", "--global-batch-size",
  "--num-layers", "--hidden-size", "--num-attention-heads", "--num-query-groups", "--group-query-attention", "--ffn-hidden-size", "--kv-channels", "--seq-length",
  "--max-position-embeddings", "--swiglu", "--bf16", "--fp16", "--use-distributed-optimizer", "--recompute-activations", "--recompute-granularity", "--recompute-method",
  "--recompute-num-layers", "--checkpoint-activations", "--use-megatron-fsdp", "--data-parallel-sharding-strategy", "--normalization", "--position-embedding-type", "--use-rotary-position-embeddings", "--no-position-embedding", "--untie-embeddings-and-output-weights",
  "--disable-bias-linear", "--add-qkv-bias", "--vocab-size", "--padded-vocab-size", "--make-vocab-size-divisible-by", "--tokenizer-type", "--num-layers-per-virtual-pipeline-stage",
  "--num-virtual-stages-per-pipeline-rank", "--attention-backend", "--use-flash-attn", "--num-experts", "--moe-router-topk", "--moe-ffn-hidden-size",
  "--moe-shared-expert-intermediate-size", "--moe-layer-freq", "--expert-model-parallel-size", "--multi-latent-attention", "--fp8-format",
  "--overlap-grad-reduce", "--overlap-param-gather", "--grad-reduce-in-bf16", "--tp-comm-overlap", "--attention-dropout", "--hidden-dropout"];

/**
 * Reads a Megatron-LM launch. Rules (arguments.py and TransformerConfig at d98e8a6):
 * required --num-layers, --hidden-size, --num-attention-heads, --max-position-embeddings, --micro-batch-size (and --seq-length here);
 * --ffn-hidden-size defaults to 4h, or int(4h·2/3 / 64)·64 with --swiglu; --kv-channels to h/a;
 * --num-query-groups counts only with --group-query-attention, whose default is 1 group;
 * T by the course's one rule (checkTensorParallelSize: heads, FFN and query groups, multiple or divisor); layers a multiple of p;
 * the world a multiple of t·p·cp; the global batch (default micro × DP) a multiple of micro × DP;
 * --seq-length ≤ --max-position-embeddings, and a multiple of 2·cp when cp > 1; --bf16 and --fp16 exclude
 * each other, neither is fp32; --sequence-parallel is dropped when t = 1; position embeddings are
 * learned_absolute by default (a table of max_position_embeddings rows); biases on unless
 * --disable-bias-linear; LayerNorm unless --normalization RMSNorm; embeddings tied unless
 * --untie-embeddings-and-output-weights; the switches the step time reads (`runtime`): --overlap-grad-reduce and
 * --overlap-param-gather off unless given (the latter needs the former and --use-distributed-optimizer or --use-megatron-fsdp),
 * --grad-reduce-in-bf16, --tp-comm-overlap, dropout 0.1 unless --attention-dropout/--hidden-dropout say 0;
 * data parallelism shards as ZeRO-1 with --use-distributed-optimizer, or as --use-megatron-fsdp's --data-parallel-sharding-strategy
 * (no_shard 0 … optim_grads_params 3, the default);
 * the vocabulary (GPT2BPETokenizer 50,257, pretrain_gpt.py's default when --tokenizer-type is absent; otherwise
 * --vocab-size) is padded to a multiple of --make-vocab-size-divisible-by (128) × t;
 * --expert-model-parallel-size needs --num-experts and divides it; --fp8-format (hybrid or e4m3) turns FP8 GEMMs on.
 *
 * @param text the script or command line
 * @param o `worldSize`: the GPU count, in place of the text's torchrun --nproc_per_node × --nnodes (a note says so when they differ)
 * @returns {@link MegatronLaunch}
 * @throws RangeError naming the flag: `--tensor-model-parallel-size $TP: $TP is not set in the text (assign it, e.g. TP=2, or write the number)`;
 *   `--num-layers is required (Megatron: "num_layers argument is None")`; `world size (12) is not divisible by total_model_size (8) …`
 * @example readMegatronLaunch("--num-layers 24 --hidden-size 2048 --num-attention-heads 16 --seq-length 2048 --max-position-embeddings 2048 --micro-batch-size 4 --tokenizer-type GPT2BPETokenizer", { worldSize: 8 }).globalBatch // 32
 * @see NVIDIA/Megatron-LM megatron/training/arguments.py (validate_args), megatron/core/transformer/transformer_config.py (__post_init__),
 *   megatron/core/num_microbatches_calculator.py, pretrain_gpt.py (args_defaults), megatron/core/tokenizers/utils/build_tokenizer.py (vocab_size_with_padding) at d98e8a6
 */
export function readMegatronLaunch(text: string, o: { worldSize?: number } = {}): MegatronLaunch {
  const all = shellFlags(text);
  const by = new Map<string, ShellFlag>();
  const notes: string[] = [], ignored: string[] = [];
  for (const f of all) {
    const before = by.get(f.flag);
    if (before && before.value !== f.value) {
      notes.push(before.branch !== f.branch && (before.branch || f.branch)
        ? `${f.flag} is set in two branches of the text's if/else (${before.written ?? "on"}, then ${f.written ?? "on"}): this reader does not evaluate conditions and keeps the last; check it is the branch your run takes`
        : `${f.flag} is given twice (${before.written ?? "on"}, then ${f.written ?? "on"}): argparse keeps the last`);
    }
    by.set(f.flag, f);
    if (!MODELLED.includes(f.flag) && !TORCHRUN.includes(f.flag) && !ignored.includes(f.flag)) ignored.push(f.flag);
  }
  const on = (flag: string) => by.has(flag);
  const str = (flag: string): string | undefined => {
    const f = by.get(flag);
    if (!f) return undefined;
    if (f.value === null) throw new RangeError(`${flag} needs a value`);
    if (f.unresolved.length) throw new RangeError(`${flag} ${f.written}: ${f.unresolved.map((n) => (n.startsWith("$") ? n : `$${n}`)).join(", ")} ${f.unresolved.length > 1 ? "are" : "is"} not set in the text (assign ${f.unresolved.length > 1 ? "them" : "it"}, e.g. ${f.unresolved[0].replace(/^\$/, "")}=2, or write the number)`);
    return f.value;
  };
  const int = (flag: string, fallback?: number, min = 1): number => {
    const v = str(flag);
    if (v === undefined) {
      if (fallback === undefined) throw new RangeError(`${flag} is required (Megatron: "${flag.slice(2).replace(/-/g, "_")} argument is None")`);
      return fallback;
    }
    const n = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < min) throw new RangeError(`${flag} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
    return n;
  };
  if (on("--multi-latent-attention")) throw new RangeError("--multi-latent-attention is not modelled for Megatron arguments: estimate the model from its config.json (e.g. --model deepseek-v3)");
  const readTextWorld = (): number | null => {
    const nproc = by.has("--nproc_per_node") ? int("--nproc_per_node") : by.has("--nproc-per-node") ? int("--nproc-per-node") : null;
    const nnodesText = str("--nnodes");
    if (nnodesText !== undefined && !/^\d+$/.test(nnodesText)) throw new RangeError(`--nnodes ${nnodesText}: an elastic range is not a fixed world size; give the node count`);
    return nproc !== null ? nproc * (nnodesText !== undefined ? Number(nnodesText) : 1) : null;
  };
  // With the caller's world size, an unset $SLURM_NNODES in the text does not matter.
  let textWorld: number | null = null;
  if (o.worldSize === undefined) {
    try { textWorld = readTextWorld(); } catch (e) { throw new RangeError(`${(e as Error).message}; or give --gpus N`); }
  }
  else try { textWorld = readTextWorld(); } catch { textWorld = null; }
  const worldSize = o.worldSize ?? textWorld;
  if (o.worldSize !== undefined && textWorld !== null && textWorld !== o.worldSize) notes.push(`${o.worldSize} GPUs as given, not the text's torchrun ${textWorld} (--nproc_per_node × --nnodes)`);
  const whence = o.worldSize !== undefined ? "" : textWorld !== null ? `; the text's torchrun --nproc_per_node × --nnodes, give --gpus N for another cluster` : "";
  const t = int("--tensor-model-parallel-size", 1), p = int("--pipeline-model-parallel-size", 1), cp = int("--context-parallel-size", 1);
  const L = int("--num-layers"), h = int("--hidden-size"), a = int("--num-attention-heads"), maxPos = int("--max-position-embeddings"), seqLen = int("--seq-length");
  const mbs = int("--micro-batch-size");
  if (seqLen > maxPos) throw new RangeError(`--seq-length (${seqLen}) must be at most --max-position-embeddings (${maxPos}) (Megatron: "max_position_embeddings (${maxPos}) must be greater than or equal to seq_length (${seqLen}).")`);
  if (cp > 1 && seqLen % (2 * cp) !== 0) throw new RangeError(`--seq-length (${seqLen}) must be a multiple of 2 × --context-parallel-size (${2 * cp})`);
  if (L % p !== 0 && on("--deepspeed")) {
    const method = str("--pp-partition-method");
    throw new RangeError(`--num-layers (${L}) over --pipeline-model-parallel-size (${p}): a Megatron-DeepSpeed launch (--deepspeed), whose DeepSpeed PipelineModule splits the layers by ${method ? `--pp-partition-method ${method}` : "its partition method"}, unevenly; this reader models Megatron-LM, whose stages hold L/p layers each, so it cannot size this pipeline`);
  }
  if (L % p !== 0) throw new RangeError(`--num-layers (${L}) must be divisible by --pipeline-model-parallel-size (${p}) (Megatron: "Number of layers should be divisible by the pipeline-model-parallel size")`);
  const swiglu = on("--swiglu");
  const ffn = int("--ffn-hidden-size", swiglu ? Math.floor((4 * h * 2) / 3 / 64) * 64 : 4 * h);
  if (!on("--ffn-hidden-size")) notes.push(`--ffn-hidden-size not given: ${ffn} (${swiglu ? "int(4h·2/3 / 64)·64 with --swiglu" : "4h"})`);
  if (!on("--kv-channels") && h % a !== 0) throw new RangeError(`--hidden-size (${h}) must be divisible by --num-attention-heads (${a}) when --kv-channels is not given`);
  const headDim = int("--kv-channels", h / a);
  const gqa = on("--group-query-attention");
  if (!gqa && on("--num-query-groups")) notes.push("--num-query-groups is ignored without --group-query-attention (core_transformer_config_from_args sets num_query_groups None): multi-head attention");
  const groups = gqa ? int("--num-query-groups", 1) : a;
  if (gqa && !on("--num-query-groups")) notes.push("--group-query-attention without --num-query-groups: its default is 1 group (multi-query attention)");
  if (a % groups !== 0) throw new RangeError(`--num-attention-heads (${a}) must be a multiple of --num-query-groups (${groups})`);
  // The course's one rule for T (lib/tensor-parallel), Megatron's at d98e8a6.
  try { checkTensorParallelSize({ numHeads: a, numKvHeads: groups, hiddenSize: h, ffnHiddenSize: ffn, headDim }, t); } catch (e) { throw new RangeError(`--tensor-model-parallel-size ${t}: ${(e as Error).message}`); }
  const vocab = readVocab(str, int, t, notes);
  const norm = str("--normalization") ?? "LayerNorm";
  if (norm !== "LayerNorm" && norm !== "RMSNorm") throw new RangeError(`--normalization must be LayerNorm or RMSNorm, got ${JSON.stringify(norm)}`);
  const posType = on("--use-rotary-position-embeddings") ? "rope" : str("--position-embedding-type") ?? "learned_absolute";
  const learned = posType === "learned_absolute" && !on("--no-position-embedding");
  const bias = !on("--disable-bias-linear");
  if (on("--bf16") && on("--fp16")) throw new RangeError("--bf16 and --fp16 exclude each other (Megatron asserts not both)");
  const precision = on("--bf16") ? "bf16" : on("--fp16") ? "fp16" : "fp32";
  if (precision === "fp32") notes.push("neither --bf16 nor --fp16: Megatron trains in fp32 (params_dtype torch.float)");
  const runtime = readRuntime(str, on, precision, notes);
  if (precision === "fp16") notes.push(`--fp16: Megatron's table gives 20 bytes per parameter (4 + 16/d with --use-distributed-optimizer), the fp16 gradients copied to fp32 for the optimizer step: ${on("--use-distributed-optimizer") ? "4/d" : "4"} bytes per parameter more than the estimate's 2 + 2 + 12, not counted`);
  if (precision === "bf16" && !runtime.gradReduceInBf16) notes.push("--bf16: Megatron accumulates and all-reduces gradients in fp32 (accumulate_allreduce_grads_in_fp32): 2 bytes per parameter more than the estimate's 16-bit gradients, not counted");
  let sp = on("--sequence-parallel");
  if (sp && t === 1) { sp = false; notes.push("--sequence-parallel is dropped with tensor parallel size 1 (Megatron: \"Disabling sequence parallelism because tensor model parallelism is disabled\")"); }
  const recompute = readRecompute(str, on, L / p, notes);
  const backend = str("--attention-backend") ?? "auto";
  if (!["flash", "fused", "unfused", "local", "auto"].includes(backend)) throw new RangeError(`--attention-backend must be one of flash, fused, unfused, local, auto, got ${JSON.stringify(backend)}`);
  const attention = backend === "unfused" || backend === "local" ? "eager" : "flash";
  const v = on("--num-virtual-stages-per-pipeline-rank") ? int("--num-virtual-stages-per-pipeline-rank") : on("--num-layers-per-virtual-pipeline-stage") ? (L / p) / int("--num-layers-per-virtual-pipeline-stage") : 1;
  if (!Number.isInteger(v)) throw new RangeError(`--num-layers-per-virtual-pipeline-stage must divide the layers per pipeline stage (${L / p})`);
  let dataParallel: number | null = null, globalBatch: number | null = null;
  if (worldSize !== null) {
    if (worldSize % (t * p * cp) !== 0) throw new RangeError(`world size (${worldSize}) is not divisible by total_model_size (${t * p * cp} = tensor ${t} × pipeline ${p} × context ${cp}) (Megatron's words${whence})`);
    dataParallel = worldSize / (t * p * cp);
    globalBatch = int("--global-batch-size", mbs * dataParallel);
    if (globalBatch % (mbs * dataParallel) !== 0) throw new RangeError(`global batch size (${globalBatch}) is not divisible by micro batch size (${mbs}) times data parallel size (${dataParallel}) (Megatron's words)`);
  } else if (on("--global-batch-size")) globalBatch = int("--global-batch-size");
  if (on("--fp8-format")) notes.push(`--fp8-format ${str("--fp8-format") ?? ""}: the planner times FP8 GEMMs and counts Transformer Engine's 1-byte copies of their inputs; the memory estimate (npm run estimate) does not model FP8 and judges the run as ${precision}, so its activation memory there is an upper bound${on("--fp8-param-gather") ? "; with --fp8-param-gather the GEMM weights are kept in FP8 (1 byte, not 2: TransformerConfig.fp8_param), so the estimate's parameter memory is an upper bound too" : ""}`);
  if (cp > 1) notes.push(`--context-parallel-size ${cp}: each GPU holds ${seqLen / cp} of the ${seqLen} tokens (a load-balanced split of 2·${cp} chunks)`);
  const moe = readMoe(str, int, on, L, ffn, notes);
  const ep = int("--expert-model-parallel-size", 1);
  if (ep > 1 && !moe) throw new RangeError("--expert-model-parallel-size needs --num-experts (Megatron: \"num_experts must be non None to use expert model parallelism\")");
  if (moe && moe.numExperts % ep !== 0) throw new RangeError(`--num-experts (${moe.numExperts}) must be a multiple of --expert-model-parallel-size (${ep}) (Megatron: "Number of experts should be a multiple of expert model parallel_size.")`);
  const fp8Format = str("--fp8-format");
  if (fp8Format !== undefined && !["hybrid", "e4m3"].includes(fp8Format)) throw new RangeError(`--fp8-format must be hybrid or e4m3, got ${JSON.stringify(fp8Format)}`);
  if (ignored.length) notes.push(`not modelled (read, no effect on the estimate): ${ignored.join(" ")}`);
  const arch: ModelArch = {
    family: swiglu || norm === "RMSNorm" ? "llama" : "gpt2", modelType: "megatron-gpt", vocabSize: vocab, hiddenSize: h, intermediateSize: ffn, numLayers: L, numHeads: a,
    numKvHeads: groups, headDim, learnedPositions: learned ? maxPos : 0, tiedEmbeddings: !on("--untie-embeddings-and-output-weights"), attentionBias: bias, mlpBias: bias,
    ...(on("--add-qkv-bias") && !bias ? { qkvBias: true } : {}), norm: norm === "RMSNorm" ? "rmsnorm" : "layernorm", mlp: swiglu ? "gated" : "plain",
    contextLength: maxPos, slidingWindow: null, decoderLayerClass: "TransformerLayer", ...(moe ? { moe } : {}),
  };
  if (runtime.overlapParamGather && !on("--use-distributed-optimizer") && !on("--use-megatron-fsdp")) throw new RangeError("--overlap-param-gather needs --use-distributed-optimizer (Megatron: '--overlap-param-gather only supported with distributed optimizer, megatron fsdp, or dist_muon')");
  const zeroStage = readDataParallelSharding(str, on, notes);
  return {
    arch, worldSize, tensorParallel: t, pipelineParallel: p, contextParallel: cp, expertParallel: ep, fp8: fp8Format !== undefined, dataParallel, virtualStages: v, sequenceParallel: sp, microBatch: mbs, globalBatch, seqLen, precision,
    distributedOptimizer: on("--use-distributed-optimizer") || on("--use-megatron-fsdp"), zeroStage, recompute, attention, runtime: { ...runtime, virtualStages: v }, notes,
  };
}

type Str = (flag: string) => string | undefined;

/**
 * The switches of a launch that the step-time model reads, with Megatron's defaults (DistributedDataParallelConfig:
 * overlap_grad_reduce and overlap_param_gather False; TransformerConfig: hidden_dropout and attention_dropout 0.1).
 */
function readRuntime(str: Str, on: (f: string) => boolean, precision: string, notes: string[]): RuntimeOptions {
  const overlapGradReduce = on("--overlap-grad-reduce"), overlapParamGather = on("--overlap-param-gather");
  if (overlapParamGather && !overlapGradReduce) throw new RangeError("--overlap-param-gather needs --overlap-grad-reduce (Megatron: 'Must use --overlap-param-gather with --overlap-grad-reduce')");
  if (!overlapGradReduce) notes.push("no --overlap-grad-reduce: Megatron reduces the gradients after the backward pass, exposed (the planner's searched plans assume the overlap its --export megatron writes)");
  const gradReduceInBf16 = precision === "bf16" && on("--grad-reduce-in-bf16");
  if (gradReduceInBf16) notes.push("--grad-reduce-in-bf16: gradients accumulated and reduced in bf16, 2 bytes per parameter, as the estimate counts them");
  const rate = (flag: string) => {
    const v = str(flag);
    if (v === undefined) return 0.1;
    const x = Number(v);
    if (!/^\s*\d*\.?\d+(e-?\d+)?\s*$/i.test(v) || !(x >= 0 && x < 1)) throw new RangeError(`${flag} must be a number in [0, 1), got ${JSON.stringify(v)}`);
    return x;
  };
  const attentionDropout = rate("--attention-dropout"), hiddenDropout = rate("--hidden-dropout");
  const dropout = attentionDropout > 0 || hiddenDropout > 0;
  if (dropout && !on("--attention-dropout") && !on("--hidden-dropout")) notes.push("no --attention-dropout/--hidden-dropout: Megatron's default dropout 0.1 is timed (Llama-style models train with 0.0)");
  return { framework: "megatron", overlapGradReduce, overlapParamGather, gradReduceInBf16, tpCommOverlap: on("--tp-comm-overlap"), dropout };
}
type Int = (flag: string, fallback?: number, min?: number) => number;

function readVocab(str: Str, int: Int, t: number, notes: string[]): number {
  const padded = str("--padded-vocab-size");
  if (padded !== undefined) return int("--padded-vocab-size");
  const given = str("--tokenizer-type");
  const tok = given ?? "GPT2BPETokenizer";
  if (given === undefined && str("--vocab-size") === undefined) notes.push("no --tokenizer-type: pretrain_gpt.py's default GPT2BPETokenizer (50,257 tokens)");
  const raw = str("--vocab-size") !== undefined ? int("--vocab-size") : tok === "GPT2BPETokenizer" ? 50257 : null;
  if (raw === null) throw new RangeError(`the vocabulary size comes from the tokenizer${tok ? ` (--tokenizer-type ${tok})` : ""}, which this reader cannot open: add --vocab-size N to the arguments (e.g. 32000 for Llama 2's)`);
  const multiple = int("--make-vocab-size-divisible-by", 128) * t;
  const after = Math.ceil(raw / multiple) * multiple;
  if (after !== raw) notes.push(`vocabulary ${raw} padded to ${after} (a multiple of --make-vocab-size-divisible-by × t = ${multiple})`);
  return after;
}

const SHARDING = ["no_shard", "optim", "optim_grads", "optim_grads_params"] as const;

/** The ZeRO stage of the launch's data parallelism: Megatron-FSDP's --data-parallel-sharding-strategy, else the distributed optimizer's 1. */
function readDataParallelSharding(str: Str, on: (f: string) => boolean, notes: string[]): 0 | 1 | 2 | 3 {
  if (!on("--use-megatron-fsdp")) {
    if (on("--data-parallel-sharding-strategy")) notes.push("--data-parallel-sharding-strategy has no effect without --use-megatron-fsdp");
    return on("--use-distributed-optimizer") ? 1 : 0;
  }
  const s = str("--data-parallel-sharding-strategy") ?? "optim_grads_params";
  const stage = SHARDING.indexOf(s as (typeof SHARDING)[number]);
  if (stage < 0) throw new RangeError(`--data-parallel-sharding-strategy must be one of ${SHARDING.join(", ")}, got ${JSON.stringify(s)}`);
  notes.push(`--use-megatron-fsdp --data-parallel-sharding-strategy ${s}: Megatron-FSDP shards ${["nothing", "the optimizer states", "the optimizer states and gradients", "the optimizer states, gradients and parameters"][stage]} over data parallelism, counted as ZeRO-${stage}`);
  return stage as 0 | 1 | 2 | 3;
}

function readRecompute(str: Str, on: (f: string) => boolean, layersPerStage: number, notes: string[]): "none" | "selective" | "full" {
  const g = on("--recompute-activations") ? "selective" : str("--recompute-granularity");
  if (g === undefined && on("--checkpoint-activations")) {
    // Megatron-LM's flag until 3e71ad9 (2023-04-26), which made it exit "because it defaults to full recomputation which is slow"; Megatron-DeepSpeed keeps it.
    notes.push("--checkpoint-activations: full recomputation of every layer, its meaning in Megatron-LM before 3e71ad9 (2023) and in Megatron-DeepSpeed; current Megatron-LM refuses it (use --recompute-granularity full --recompute-method uniform)");
    return "full";
  }
  if (g === undefined) return "none";
  if (g !== "full" && g !== "selective") throw new RangeError(`--recompute-granularity must be full or selective, got ${JSON.stringify(g)}`);
  const method = str("--recompute-method");
  if (g === "selective") {
    if (method !== undefined) throw new RangeError("--recompute-method is not supported with --recompute-granularity selective (Megatron: 'recompute method is not yet supported for selective recomputing granularity')");
    return "selective";
  }
  const n = str("--recompute-num-layers");
  if (method === "block" && n !== undefined && Number(n) < layersPerStage) notes.push(`--recompute-method block with --recompute-num-layers ${n} recomputes ${n} of the ${layersPerStage} layers per stage; counted as full recomputation of every layer`);
  return "full";
}

function readMoe(str: Str, int: Int, on: (f: string) => boolean, L: number, ffn: number, notes: string[]): ModelArch["moe"] | undefined {
  if (!on("--num-experts")) return undefined;
  const E = int("--num-experts"), k = int("--moe-router-topk", 2);
  const freqText = str("--moe-layer-freq") ?? "1";
  if (!/^\d+$/.test(freqText)) throw new RangeError(`--moe-layer-freq ${freqText}: only an integer frequency is read here`);
  const freq = Number(freqText);
  let moeLayers = 0;
  for (let i = 0; i < L; i++) if (i % freq === 0) moeLayers++;
  return { numExperts: E, topK: k, expertIntermediateSize: int("--moe-ffn-hidden-size", ffn), sharedIntermediateSize: int("--moe-shared-expert-intermediate-size", 0, 0), sharedExpertGate: false, numMoeLayers: moeLayers };
}
