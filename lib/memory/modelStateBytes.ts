/**
 * Training precision: "fp32" everywhere, or mixed fp16/bf16 with fp32 master weights.
 * @see the sources of {@link bytesPerParam}: Rajbhandari et al. 2019, *ZeRO*, §3.1 (mixed-precision Adam: 2Ψ + 2Ψ + KΨ, K = 12)
 */
export type Precision = "fp32" | "fp16" | "bf16";
/**
 * Optimizer whose states are counted.
 * @see the sources of {@link bytesPerParam}: Rajbhandari et al. 2019, *ZeRO*, §3.1 (mixed-precision Adam: 2Ψ + 2Ψ + KΨ, K = 12)
 */
export type OptimizerName = "adamw" | "sgd-momentum" | "sgd";
/**
 * ZeRO-DP stage: 0 plain data parallel, 1 optimizer states, 2 + gradients, 3 + parameters partitioned.
 * @see Rajbhandari et al. 2019, *ZeRO*, §5 (ZeRO-DP: P_os, P_os+g, P_os+g+p) and Figure 1; DeepSpeed config docs (zero_optimization.stage)
 */
export type ZeroStage = 0 | 1 | 2 | 3;
/**
 * What DeepSpeed moves to CPU memory: nothing, the optimizer states, or both optimizer states and parameters.
 * @see DeepSpeed config docs (zero_optimization.offload_optimizer, offload_param: stage 3 only); Ren et al. 2021, *ZeRO-Offload*
 */
export type Offload = "none" | "optimizer" | "optimizer+params";

/**
 * Which mixed-precision design keeps the model states.
 * - "deepspeed": DeepSpeed, Megatron-LM and apex O2 keep a 16-bit model (weights and
 *   gradients, 2 + 2 bytes) and an fp32 master copy inside the optimizer (4 + Adam's 8 = K = 12):
 *   the design the ZeRO paper counts (§3.1) and the one ZeRO partitions.
 * - "torch": PyTorch AMP (`torch.autocast` + `GradScaler`) keeps the model's weights and `.grad`
 *   in fp32 (4 + 4) and Adam's 8 bytes, with no separate master copy; autocast makes 16-bit
 *   copies of the weights during forward (counted in the peak, not here).
 * Under "fp32" precision the two designs coincide (4 + 4 + K).
 * @see Rajbhandari et al. 2019, *ZeRO*, §3.1; PyTorch `aten/src/ATen/autocast_mode.cpp` (cache of 16-bit casts of fp32 weights);
 *   PyTorch PR #26512 (GradScaler: the optimizer's parameters are fp32; "Attempting to unscale FP16 gradients")
 */
export type AmpDesign = "deepspeed" | "torch";

/**
 * Bytes per parameter of each model state.
 * @see the sources of {@link bytesPerParam}: Rajbhandari et al. 2019, *ZeRO*, §3.1 (mixed-precision Adam: 2Ψ + 2Ψ + KΨ, K = 12)
 */
export interface BytesPerParam {
  parameters: number;
  gradients: number;
  /** K in the ZeRO paper: optimizer states, including the fp32 master copy in mixed precision. */
  optimizerStates: number;
}

/**
 * Bytes per parameter of weights, gradients and optimizer states.
 *
 * Mixed precision (fp16 or bf16): 2 + 2 + K, with K = 4 (fp32 master copy)
 * + 8 (AdamW's fp32 m and v) = 12, 4 + 4 = 8 for SGD with momentum, 4 for plain
 * SGD. fp32: 4 + 4 + K with K = 8 (AdamW), 4 (momentum), 0 (SGD): no master copy.
 * That mixed count is the "deepspeed" design (16-bit model, fp32 master in the optimizer);
 * under the "torch" design (PyTorch AMP) mixed precision keeps fp32 weights and gradients
 * and no master copy: 4 + 4 + 8 for AdamW, the same as fp32.
 *
 * @param precision "fp32" | "fp16" | "bf16"
 * @param optimizer "adamw" | "sgd-momentum" | "sgd"
 * @param ampDesign "deepspeed" (default) | "torch", see {@link AmpDesign}
 * @returns bytes per parameter for each state
 * @throws RangeError `precision must be one of fp32, fp16, bf16, got "x"` (same for optimizer),
 *   `ampDesign must be deepspeed or torch, got "x"`
 * @example bytesPerParam("fp16", "adamw") // { parameters: 2, gradients: 2, optimizerStates: 12 }
 * @example bytesPerParam("fp16", "adamw", "torch") // { parameters: 4, gradients: 4, optimizerStates: 8 }
 * @see Rajbhandari et al. 2019, *ZeRO*, §3.1 (mixed-precision Adam: 2Ψ + 2Ψ + KΨ, K = 12)
 */
export function bytesPerParam(precision: Precision, optimizer: OptimizerName, ampDesign: AmpDesign = "deepspeed"): BytesPerParam {
  if (!["fp32", "fp16", "bf16"].includes(precision)) throw new RangeError(`precision must be one of fp32, fp16, bf16, got ${JSON.stringify(precision)}`);
  const states = { adamw: 8, "sgd-momentum": 4, sgd: 0 }[optimizer];
  if (states === undefined) throw new RangeError(`optimizer must be one of adamw, sgd-momentum, sgd, got ${JSON.stringify(optimizer)}`);
  if (ampDesign !== "deepspeed" && ampDesign !== "torch") throw new RangeError(`ampDesign must be deepspeed or torch, got ${JSON.stringify(ampDesign)}`);
  if (precision === "fp32" || ampDesign === "torch") return { parameters: 4, gradients: 4, optimizerStates: states };
  return { parameters: 2, gradients: 2, optimizerStates: 4 + states };
}

