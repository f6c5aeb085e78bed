/**
 * A GPU as the planner sees it: memory and peak dense 16-bit matmul throughput.
 * @see {@link GPU_PRESETS} for the datasheets each figure comes from
 */
export interface GpuSpec {
  /** Short id, e.g. "a100-80gb". */
  id: string;
  name: string;
  /** Usable device memory in bytes (the marketing "80 GB" is 80 GiB on these parts: nvidia-smi reports 81920 MiB). */
  memoryBytes: number;
  /** Peak dense fp16/bf16 tensor-core FLOP/s (without structured sparsity). */
  peakFlops16: number;
  /** The document the figures come from. */
  source: string;
}

const GiB = 2 ** 30;

/**
 * GPUs the planner knows by name.
 * | id | memory | dense fp16/bf16 peak |
 * |---|---|---|
 * | a100-40gb | 40 GiB | 312 TFLOP/s |
 * | a100-80gb | 80 GiB | 312 TFLOP/s |
 * | h100-80gb (SXM) | 80 GiB | 989 TFLOP/s |
 * @example GPU_PRESETS.find((g) => g.id === "a100-80gb")!.peakFlops16 // 312e12
 * @see NVIDIA A100 Tensor Core GPU datasheet (BF16/FP16 tensor core 312 TFLOPS dense, 624 with sparsity);
 *   NVIDIA H100 Tensor Core GPU datasheet (SXM: BF16/FP16 tensor core 1,979 TFLOPS with sparsity, half of it dense)
 */
export const GPU_PRESETS: readonly GpuSpec[] = Object.freeze([
  { id: "a100-40gb", name: "NVIDIA A100 40GB (SXM)", memoryBytes: 40 * GiB, peakFlops16: 312e12, source: "NVIDIA A100 datasheet: 312 TFLOPS BF16/FP16 tensor core (dense)" },
  { id: "a100-80gb", name: "NVIDIA A100 80GB (SXM)", memoryBytes: 80 * GiB, peakFlops16: 312e12, source: "NVIDIA A100 datasheet: 312 TFLOPS BF16/FP16 tensor core (dense)" },
  { id: "h100-80gb", name: "NVIDIA H100 80GB (SXM)", memoryBytes: 80 * GiB, peakFlops16: 989.5e12, source: "NVIDIA H100 datasheet: 1,979 TFLOPS BF16/FP16 tensor core with sparsity; dense is half" },
].map((g) => Object.freeze(g)));

/**
 * The GPU with this id.
 * @param id one of the ids of {@link GPU_PRESETS}
 * @returns a copy of its {@link GpuSpec}
 * @throws RangeError `unknown GPU "v100"; known: a100-40gb, a100-80gb, h100-80gb`
 * @example gpuPreset("h100-80gb").memoryBytes // 85899345920 (80 GiB)
 * @see {@link GPU_PRESETS}
 */
export function gpuPreset(id: string): GpuSpec {
  const g = GPU_PRESETS.find((x) => x.id === id);
  if (!g) throw new RangeError(`unknown GPU ${JSON.stringify(id)}; known: ${GPU_PRESETS.map((x) => x.id).join(", ")}`);
  return { ...g };
}
