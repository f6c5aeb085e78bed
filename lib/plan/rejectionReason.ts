import { formatGiB, type MemoryEstimate } from "../memory/index.js";
import type { Cluster } from "./clusterPresets.js";
import type { Plan } from "./planLabel.js";
import { DEFAULT_MEMORY_HEADROOM, usableMemoryBytes } from "./memoryHeadroom.js";

const gib = (bytes: number) => `${formatGiB(bytes)} GiB`;

/** The named part of the peak that is largest: a steady component or a transient line. */
function largestPart(m: MemoryEstimate): string {
  const parts: [string, number][] = [
    ["parameters", m.perGpu.parameters], ["gradients", m.perGpu.gradients], ["optimizer states", m.perGpu.optimizerStates],
    ["gradient buckets", m.perGpu.gradientBuckets], ["stored activations", m.perGpu.activations],
    ...m.peak.lines.map((l) => [l.what, l.bytes] as [string, number]),
  ];
  let best = parts[0];
  for (const p of parts) if (p[1] > best[1]) best = p;
  return `${best[0]} (${gib(best[1])})`;
}

/**
 * Why a plan cannot run, or `undefined` when it can. Three rules, checked in this order:
 * 1. pipeline parallelism with ZeRO-2 or ZeRO-3: DeepSpeed's pipeline engine
 *    refuses them (the planner runs pipelines with DeepSpeed or Megatron-LM; torch.distributed.pipelining
 *    with FSDP, as TorchTitan composes them, is not modelled) →
 *    `ZeRO-2 with pipeline parallelism: DeepSpeed's pipeline engine accepts ZeRO stage 0 or 1 only`;
 * 2. the PEAK (not the steady state) above the GPU's memory less the headroom →
 *    `needs 93.10 GiB > 72.00 GiB usable per GPU (80.00 GiB less 10 % headroom): largest part <the largest component or transient line> (41.20 GiB)`,
 *    sizes with two decimals in GiB (2^30 bytes), the largest part chosen among the
 *    steady components (parameters, gradients, optimizer states, gradient buckets,
 *    stored activations) and the peak's transient lines (by their `what`), the first on a tie;
 * 3. offload above the node's host memory (CPU bytes per GPU × GPUs per node) →
 *    `offload needs 2100.00 GiB of host memory > 2048.00 GiB per node`.
 * @param plan the plan (its ZeRO stage and pipeline size)
 * @param memory the plan's estimate from lib/memory's `estimateMemory`
 * @param cluster GPU memory, GPUs per node and host memory
 * @param headroom fraction of GPU memory kept free (default 0.1: lib/plan's DEFAULT_MEMORY_HEADROOM)
 * @returns the reason, or undefined
 * @throws nothing for well-formed input
 * @example rejectionReason({ ...plan, pipelineParallel: 2, zeroStage: 3 }, memory, cluster) // "ZeRO-3 with pipeline parallelism: DeepSpeed's pipeline engine accepts ZeRO stage 0 or 1 only"
 * @see DeepSpeed runtime/pipe/engine.py (`ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism`); chapter 2 (the peak)
 */
export function rejectionReason(plan: Pick<Plan, "pipelineParallel" | "zeroStage">, memory: MemoryEstimate, cluster: Pick<Cluster, "gpu" | "gpusPerNode" | "cpuMemoryBytesPerNode">, headroom = DEFAULT_MEMORY_HEADROOM): string | undefined {
  if (plan.pipelineParallel > 1 && plan.zeroStage >= 2) {
    return `ZeRO-${plan.zeroStage} with pipeline parallelism: DeepSpeed's pipeline engine accepts ZeRO stage 0 or 1 only`;
  }
  const usable = usableMemoryBytes(cluster.gpu.memoryBytes, headroom);
  if (memory.peak.total > usable) {
    const room = headroom > 0 ? ` usable per GPU (${gib(cluster.gpu.memoryBytes)} less ${+(headroom * 100).toFixed(1)} % headroom)` : " per GPU";
    return `needs ${gib(memory.peak.total)} > ${gib(usable)}${room}: largest part ${largestPart(memory)}`;
  }
  const host = memory.cpuBytesPerGpu * cluster.gpusPerNode;
  if (host > cluster.cpuMemoryBytesPerNode) return `offload needs ${gib(host)} of host memory > ${gib(cluster.cpuMemoryBytesPerNode)} per node`;
  return undefined;
}

/**
 * A rejection reason without its numbers, to count plans by cause.
 * @param reason a reason from {@link rejectionReason}
 * @returns e.g. "needs more than 72.00 GiB per GPU; largest part: optimizer states"; other reasons unchanged
 * @example reasonKind("needs 93.10 GiB > 72.00 GiB usable per GPU (80.00 GiB less 10 % headroom): largest part stored activations (41.20 GiB)") // "needs more than 72.00 GiB per GPU; largest part: stored activations"
 * @see {@link rejectionReason}
 */
export function reasonKind(reason: string): string {
  const m = /^needs [\d.]+ GiB > ([\d.]+ GiB)(?: usable)? per GPU(?: \([^)]*\))?: largest part (.*) \([\d.]+ GiB\)$/.exec(reason);
  if (m) return `needs more than ${m[1]} per GPU; largest part: ${m[2]}`;
  const h = /^offload needs [\d.]+ GiB of host memory > ([\d.]+ GiB) per node$/.exec(reason);
  if (h) return `offload needs more than ${h[1]} of host memory per node`;
  return reason;
}

