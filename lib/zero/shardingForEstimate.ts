/**
 * What `npm run estimate -- --deepspeed FILE`, `--fsdp WORDS|FILE` and
 * `--fsdp-config FILE` change in chapter 2's memory estimate: the stage, the
 * precision, the offload, the micro-batch, the recomputation and the GPU count.
 */
import { parseDeepSpeedConfig } from "./parseDeepSpeedConfig.js";
import { fsdpToZero, type FsdpStrategy } from "./fsdpStrategy.js";
import { fsdpWords } from "./parseHfTrainerArgs.js";
import { readHfFsdpConfig } from "./hfFsdpConfig.js";
import type { AccelerateSetup } from "./readAccelerateConfig.js";

type Precision = "fp32" | "fp16" | "bf16";
type Offload = "none" | "optimizer" | "optimizer+params";

/** The estimate's fields that a sharding config decides (lib/memory's TrainingSetup names). */
export interface ShardingOverrides {
  zeroStage: 0 | 1 | 2 | 3;
  /** Always set: what the run trains in (a DeepSpeed config without fp16/bf16 trains in fp32). */
  precision: Precision;
  offload: Offload;
  microBatch?: number;
  /** "full" when the config turns on activation checkpointing per layer (FSDP) and --recompute was not given. */
  recompute?: "full";
  /** The GPU count the file names (accelerate's num_processes), when --gpus was not given. */
  numGpus?: number;
  /** "torch" for accelerate's MULTI_GPU or NO with fp16/bf16: its mixed_precision is PyTorch AMP (torch.autocast) around fp32 weights. */
  ampDesign?: "torch";
  /** What was read, one line each, for the CLI's notes. */
  notes: string[];
}

/** What the caller gave explicitly (undefined: not given), and its defaults. */
export interface EstimateFlags {
  dataParallel: number;
  microBatch?: number;
  precision?: Precision;
  recomputeGiven?: boolean;
  gpusGiven?: boolean;
  hiddenSize?: number;
  defaults: { microBatch: number; precision: Precision };
}

function fromStrategy(given: FsdpStrategy | "HYBRID_SHARD_ZERO2", offload: boolean, dp: number, notes: string[], machines?: number): { zeroStage: 0 | 2 | 3; offload: Offload } {
  let s = given as FsdpStrategy;
  if (given === "HYBRID_SHARD" || given === "HYBRID_SHARD_ZERO2") {
    // One machine: the shard group is every GPU and there is no replica, so the memory is FULL_SHARD's (SHARD_GRAD_OP's).
    if (machines !== 1) throw new RangeError(`${given} shards inside a node and replicates across nodes; the estimate shards over all data-parallel GPUs: use FULL_SHARD with --gpus set to one node`);
    s = given === "HYBRID_SHARD" ? "FULL_SHARD" : "SHARD_GRAD_OP";
    notes.push(`${given} on one machine shards over all its GPUs with no replica: counted as ${s}`);
  }
  const m = fsdpToZero(s, dp);
  const stage = m.zeroAnalogue as 0 | 2 | 3;
  if (!offload) return { zeroStage: stage, offload: "none" };
  if (stage === 0) throw new RangeError("NO_SHARD with CPU offload is not modelled: the estimate offloads with ZeRO stages 1–3 only");
  if (stage === 2) { notes.push("SHARD_GRAD_OP with CPU offload: counted as ZeRO-2 with the optimizer offloaded (FSDP also keeps the parameter shards on the CPU between steps)"); return { zeroStage: 2, offload: "optimizer" }; }
  notes.push("FSDP CPU offload moves the parameter shards, their gradients and the optimizer step to the CPU: ZeRO-3 with optimizer+params offload");
  return { zeroStage: 3, offload: "optimizer+params" };
}

