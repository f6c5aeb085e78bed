/**
 * Hardware and buffer options shared by DeepSpeed's estimators (its defaults: 1 node, 1 GPU, factor 1.5).
 * @see the sources of {@link estimateZero2ModelStatesMemNeeds}: DeepSpeed `deepspeed/runtime/zero/stage_1_and_2.py` `estimate_zero2_model_states_mem_needs`
 */
export interface DeepSpeedSetup {
  numGpusPerNode?: number;
  numNodes?: number;
  /** DeepSpeed's `additional_buffer_factor`, a safety margin on CPU memory (default 1.5). */
  additionalBufferFactor?: number;
}

/**
 * What DeepSpeed's estimator returns: CPU and GPU bytes (Python `int`s).
 * @see the sources of {@link estimateZero2ModelStatesMemNeeds}: DeepSpeed `deepspeed/runtime/zero/stage_1_and_2.py` `estimate_zero2_model_states_mem_needs`
 */
export interface DeepSpeedEstimate {
  cpuBytes: number;
  gpuBytes: number;
}

function setup(totalParams: number, s: DeepSpeedSetup) {
  if (!(Number.isFinite(totalParams) && totalParams >= 0)) throw new RangeError(`totalParams must be a number >= 0, got ${totalParams}`);
  const perNode = s.numGpusPerNode ?? 1;
  const nodes = s.numNodes ?? 1;
  if (!Number.isSafeInteger(perNode) || perNode < 1) throw new RangeError(`numGpusPerNode must be an integer >= 1, got ${perNode}`);
  if (!Number.isSafeInteger(nodes) || nodes < 1) throw new RangeError(`numNodes must be an integer >= 1, got ${nodes}`);
  return { perNode, nodes, totalGpus: perNode * nodes, factor: s.additionalBufferFactor ?? 1.5 };
}

/**
 * DeepSpeed's ZeRO-2 model-state estimate, as its current source computes it
 * (after the 2024 fix, PR #5099, that counts 16-bit parameters and gradients
 * at 2 bytes).
 *
 * cpu_offload: GPU 2Ψ; CPU Ψ·max(4·N, 16)·f. Otherwise: GPU 2Ψ + ⌊18Ψ/N⌋
 * (18 = 2 fp16 grads + 4 fp32 grads + 4 fp32 params + 8 Adam states); CPU
 * Ψ·4·n·f, the fp32 model built on the CPU before it moves to the GPUs.
 * N = all GPUs, n = GPUs per node, f = additional_buffer_factor.
 *
 * @param totalParams Ψ
 * @param cpuOffload DeepSpeed's `cpu_offload` (offload_optimizer to CPU)
 * @param s GPUs per node, nodes, buffer factor
 * @returns integer bytes, truncated like Python's `int()`
 * @throws RangeError `numGpusPerNode must be an integer >= 1, got 0`
 * @example estimateZero2ModelStatesMemNeeds(2851e6, true, { numGpusPerNode: 8 }).gpuBytes / 2 ** 30 // 5.31 (GB as DeepSpeed prints)
 * @see DeepSpeed `deepspeed/runtime/zero/stage_1_and_2.py` `estimate_zero2_model_states_mem_needs`
 */
export function estimateZero2ModelStatesMemNeeds(totalParams: number, cpuOffload: boolean, s: DeepSpeedSetup = {}): DeepSpeedEstimate {
  const { perNode, totalGpus, factor } = setup(totalParams, s);
  if (cpuOffload) {
    return { gpuBytes: Math.trunc(2 * totalParams), cpuBytes: Math.trunc(totalParams * Math.max(4 * totalGpus, 16) * factor) };
  }
  return { gpuBytes: Math.trunc(2 * totalParams + Math.trunc((18 * totalParams) / totalGpus)), cpuBytes: Math.trunc(totalParams * 4 * perNode * factor) };
}

/**
 * The ZeRO-2 GPU estimate before the 2024 fix: 4Ψ + ⌊16Ψ/N⌋ without offload
 * (parameters and gradients counted at 4 bytes). The examples printed in
 * DeepSpeed's "Memory Requirements" page (t5-3b, 15.93GB on 8 GPUs) still come
 * from this formula.
 *
 * @param totalParams Ψ
 * @param s GPUs per node, nodes, buffer factor
 * @returns integer bytes
 * @example estimateZero2ModelStatesMemNeedsBefore2024(2851e6, { numGpusPerNode: 8 }).gpuBytes / 2 ** 30 // 15.93
 * @see DeepSpeed PR #5099 (2024) "estimate_zero2_model_states_mem_needs: fixing memory estimation"
 */
