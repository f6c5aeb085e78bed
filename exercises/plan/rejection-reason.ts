import { notImplemented } from "../harness/index.js";

/** What the judgement needs of a memory estimate (lib/memory's `MemoryEstimate`, trimmed). */
export interface MemoryView {
  perGpu: { parameters: number; gradients: number; optimizerStates: number; gradientBuckets: number; activations: number; total: number };
  /** The peak: the steady state plus transient lines (each with the reader's name `what`). */
  peak: { total: number; lines: { what: string; bytes: number }[] };
  /** Bytes each GPU's offload keeps in host memory. */
  cpuBytesPerGpu: number;
}

/**
 * Exercise 12.2 — will the plan run, and if not, why?
 *
 * Return undefined when the plan runs, else one sentence, checking three rules in this order:
 * 1. pipeline parallelism (pipelineParallel > 1) with ZeRO stage 2 or 3 — DeepSpeed's pipeline engine
 *    refuses it: `ZeRO-2 with pipeline parallelism: DeepSpeed's pipeline engine accepts ZeRO stage 0 or 1 only`
 * 2. the peak above the GPU's memory (the planner keeps a headroom, 10 % by default, which here is
 *    already taken off: judge against `cluster.gpu.memoryBytes` as given):
 *    `needs 85.00 GiB > 80.00 GiB per GPU: largest part stored activations (55.00 GiB)`
 *    — sizes in GiB (2^30 bytes) with two decimals; the largest part is the largest of
 *    parameters, gradients, optimizer states, gradient buckets, stored activations (those words)
 *    and the peak's transient lines (their `what`), the first one on a tie, in that order
 * 3. host memory: offload needs cpuBytesPerGpu × gpusPerNode, more than cpuMemoryBytesPerNode:
 *    `offload needs 2400.00 GiB of host memory > 2048.00 GiB per node`
 *
 * Read: the chapter's "Will it fit?" section.
 *
 * @param plan { pipelineParallel, zeroStage }
 * @param memory the plan's memory estimate (see {@link MemoryView})
 * @param cluster { gpu: { memoryBytes }, gpusPerNode, cpuMemoryBytesPerNode }
 * @returns the reason, or undefined
 * @example rejectionReason({ pipelineParallel: 1, zeroStage: 1 }, { perGpu: { parameters: 10 * 2 ** 30, gradients: 10 * 2 ** 30, optimizerStates: 10 * 2 ** 30, gradientBuckets: 0, activations: 55 * 2 ** 30, total: 85 * 2 ** 30 }, peak: { total: 85 * 2 ** 30, lines: [] }, cpuBytesPerGpu: 0 }, { gpu: { memoryBytes: 80 * 2 ** 30 }, gpusPerNode: 8, cpuMemoryBytesPerNode: 2 ** 41 })
 *   // "needs 85.00 GiB > 80.00 GiB per GPU: largest part stored activations (55.00 GiB)"
 */
export function rejectionReason(
  plan: { pipelineParallel: number; zeroStage: 0 | 1 | 2 | 3 },
  memory: MemoryView,
  cluster: { gpu: { memoryBytes: number }; gpusPerNode: number; cpuMemoryBytesPerNode: number },
): string | undefined {
  return notImplemented("12.2");
}