/**
 * The estimate settings of a DeepSpeed config, of an FSDP setup (the
 * Trainer's `--fsdp` words, optionally with its `--fsdp_config` object), or of
 * an accelerate config. A value that was given explicitly is checked against
 * the file (as the Trainer checks its arguments); one that was not is taken
 * from the file, and "auto" takes the estimate's default.
 * Precision: a DeepSpeed config without an fp16/bf16 block trains in fp32
 * (DeepSpeed's default): the estimate does not take --precision's default
 * instead. With --precision fp16/bf16 given, the Trainer (through Accelerate)
 * adds the block, so the run is mixed precision; a block that contradicts it
 * is an error. An accelerate config's mixed_precision decides unless
 * --precision is given (accelerate launch's --mixed_precision overrides the file).
 * FSDP: FULL_SHARD → stage 3, SHARD_GRAD_OP → stage 2 (full parameters during
 * forward and backward, as the peak counts them), NO_SHARD → stage 0;
 * HYBRID_SHARD shards over a node only, which the estimate cannot express across
 * nodes (an error); an accelerate config on one machine (num_machines 1) has one
 * shard group and no replica, so HYBRID_SHARD counts as FULL_SHARD there and
 * HYBRID_SHARD_ZERO2 as SHARD_GRAD_OP.
 *
 * @param o one of `deepspeed` (JSON text), `fsdp` (words), `fsdpConfig` (with `fsdp`), `accelerate`; and {@link EstimateFlags}
 * @returns {@link ShardingOverrides}
 * @throws RangeError `--deepspeed and --fsdp exclude each other`; `HYBRID_SHARD shards inside a node …`;
 *   `zero_optimization.offload_param needs zero_optimization.offload_optimizer too …`; the parsers' errors (naming the key)
 * @example shardingForEstimate({ fsdp: "full_shard", dataParallel: 8, defaults: { microBatch: 1, precision: "bf16" } }).zeroStage // 3
 * @see DeepSpeed docs "DeepSpeed Configuration JSON"; PyTorch torch.distributed.fsdp.ShardingStrategy docs; transformers training_args.py;
 *   accelerate utils/dataclasses.py (DeepSpeedPlugin.set_mixed_precision)
 */
export function shardingForEstimate(o: EstimateFlags & { deepspeed?: string; fsdp?: string; fsdpConfig?: unknown; accelerate?: AccelerateSetup }): ShardingOverrides {
  if (o.deepspeed !== undefined && (o.fsdp !== undefined || o.accelerate !== undefined)) throw new RangeError("--deepspeed and --fsdp exclude each other");
  const notes: string[] = [];
  if (o.accelerate) return fromAccelerate(o.accelerate, o, notes);
  if (o.fsdp !== undefined) {
    const upper = o.fsdp.trim().toUpperCase();
    const w = ["FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD", "HYBRID_SHARD", "HYBRID_SHARD_ZERO2"].includes(upper) ? { fsdp: upper as FsdpStrategy, offload: false, autoWrap: false } : fsdpWords(o.fsdp);
    let strategy: FsdpStrategy | "HYBRID_SHARD_ZERO2" = w.fsdp, recompute: "full" | undefined;
    if (o.fsdpConfig !== undefined) {
      const c = readHfFsdpConfig(o.fsdpConfig);
      notes.push(...c.notes, ...c.ignored.map((i) => `ignored: ${i}`));
      if (c.version === 2) {
        strategy = c.reshardAfterForward === true ? "FULL_SHARD" : "SHARD_GRAD_OP";
        notes.push(`fsdp_config version 2: reshard_after_forward ${c.reshardAfterForward === null ? "absent, the Trainer's default false" : c.reshardAfterForward} decides (${strategy}-like); the --fsdp strategy word is not used by FSDP2`);
      }
      if (c.activationCheckpointing && !o.recomputeGiven) { recompute = "full"; notes.push("fsdp_config.activation_checkpointing: every decoder layer is checkpointed: --recompute full"); }
    }
    const r = fromStrategy(strategy, w.offload, o.dataParallel, notes);
    return { ...r, precision: o.precision ?? o.defaults.precision, ...(recompute ? { recompute } : {}), notes: [`--fsdp: ${strategy} → ZeRO stage ${r.zeroStage}`, ...notes] };
  }
  const trainer = { world_size: o.dataParallel, hidden_size: o.hiddenSize, per_device_train_batch_size: o.microBatch, ...(o.precision ? { fp16: o.precision === "fp16", bf16: o.precision === "bf16" } : {}) };
  const ds = parseDeepSpeedConfig(o.deepspeed, trainer, { release: "v0.17.0", autoDefaults: { per_device_train_batch_size: o.defaults.microBatch } });
  // Chapter 9's rule (lib/offload resolveOffloadConfig): parameters go to the CPU only with the optimizer.
  if (ds.offloadParam && !ds.offloadOptimizer) throw new RangeError("zero_optimization.offload_param needs zero_optimization.offload_optimizer too: the course models parameter offload only with the optimizer offloaded (ZeRO-Infinity's placement)");
  const offload: Offload = ds.offloadParam ? "optimizer+params" : ds.offloadOptimizer ? "optimizer" : "none";
  const nvme = [ds.offloadOptimizer, ds.offloadParam].filter((x) => x?.device === "nvme").length;
  if (nvme) notes.push(`offload to NVMe (ZeRO-Infinity): the "(CPU, offloaded)" bytes live on the NVMe drive${nvme === 2 || !ds.offloadParam ? "" : " for the part offloaded there"}, with pinned CPU buffers for the transfers (buffer_count × buffer_size), not in host memory`);
  if (ds.precision === "fp32" && !o.precision) notes.push("the config enables neither fp16 nor bf16, so DeepSpeed trains in fp32; give --precision bf16 to model the Trainer's --bf16 (which adds a bf16 block)");
  return {
    zeroStage: ds.stage, precision: ds.precision, offload, microBatch: ds.microBatchPerGpu,
    notes: [`--deepspeed: stage ${ds.stage}, ${ds.precision}, offload ${offload}, train_batch_size ${ds.trainBatchSize} = ${ds.microBatchPerGpu} × ${ds.gradientAccumulationSteps} × ${ds.dataParallelSize}`,
      ...ds.notes.filter((n) => !(notes.length && n.startsWith("neither fp16 nor bf16"))), ...notes],
  };
}