/**
 * Options of {@link modelStateBytes}.
 * @see the sources of {@link bytesPerParam}: Rajbhandari et al. 2019, *ZeRO*, §3.1 (mixed-precision Adam: 2Ψ + 2Ψ + KΨ, K = 12)
 */
export interface ModelStateOptions {
  /** Ψ: parameters held by this model replica (after tensor/pipeline division). */
  params: number;
  /** N_d: data-parallel degree over which ZeRO partitions. */
  dataParallel: number;
  zeroStage: ZeroStage;
  precision: Precision;
  optimizer: OptimizerName;
  offload?: Offload;
  /** Mixed-precision design (default "deepspeed"); "torch" is plain DDP only (zeroStage 0). */
  ampDesign?: AmpDesign;
}

/**
 * Model-state bytes on each GPU, and what offload moved to CPU memory (per data-parallel rank).
 * @see the sources of {@link bytesPerParam}: Rajbhandari et al. 2019, *ZeRO*, §3.1 (mixed-precision Adam: 2Ψ + 2Ψ + KΨ, K = 12)
 */
export interface ModelStateBytes {
  parameters: number;
  gradients: number;
  optimizerStates: number;
  /** Bytes this rank keeps in CPU memory because of offload. */
  cpuBytes: number;
}

function checkCount(name: string, v: number, min: number): void {
  if (!Number.isSafeInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${v}`);
}

/**
 * Model-state bytes per GPU for ZeRO stage 0–3 over N_d data-parallel GPUs.
 *
 * Stage 0: (P + G + K)Ψ; stage 1: (P + G)Ψ + KΨ/N_d; stage 2: PΨ + (G + K)Ψ/N_d;
 * stage 3: (P + G + K)Ψ/N_d, where P, G, K are {@link bytesPerParam}. A
 * partition holds a whole number of ELEMENTS, ⌈Ψ/N_d⌉, each of P, G or K bytes:
 * DeepSpeed pads the flat parameter buffer so every rank's partition has the
 * same element count (`flatten_dense_tensors_aligned` in `stage_1_and_2.py`; its
 * extra alignment to `nccl_start_alignment_factor` elements is not modelled). Offload "optimizer"
 * (ZeRO-Offload, stage >= 1) moves the optimizer states to CPU, and with them
 * the gradient partition at stage >= 2 (the update runs on the CPU);
 * "optimizer+params" (ZeRO-Infinity style, stage 3 only) also moves the
 * parameter partition. Buffers, the gathered layer of stage 3 and
 * fragmentation are not included.
 *
 * @param o see {@link ModelStateOptions}
 * @returns bytes per GPU and the CPU bytes of this rank
 * @throws RangeError `params must be an integer >= 0, got -1`, `dataParallel must be an integer >= 1, got 0`,
 *   `zeroStage must be 0, 1, 2 or 3, got 4`, `offload "optimizer" needs zeroStage >= 1`,
 *   `offload "optimizer+params" needs zeroStage 3`, `ampDesign "torch" (PyTorch AMP) has no ZeRO partitioning: use zeroStage 0, got 2`
 * @example modelStateBytes({ params: 7.5e9, dataParallel: 64, zeroStage: 1, precision: "fp16", optimizer: "adamw" })
 *   // parameters 15e9 + gradients 15e9 + optimizerStates 1.40625e9 = 31.4 GB (ZeRO Figure 1)
 * @see Rajbhandari et al. 2019, *ZeRO*, Figure 1 and Table 1; Ren et al. 2021, *ZeRO-Offload*
 */
export function modelStateBytes(o: ModelStateOptions): ModelStateBytes {
  checkCount("params", o.params, 0);
  checkCount("dataParallel", o.dataParallel, 1);
  if (![0, 1, 2, 3].includes(o.zeroStage)) throw new RangeError(`zeroStage must be 0, 1, 2 or 3, got ${o.zeroStage}`);
  const offload = o.offload ?? "none";
  if (!["none", "optimizer", "optimizer+params"].includes(offload)) {
    throw new RangeError(`offload must be none, optimizer or optimizer+params, got ${JSON.stringify(offload)}`);
  }
  if (offload !== "none" && o.zeroStage === 0) throw new RangeError(`offload "${offload}" needs zeroStage >= 1, got 0`);
  if (offload === "optimizer+params" && o.zeroStage !== 3) throw new RangeError(`offload "optimizer+params" needs zeroStage 3, got ${o.zeroStage}`);
  const design = o.ampDesign ?? "deepspeed";
  if (design === "torch" && o.zeroStage !== 0) {
    throw new RangeError(`ampDesign "torch" (PyTorch AMP) has no ZeRO partitioning: use zeroStage 0, got ${o.zeroStage}`);
  }
  const b = bytesPerParam(o.precision, o.optimizer, design);
  const psi = o.params;
  const n = o.dataParallel;
  const partitionElements = Math.ceil(psi / n); // whole elements per rank, padded
  const part = (bytesPer: number, partitioned: boolean) => bytesPer * (partitioned ? partitionElements : psi);
  let parameters = part(b.parameters, o.zeroStage >= 3);
  let gradients = part(b.gradients, o.zeroStage >= 2);
  let optimizerStates = part(b.optimizerStates, o.zeroStage >= 1);
  let cpuBytes = 0;
  if (offload !== "none") {
    cpuBytes += optimizerStates;
    optimizerStates = 0;
    if (o.zeroStage >= 2) {
      cpuBytes += gradients;
      gradients = 0;
    }
  }
  if (offload === "optimizer+params") {
    cpuBytes += parameters;
    parameters = 0;
  }
  return { parameters, gradients, optimizerStates, cpuBytes };
}