export function estimateZero2ModelStatesMemNeedsBefore2024(totalParams: number, s: DeepSpeedSetup = {}): DeepSpeedEstimate {
  const { perNode, totalGpus, factor } = setup(totalParams, s);
  return { gpuBytes: Math.trunc(4 * totalParams + Math.trunc((16 * totalParams) / totalGpus)), cpuBytes: Math.trunc(totalParams * 4 * perNode * factor) };
}

/**
 * Options of {@link estimateZero3ModelStatesMemNeeds} beyond the setup.
 * @see the sources of {@link estimateZero2ModelStatesMemNeeds}: DeepSpeed `deepspeed/runtime/zero/stage_1_and_2.py` `estimate_zero2_model_states_mem_needs`
 */
export interface Zero3Options extends DeepSpeedSetup {
  /** Offload optimizer states to CPU (DeepSpeed default true). */
  cpuOffload?: boolean;
  /** Offload parameters to CPU too (DeepSpeed default true; ignored without cpuOffload). */
  cpuOffloadParams?: boolean;
  /** Model built under `deepspeed.zero.Init` (partitioned at construction; default true). */
  zeroInit?: boolean;
}

/**
 * DeepSpeed's ZeRO-3 model-state estimate, as its source computes it.
 *
 * largest_layer_memory = 4·L (16-bit parameters and gradients of the largest
 * layer, gathered). No offload: GPU 4L + ⌊18Ψ/N⌋; CPU L·4·n·f with zero.Init,
 * else Ψ·4·n·f. Optimizer offload: GPU 4L + ⌊2Ψ/N⌋; CPU Ψ·16·g·f (zero.Init)
 * or Ψ·max(4n, 16g)·f. Optimizer and parameter offload: GPU 4L; CPU Ψ·18·g·f
 * or Ψ·max(4n, 18g)·f. N = all GPUs, n = per node, g = 1/nodes, f = buffer factor.
 *
 * @param totalParams Ψ
 * @param largestLayerParams L, parameters of the largest module
 * @param o offload switches and setup
 * @returns integer bytes, and largestLayerBytes = 4L
 * @example estimateZero3ModelStatesMemNeeds(2851e6, 32e6, { numGpusPerNode: 8, cpuOffload: false }).gpuBytes / 2 ** 30 // 6.09
 * @see DeepSpeed `deepspeed/runtime/zero/stage3.py` `estimate_zero3_model_states_mem_needs`
 * @throws RangeError `totalParams must be a number >= 0, got -1`; `largestLayerParams must be a number >= 0, got NaN`;
 *   `numGpusPerNode must be an integer >= 1, got 0`; `numNodes must be an integer >= 1, got 0`
 */
export function estimateZero3ModelStatesMemNeeds(totalParams: number, largestLayerParams: number, o: Zero3Options = {}): DeepSpeedEstimate & { largestLayerBytes: number } {
  const { perNode, nodes, totalGpus, factor } = setup(totalParams, o);
  if (!(Number.isFinite(largestLayerParams) && largestLayerParams >= 0)) throw new RangeError(`largestLayerParams must be a number >= 0, got ${largestLayerParams}`);
  const gpusFactor = 1 / nodes;
  const largestLayerBytes = 4 * largestLayerParams;
  const cpuOffload = o.cpuOffload ?? true;
  const cpuOffloadParams = o.cpuOffloadParams ?? true;
  const zeroInit = o.zeroInit ?? true;
  let gpu: number;
  let cpu: number;
  if (cpuOffload && cpuOffloadParams) {
    gpu = largestLayerBytes;
    cpu = zeroInit ? totalParams * 18 * gpusFactor * factor : totalParams * Math.max(4 * perNode, 18 * gpusFactor) * factor;
  } else if (cpuOffload) {
    gpu = largestLayerBytes + Math.trunc((2 * totalParams) / totalGpus);
    cpu = zeroInit ? totalParams * 16 * gpusFactor * factor : totalParams * Math.max(4 * perNode, 16 * gpusFactor) * factor;
  } else {
    gpu = largestLayerBytes + Math.trunc((18 * totalParams) / totalGpus);
    cpu = zeroInit ? largestLayerParams * 4 * perNode * factor : totalParams * 4 * perNode * factor;
  }
  return { cpuBytes: Math.trunc(cpu), gpuBytes: Math.trunc(gpu), largestLayerBytes };
}