function fromAccelerate(a: AccelerateSetup, o: EstimateFlags, notes: string[]): ShardingOverrides {
  notes.push(...a.notes);
  const filePrecision: Precision = a.mixedPrecision === "fp16" ? "fp16" : a.mixedPrecision === "bf16" || a.mixedPrecision === "fp8" ? "bf16" : "fp32";
  if (a.mixedPrecision === "fp8") notes.push("mixed_precision fp8: counted as bf16 (accelerate keeps bf16 autocast around the fp8 matmuls)");
  if (o.precision && o.precision !== filePrecision) notes.push(`--precision ${o.precision} overrides mixed_precision ${a.mixedPrecision ?? "(absent: no)"} from the file, as accelerate launch --mixed_precision does`);
  const precision = o.precision ?? filePrecision;
  const gpus = a.numProcesses !== null && !o.gpusGiven ? { numGpus: a.numProcesses } : {};
  if (a.numProcesses !== null && o.gpusGiven) notes.push(`--gpus overrides num_processes ${a.numProcesses} from the file (as accelerate launch --num_processes does)`);
  if (a.distributedType === "FSDP") {
    const f = a.fsdp!;
    const r = fromStrategy(f.strategy, f.offloadParams, o.dataParallel, notes, o.gpusGiven ? undefined : a.numMachines);
    return { ...r, precision, ...gpus, ...(f.activationCheckpointing && !o.recomputeGiven ? { recompute: "full" as const } : {}), notes: [`accelerate config: FSDP${f.version} ${f.strategy} → ZeRO stage ${r.zeroStage}, ${precision}`, ...notes] };
  }
  if (a.distributedType === "DEEPSPEED") {
    const d = a.deepspeed!;
    if (d.deepspeed_config_file !== undefined) throw new RangeError(`deepspeed_config.deepspeed_config_file ${JSON.stringify(d.deepspeed_config_file)}: the settings are in that file; give it with --deepspeed`);
    const stage = Number(d.zero_stage ?? 2);
    if (![0, 1, 2, 3].includes(stage)) throw new RangeError(`deepspeed_config.zero_stage must be 0, 1, 2 or 3, got ${JSON.stringify(d.zero_stage)}`);
    const dev = (k: string) => String(d[k] ?? "none");
    const offload: Offload = stage === 3 && dev("offload_param_device") !== "none" ? "optimizer+params" : stage > 0 && dev("offload_optimizer_device") !== "none" ? "optimizer" : "none";
    return { zeroStage: stage as 0 | 1 | 2 | 3, precision, offload, ...gpus, notes: [`accelerate config: DeepSpeed ZeRO-${stage}, offload ${offload}, ${precision}`, ...notes] };
  }
  // Without FSDP or DeepSpeed, accelerate's mixed_precision wraps the forward in torch.autocast: the weights, their .grad and DDP's buckets stay fp32.
  const amp = precision !== "fp32" ? { ampDesign: "torch" as const } : {};
  const how = precision !== "fp32" ? `, ${precision} as PyTorch AMP (torch.autocast around fp32 weights: amp design torch)` : ", fp32";
  return { zeroStage: 0, precision, offload: "none", ...amp, ...(a.distributedType === "NO" && !o.gpusGiven ? { numGpus: 1 } : gpus), notes: [`accelerate config: ${a.distributedType} (DDP, no sharding)${how}`, ...notes] };
}
