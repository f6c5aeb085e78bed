import type { Precision } from "../memory/index.js";
import type { Plan } from "./planLabel.js";

/**
 * The framework the planner assumes runs a plan: Megatron-LM for tensor, pipeline, context or
 * expert parallelism with ZeRO-0 (its DDP) or ZeRO-1 (its distributed optimizer) and no offload,
 * which is what `--export megatron` writes; DeepSpeed (Megatron-DeepSpeed with t or p, or
 * PyTorch DDP/FSDP, which issue the same collectives) otherwise. (Context and expert parallelism
 * are searched with ZeRO 0 or 1 and no offload only: lib/plan's layoutRule.) A plan read from a Megatron
 * launch (`framework: "megatron"`) is Megatron's whatever its t, p, C and ep.
 * @param plan the plan (t, p, C, ep, ZeRO stage and offload)
 * @param o `framework`: the framework the plan was read from, when known
 * @returns "megatron" or "deepspeed"
 * @throws nothing
 * @example planRuntime({ tensorParallel: 8, pipelineParallel: 1, zeroStage: 1, offload: "none" }) // "megatron"
 * @example planRuntime({ tensorParallel: 1, pipelineParallel: 1, zeroStage: 1, offload: "none" }, { framework: "megatron" }) // "megatron"
 * @see lib/plan's exportPlan (what each format accepts)
 */
export function planRuntime(plan: Pick<Plan, "tensorParallel" | "pipelineParallel" | "contextParallel" | "expertParallel" | "zeroStage" | "offload">, o: { framework?: "megatron" | "deepspeed" } = {}): "megatron" | "deepspeed" {
  if (o.framework === "megatron" && plan.zeroStage <= 1 && plan.offload === "none") return "megatron";
  const model = plan.tensorParallel * plan.pipelineParallel * (plan.contextParallel ?? 1) * (plan.expertParallel ?? 1);
  return model > 1 && plan.zeroStage <= 1 && plan.offload === "none" ? "megatron" : "deepspeed";
}

/**
 * Bytes per parameter of the model states (16-bit or fp32 parameters, gradients, fp32 main
 * parameters and Adam's two moments) that Megatron-LM keeps beyond DeepSpeed's 2 + 2 + 12
 * (ZeRO-1: 2 + 2 + 12/d), by its own table: fp16 parameters with fp16 gradients 20 bytes
 * (distributed optimizer 4 + 16/d), bf16 parameters with fp32 gradients 18 (6 + 12/d),
 * fp32 16 (8 + 8/d). So +4 (fp16, +4/d distributed), +2 (bf16), 0 (fp32); with bf16 and
 * `--grad-reduce-in-bf16` the gradients stay 16-bit: 0.
 * @param precision the training precision
 * @param zeroStage 0 (Megatron's DDP) or 1 (its distributed optimizer)
 * @param dataParallel d
 * @param gradReduceInBf16 Megatron's `--grad-reduce-in-bf16` (default false)
 * @returns extra bytes per parameter of the model shard (≥ 0)
 * @throws nothing
 * @example megatronExtraStateBytes("bf16", 1, 8) // 2
 * @example megatronExtraStateBytes("bf16", 1, 8, true) // 0
 * @see Megatron-LM d98e8a6 `docs/user-guide/features/dist_optimizer.md` (the bytes-per-parameter table), `megatron/training/arguments.py`
 *   (grad_reduce_in_bf16 turns accumulate_allreduce_grads_in_fp32 off); Rajbhandari et al. 2020, §3 (2 + 2 + 12)
 */
export function megatronExtraStateBytes(precision: Precision, zeroStage: number, dataParallel: number, gradReduceInBf16 = false): number {
  if (precision === "fp32") return 0;
  if (precision === "bf16") return gradReduceInBf16 ? 0 : 2;
  return zeroStage >= 1 ? 4 / dataParallel : 4;
}
