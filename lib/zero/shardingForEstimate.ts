/**
 * What `npm run estimate -- --deepspeed FILE` and `--fsdp STRATEGY` change in
 * chapter 2's memory estimate: the stage, the precision, the offload and the micro-batch.
 */
import { parseDeepSpeedConfig } from "./parseDeepSpeedConfig.js";
import { fsdpToZero } from "./fsdpStrategy.js";

/** The estimate's fields that a sharding config decides (lib/memory's TrainingSetup names). */
export interface ShardingOverrides {
  zeroStage: 0 | 1 | 2 | 3;
  precision?: "fp32" | "fp16" | "bf16";
  offload?: "none" | "optimizer" | "optimizer+params";
  microBatch?: number;
  /** What was read, for the CLI's notes. */
  note: string;
}

/**
 * The estimate settings of a DeepSpeed config (`deepspeed`: its JSON text) or of
 * an FSDP strategy (`fsdp`: a ShardingStrategy name, any case). A config's
 * `"auto"` values are filled from the estimate's own settings as the Hugging
 * Face Trainer fills them from its arguments (data-parallel size, micro-batch,
 * precision, hidden_size), and a value that contradicts them is an error naming the key.
 * The fp16 block is read with DeepSpeed 0.17.0's rules (its loss scaler does not change
 * memory; 0.17.1 and later refuse the notes' `min_loss_scale: 1e-10`).
 * FSDP: FULL_SHARD → stage 3, SHARD_GRAD_OP → stage 2 (full parameters during forward and
 * backward, as the peak counts them), NO_SHARD → stage 0; HYBRID_SHARD shards over a node
 * only, which the estimate (one sharding group of all data-parallel GPUs) cannot express: an error.
 *
 * @param o `deepspeed` (JSON text) or `fsdp`, and the estimate's settings used to fill "auto"
 * @returns {@link ShardingOverrides}
 * @throws RangeError `--deepspeed and --fsdp exclude each other`; `HYBRID_SHARD shards inside a node …`;
 *   `zero_optimization.offload_param needs zero_optimization.offload_optimizer too …`; the parser's errors (naming the key)
 * @example shardingForEstimate({ fsdp: "full_shard", dataParallel: 8, microBatch: 1, precision: "bf16" }).zeroStage // 3
 * @see DeepSpeed docs "DeepSpeed Configuration JSON"; PyTorch torch.distributed.fsdp.ShardingStrategy docs
 */
export function shardingForEstimate(o: { deepspeed?: string; fsdp?: string; dataParallel: number; microBatch: number; precision: "fp32" | "fp16" | "bf16"; hiddenSize?: number }): ShardingOverrides {
  if (o.deepspeed !== undefined && o.fsdp !== undefined) throw new RangeError("--deepspeed and --fsdp exclude each other");
  if (o.fsdp !== undefined) {
    const name = o.fsdp.toUpperCase();
    if (name === "HYBRID_SHARD") throw new RangeError("HYBRID_SHARD shards inside a node and replicates across nodes; the estimate shards over all data-parallel GPUs: use FULL_SHARD with --gpus set to one node");
    const m = fsdpToZero(name, o.dataParallel);
    const stage = m.zeroAnalogue;
    return { zeroStage: stage, note: `--fsdp ${name}: ZeRO stage ${stage}` };
  }
  const ds = parseDeepSpeedConfig(o.deepspeed, { world_size: o.dataParallel, per_device_train_batch_size: o.microBatch, fp16: o.precision === "fp16", bf16: o.precision === "bf16", hidden_size: o.hiddenSize }, { release: "v0.17.0" });
  // Chapter 9's rule (lib/offload resolveOffloadConfig): parameters go to the CPU only with the optimizer.
  if (ds.offloadParam && !ds.offloadOptimizer) throw new RangeError('zero_optimization.offload_param needs zero_optimization.offload_optimizer too: the course models parameter offload only with the optimizer offloaded (ZeRO-Infinity\'s placement)');
  const offload = ds.offloadParam ? "optimizer+params" : ds.offloadOptimizer ? "optimizer" : "none";
  return { zeroStage: ds.stage, precision: ds.precision === "fp32" ? o.precision : ds.precision, offload, microBatch: ds.microBatchPerGpu, note: `--deepspeed: stage ${ds.stage}, ${ds.precision === "fp32" ? o.precision : ds.precision}, offload ${offload}, train_batch_size ${ds.trainBatchSize} = ${ds.microBatchPerGpu} × ${ds.gradientAccumulationSteps} × ${ds.dataParallelSize}` };
}
