/**
 * Where the bytes of an offload run live: GPU, CPU and NVMe, per component,
 * beside DeepSpeed's own CPU-memory estimators.
 */
import { activationBytesPerLayer, estimateZero2ModelStatesMemNeeds, estimateZero3ModelStatesMemNeeds } from "../memory/index.js";
import { resolveOffloadConfig, type OffloadConfig } from "./resolveOffloadConfig.js";

/** Bytes per component in one memory. */
export interface MemoryParts {
  /** fp16 parameters. */
  params16: number;
  /** Gradients (fp16 on the GPU; fp32 on the CPU, where DeepSpeed accumulates them). */
  grads: number;
  /** fp32 master parameters, momentum and variance. */
  optimizerStates: number;
  /** Saved activations (GPU only). */
  activations: number;
  total: number;
}

/** {@link offloadMemory}'s answer. */
export interface OffloadMemory {
  gpu: MemoryParts;
  cpu: MemoryParts;
  nvme: MemoryParts;
  /** Ψ, all parameters (L · 12h²). */
  totalParams: number;
  /** DeepSpeed's estimate for this run (ZeRO-2 or ZeRO-3 estimator, buffer factor 1.5), bytes. */
  deepspeed: { cpuBytes: number; gpuBytes: number; estimator: string };
  /** gpu.total ≤ gpuMemoryBytes and cpu.total ≤ cpuMemoryBytes. */
  fits: { gpu: boolean; cpu: boolean };
}

const parts = (params16: number, grads: number, optimizerStates: number, activations: number): MemoryParts =>
  ({ params16, grads, optimizerStates, activations, total: params16 + grads + optimizerStates + activations });

/**
 * The plain count of a single-GPU run's memory, and DeepSpeed's estimate.
 *
 * Plain count, Ψ parameters, ψ per layer, one GPU:
 * - optimizer on the GPU: GPU 2Ψ + 2Ψ + 12Ψ (fp16 parameters, fp16 gradients, fp32 master/m/v);
 * - `offloadOptimizer: "cpu"`: GPU 2Ψ + 2ψ (one layer's gradients in flight);
 *   CPU 12Ψ + 4Ψ (DeepSpeed keeps an fp32 gradient buffer beside the master: 16Ψ;
 *   the paper's figure counts the gradients at 2 bytes, 14Ψ);
 * - `offloadParam: "cpu"`: GPU 2·2ψ + 2ψ (two layers' parameters: the one computing and the one prefetched);
 *   CPU gains 2Ψ of fp16 parameters;
 * - `"nvme"` moves the same bytes from CPU to NVMe.
 * Activations: L · sbh·34 bytes (lib/memory, selective recomputation, 2-byte activations).
 *
 * DeepSpeed: `estimate_zero2_model_states_mem_needs` (stage ≤ 2) or
 * `estimate_zero3_model_states_mem_needs` (stage 3), 1 GPU, additional_buffer_factor 1.5.
 *
 * @param config the run (as {@link simulateOffloadStep})
 * @returns bytes per memory and component
 * @throws RangeError as {@link resolveOffloadConfig}
 * @example offloadMemory({ numLayers: 2, hiddenSize: 1024 }).cpu.optimizerStates // 12 · 2 · 12 · 1024² = 301989888
 * @see Ren et al. 2021, *ZeRO-Offload*, §4.1 and Fig. 2; DeepSpeed `deepspeed/runtime/zero/stage_1_and_2.py`
 *   (`initialize_optimizer_states`: an fp32 gradient partition on the offload device; `estimate_zero2_model_states_mem_needs`) and
 *   `deepspeed/runtime/zero/stage3.py` (`estimate_zero3_model_states_mem_needs`), commit 38327e07f6cd39b63418f60cedd1651b0be3e7c3;
 *   Korthikanti et al. 2022, Table 2 (activations)
 */
export function offloadMemory(config: OffloadConfig): OffloadMemory {
  const c = resolveOffloadConfig(config);
  const psi = c.paramsPerLayer, P = psi * c.numLayers;
  const numHeads = Math.max(1, Math.round(c.hiddenSize / 128));
  const act = c.numLayers * activationBytesPerLayer({ seqLen: c.seqLen, microBatch: c.microBatch, hiddenSize: c.hiddenSize, numHeads, recompute: "selective" });
  const zero = parts(0, 0, 0, 0);
  let gpu: MemoryParts, cpu: MemoryParts = zero, nvme: MemoryParts = zero;
  if (c.offloadOptimizer === "none") gpu = parts(2 * P, 2 * P, 12 * P, act);
  else {
    const onGpu16 = c.offloadParam === "none" ? 2 * P : 4 * psi;
    gpu = parts(onGpu16, 2 * psi, 0, act);
    const host16 = c.offloadParam === "none" ? 0 : 2 * P;
    const states = parts(0, 0, 12 * P, 0);
    cpu = parts(c.offloadParam === "cpu" ? host16 : 0, 4 * P, c.offloadOptimizer === "cpu" ? 12 * P : 0, 0);
    nvme = parts(c.offloadParam === "nvme" ? host16 : 0, 0, c.offloadOptimizer === "nvme" ? states.optimizerStates : 0, 0);
  }
  const deepspeed = c.stage === 3
    ? { ...estimateZero3ModelStatesMemNeeds(P, psi, { cpuOffload: c.offloadOptimizer !== "none", cpuOffloadParams: c.offloadParam !== "none" }), estimator: "estimate_zero3_model_states_mem_needs" }
    : { ...estimateZero2ModelStatesMemNeeds(P, c.offloadOptimizer !== "none"), estimator: "estimate_zero2_model_states_mem_needs" };
  return {
    gpu, cpu, nvme, totalParams: P,
    deepspeed: { cpuBytes: deepspeed.cpuBytes, gpuBytes: deepspeed.gpuBytes, estimator: deepspeed.estimator },
    fits: { gpu: gpu.total <= c.hardware.gpuMemoryBytes, cpu: cpu.total <= c.hardware.cpuMemoryBytes },
  };
}
