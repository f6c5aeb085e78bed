/**
 * One row of Table 1 of Narayanan et al. 2021: a GPT model, the (t, p) that
 * Megatron-LM used on n A100 GPUs of Selene, and the throughput it measured.
 * @see {@link MEGATRON_TABLE_1}
 */
export interface MegatronRun {
  /** Parameters in billions, as printed. */
  paramsBillions: number;
  numHeads: number;
  hiddenSize: number;
  numLayers: number;
  tensorParallel: number;
  pipelineParallel: number;
  gpus: number;
  /** Global batch in sequences. */
  batch: number;
  /** Achieved teraFLOP/s per GPU, counting the recomputed forward (their Eq. 3). */
  teraflopsPerGpu: number;
  /** Percentage of the 312 TFLOP/s peak, as printed. */
  percentOfPeak: number;
}

/**
 * Table 1 of Narayanan et al. 2021 ("weak-scaling throughput for GPT models
 * ranging from 1 billion to 1 trillion parameters"), typed in as printed.
 * Common to every row: vocabulary 51,200, sequence length 2,048, mixed
 * precision, activation recomputation, A100 80GB GPUs in DGX A100 nodes
 * (8 per node, NVSwitch inside, 8 × 200 Gb/s HDR InfiniBand per node).
 * @example MEGATRON_TABLE_1.at(-1) // the 1T row: t = 8, p = 64 on 3,072 GPUs, 163 TFLOP/s per GPU (52 % of peak)
 * @see Narayanan et al. 2021, *Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM* (SC'21, arXiv:2104.04473), Table 1 and §5.1
 */
export const MEGATRON_TABLE_1: readonly MegatronRun[] = Object.freeze([
  [1.7, 24, 2304, 24, 1, 1, 32, 512, 137, 44],
  [3.6, 32, 3072, 30, 2, 1, 64, 512, 138, 44],
  [7.5, 32, 4096, 36, 4, 1, 128, 512, 142, 46],
  [18.4, 48, 6144, 40, 8, 1, 256, 1024, 135, 43],
  [39.1, 64, 8192, 48, 8, 2, 512, 1536, 138, 44],
  [76.1, 80, 10240, 60, 8, 4, 1024, 1792, 140, 45],
  [145.6, 96, 12288, 80, 8, 8, 1536, 2304, 148, 47],
  [310.1, 128, 16384, 96, 8, 16, 1920, 2160, 155, 50],
  [529.6, 128, 20480, 105, 8, 35, 2520, 2520, 163, 52],
  [1008.0, 160, 25600, 128, 8, 64, 3072, 3072, 163, 52],
].map(([paramsBillions, numHeads, hiddenSize, numLayers, tensorParallel, pipelineParallel, gpus, batch, teraflopsPerGpu, percentOfPeak]) =>
  Object.freeze({ paramsBillions, numHeads, hiddenSize, numLayers, tensorParallel, pipelineParallel, gpus, batch, teraflopsPerGpu, percentOfPeak })));
