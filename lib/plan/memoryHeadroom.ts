/**
 * The share of a GPU's memory the planner keeps free by default for what chapter 2's
 * estimate does not count: the CUDA context (created outside PyTorch's caching
 * allocator, so never in `memory_allocated`), NCCL's communication buffers
 * (`NCCL_BUFFSIZE`, 4 MiB per channel and peer, for each communicator: tensor, data and
 * pipeline groups), library workspaces (cuBLAS), and the allocator's fragmentation
 * (reserved but unusable blocks). 10 % is the share vLLM leaves by default
 * (`gpu_memory_utilization = 0.9`) for the same items; a training run may need more
 * or less: measure `torch.cuda.max_memory_reserved()` against the card and set your own.
 * @example DEFAULT_MEMORY_HEADROOM * 80 // 8 GiB of an 80 GiB GPU
 * @see PyTorch documentation, "CUDA semantics → Memory management" (cached vs allocated memory, fragmentation,
 *   `expandable_segments`); NCCL documentation, "Environment variables → NCCL_BUFFSIZE" (default 4 MiB);
 *   vLLM documentation, engine arguments (`--gpu-memory-utilization`, default 0.9)
 */
export const DEFAULT_MEMORY_HEADROOM = 0.1;

/**
 * Checks a headroom fraction.
 * @param headroom fraction of GPU memory kept free, in [0, 1)
 * @returns `headroom`
 * @throws RangeError `memoryHeadroom must be a number in [0, 1), got 1`
 * @example usableMemoryBytes(80 * 2 ** 30, 0.1) / 2 ** 30 // 72
 * @see {@link DEFAULT_MEMORY_HEADROOM}
 */
export function checkHeadroom(headroom: number): number {
  if (typeof headroom !== "number" || !Number.isFinite(headroom) || headroom < 0 || headroom >= 1) throw new RangeError(`memoryHeadroom must be a number in [0, 1), got ${headroom}`);
  return headroom;
}

/**
 * Bytes a plan may use on a GPU: its memory less the headroom.
 * @param memoryBytes the GPU's memory
 * @param headroom fraction kept free (default {@link DEFAULT_MEMORY_HEADROOM})
 * @returns (1 − headroom) · memoryBytes
 * @throws RangeError as {@link checkHeadroom}
 * @example usableMemoryBytes(80 * 2 ** 30) / 2 ** 30 // 72
 * @see {@link DEFAULT_MEMORY_HEADROOM}
 */
export function usableMemoryBytes(memoryBytes: number, headroom = DEFAULT_MEMORY_HEADROOM): number {
  return (1 - checkHeadroom(headroom)) * memoryBytes;
}
