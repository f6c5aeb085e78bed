import type { Precision } from "../memory/index.js";
import type { Plan } from "./planLabel.js";

/**
 * The framework the planner assumes runs a plan: Megatron-LM for tensor or pipeline
 * parallelism with ZeRO-0 (its DDP) or ZeRO-1 (its distributed optimizer) and no offload,
 * which is what `--export megatron` writes; DeepSpeed (Megatron-DeepSpeed with t or p, or
 * PyTorch DDP/FSDP, which issue the same collectives) otherwise.
 * @param plan the plan (t, p, ZeRO stage and offload)
 * @returns "megatron" or "deepspeed"
 * @throws nothing
 * @example planRuntime({ tensorParallel: 8, pipelineParallel: 1, zeroStage: 1, offload: "none" }) // "megatron"
 * @see lib/plan's exportPlan (what each format accepts)
 */
export function planRuntime(plan: Pick<Plan, "tensorParallel" | "pipelineParallel" | "zeroStage" | "offload">): "megatron" | "deepspeed" {
  return plan.tensorParallel * plan.pipelineParallel > 1 && plan.zeroStage <= 1 && plan.offload === "none" ? "megatron" : "deepspeed";
}

/**
 * Bytes per parameter of the model states (16-bit or fp32 parameters, gradients, fp32 main
 * parameters and Adam's two moments) that Megatron-LM keeps beyond DeepSpeed's 2 + 2 + 12
 * (ZeRO-1: 2 + 2 + 12/d), by its own table: fp16 parameters with fp16 gradients 20 bytes
 * (distributed optimizer 4 + 16/d), bf16 parameters with fp32 gradients 18 (6 + 12/d),
 * fp32 16 (8 + 8/d). So +4 (fp16, +4/d distributed), +2 (bf16), 0 (fp32).
 * @param precision the training precision
 * @param zeroStage 0 (Megatron's DDP) or 1 (its distributed optimizer)
 * @param dataParallel d
 * @returns extra bytes per parameter of the model shard (≥ 0)
 * @throws nothing
 * @example megatronExtraStateBytes("bf16", 1, 8) // 2
 * @see Megatron-LM d98e8a6 `docs/user-guide/features/dist_optimizer.md` (the bytes-per-parameter table); Rajbhandari et al. 2020, §3 (2 + 2 + 12)
 */
export function megatronExtraStateBytes(precision: Precision, zeroStage: number, dataParallel: number): number {
  if (precision === "fp32") return 0;
  if (precision === "bf16") return 2;
  return zeroStage >= 1 ? 4 / dataParallel : 4;
}
