import { linkCostModel, validateCostModel, type CostModel } from "../collectives/index.js";
import { gpuPreset, type GpuSpec } from "../perf/gpuPresets.js";

/**
 * A cluster as the planner sees it: identical nodes of identical GPUs, one
 * α-β link inside a node (NVLink/NVSwitch), one between nodes (the network,
 * per GPU), the PCIe link between each GPU and its host, and host memory.
 * @see {@link CLUSTER_PRESETS}; the links are lib/collectives' {@link linkCostModel} presets
 */
export interface Cluster {
  gpu: GpuSpec;
  gpusPerNode: number;
  nodes: number;
  /** GPU to GPU inside a node, per direction. */
  intraNode: CostModel;
  /** GPU to GPU across nodes, per GPU and direction. */
  interNode: CostModel;
  /** GPU to host (offload traffic), per GPU and direction. */
  pcie: CostModel;
  /** Host (CPU) memory of one node, bytes. */
  cpuMemoryBytesPerNode: number;
}

/**
 * A named cluster.
 * @see {@link CLUSTER_PRESETS}
 */
export interface ClusterPreset {
  id: string;
  name: string;
  cluster: Cluster;
  source: string;
}

const TiB = 2 ** 40;

/**
 * A cluster of identical nodes of one GPU type: the links inside a node and to the
 * host come from the GPU's preset, the network per GPU from `interNodeLink`.
 * @param gpuId one of the ids of lib/plan's GPU_PRESETS
 * @param gpusPerNode G (integer ≥ 1)
 * @param nodes integer ≥ 1
 * @param interNodeLink a lib/collectives link id for one GPU's share of the network, e.g. "net-400g"
 * @param cpuMemoryBytesPerNode host memory of one node, bytes
 * @returns a new {@link Cluster}
 * @throws RangeError `unknown GPU "v100"; known: …`, `unknown link preset "ib"; known: …`
 * @example clusterOf("h200-141gb", 8, 4, "net-400g", 2 * 2 ** 40).intraNode.bandwidthBytesPerS // 450e9
 * @see {@link CLUSTER_PRESETS}
 */
export function clusterOf(gpuId: string, gpusPerNode: number, nodes: number, interNodeLink: string, cpuMemoryBytesPerNode: number): Cluster {
  const gpu = gpuPreset(gpuId);
  return { gpu, gpusPerNode, nodes, intraNode: linkCostModel(gpu.intraNodeLink), interNode: linkCostModel(interNodeLink), pcie: linkCostModel(gpu.hostLink), cpuMemoryBytesPerNode };
}

/**
 * Clusters the planner's page and CLI offer by name.
 * | id | GPUs | inside a node (both directions) | network per GPU | host memory per node |
 * |---|---|---|---|---|
 * | 8x-a100-80gb | 1 DGX A100 | NVSwitch, 600 GB/s | (none) | 2 TiB |
 * | 64x-h100-80gb | 8 DGX H100 | NVSwitch, 900 GB/s | 400 Gb/s | 2 TiB |
 * | 1024x-a100-80gb | 128 DGX A100 | NVSwitch, 600 GB/s | 200 Gb/s | 2 TiB |
 * | 8x-h200-141gb | 1 DGX H200 | NVSwitch, 900 GB/s | 400 Gb/s | 2 TiB |
 * | 8x-b200-180gb | 1 DGX B200 | NVSwitch, 1.8 TB/s | 400 Gb/s | 2 TiB |
 * | 8x-mi300x-192gb | 1 MI300X platform | Infinity Fabric, 7 × 128 GB/s | 400 Gb/s (assumed) | 2 TiB (assumed) |
 * | 8x-l40s-48gb | 1 PCIe server of 8 L40S | PCIe 4.0 ×16 | 100 Gb/s (assumed) | 1 TiB (assumed) |
 * The GB200 NVL72 (72 GPUs in one NVLink domain, Grace hosts over NVLink-C2C) is not modelled:
 * its host link and its GPUs' memory differ from a B200 node's, and the planner's offload model
 * knows PCIe only.
 * @example CLUSTER_PRESETS.map((c) => c.id).slice(0, 3) // ["8x-a100-80gb", "64x-h100-80gb", "1024x-a100-80gb"]
 * @see NVIDIA DGX A100 datasheet (8 × A100 80GB, NVSwitch, 8 × 200 Gb/s HDR InfiniBand, 2 TB system memory);
 *   NVIDIA DGX H100 and DGX H200 datasheets (8 GPUs, NVSwitch, 8 × 400 Gb/s ConnectX-7, 2 TB system memory);
 *   NVIDIA DGX B200 datasheet (8 × B200, NVLink 5, 8 × single-port ConnectX-7 400 Gb/s, 2 TB system memory);
 *   AMD Instinct MI300X data sheet (the GPUs and their links; the network and host memory are server-dependent);
 *   NVIDIA L40S datasheet (PCIe Gen4 ×16, no NVLink); lib/collectives LINK_PRESETS for the link figures
 */
export const CLUSTER_PRESETS: readonly ClusterPreset[] = Object.freeze([
  { id: "8x-a100-80gb", name: "8 × A100 80GB, one NVSwitch node (the notes' machine)", cluster: clusterOf("a100-80gb", 8, 1, "net-200g", 2 * TiB), source: "NVIDIA DGX A100 datasheet" },
  { id: "64x-h100-80gb", name: "64 × H100 80GB: 8 nodes of 8, 400 Gb/s per GPU between nodes", cluster: clusterOf("h100-80gb", 8, 8, "net-400g", 2 * TiB), source: "NVIDIA DGX H100 datasheet" },
  { id: "1024x-a100-80gb", name: "1,024 × A100 80GB: 128 nodes of 8, 200 Gb/s per GPU between nodes", cluster: clusterOf("a100-80gb", 8, 128, "net-200g", 2 * TiB), source: "NVIDIA DGX A100 datasheet (the node); the size is the planner's benchmark case" },
  { id: "8x-h200-141gb", name: "8 × H200 141GB, one DGX H200", cluster: clusterOf("h200-141gb", 8, 1, "net-400g", 2 * TiB), source: "NVIDIA DGX H200 datasheet" },
  { id: "8x-b200-180gb", name: "8 × B200 180GB, one DGX B200", cluster: clusterOf("b200-180gb", 8, 1, "net-400g", 2 * TiB), source: "NVIDIA DGX B200 datasheet" },
  { id: "8x-mi300x-192gb", name: "8 × MI300X 192GB, one Infinity Fabric platform", cluster: clusterOf("mi300x-192gb", 8, 1, "net-400g", 2 * TiB), source: "AMD Instinct MI300X data sheet (network and host memory assumed, server-dependent)" },
  { id: "8x-l40s-48gb", name: "8 × L40S 48GB, one PCIe server (no NVLink)", cluster: clusterOf("l40s-48gb", 8, 1, "net-100g", TiB), source: "NVIDIA L40S datasheet (network and host memory assumed, server-dependent)" },
].map((c) => Object.freeze(c)));

/**
 * The cluster with this id.
 * @param id one of the ids of {@link CLUSTER_PRESETS}
 * @returns a fresh copy of its {@link Cluster}
 * @throws RangeError `unknown cluster "dgx"; known: 8x-a100-80gb, 64x-h100-80gb, 1024x-a100-80gb, 8x-h200-141gb, …`
 * @example clusterPreset("64x-h100-80gb").nodes // 8
 * @see {@link CLUSTER_PRESETS}
 */
export function clusterPreset(id: string): Cluster {
  const c = CLUSTER_PRESETS.find((x) => x.id === id);
  if (!c) throw new RangeError(`unknown cluster ${JSON.stringify(id)}; known: ${CLUSTER_PRESETS.map((x) => x.id).join(", ")}`);
  return structuredClone(c.cluster) as Cluster;
}

/**
 * Checks a cluster and returns it: every count a positive integer, every size
 * and rate finite and positive, the links valid α-β models.
 * @param c the cluster
 * @returns `c`
 * @throws RangeError naming the field, e.g. `cluster.gpusPerNode must be an integer >= 1, got 0`,
 *   `cluster.gpu.memoryBytes must be a finite number > 0, got NaN`, `cluster.interNode: bandwidthBytesPerS must be …`
 * @example checkCluster(clusterPreset("8x-a100-80gb")).gpusPerNode // 8
 * @see {@link Cluster}
 */
export function checkCluster(c: Cluster): Cluster {
  for (const k of ["gpusPerNode", "nodes"] as const) {
    if (!Number.isSafeInteger(c[k]) || c[k] < 1) throw new RangeError(`cluster.${k} must be an integer >= 1, got ${c[k]}`);
  }
  for (const [k, v] of [["gpu.memoryBytes", c.gpu?.memoryBytes], ["gpu.peakFlops16", c.gpu?.peakFlops16], ["cpuMemoryBytesPerNode", c.cpuMemoryBytesPerNode]] as const) {
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) throw new RangeError(`cluster.${k} must be a finite number > 0, got ${v}`);
  }
  for (const k of ["intraNode", "interNode", "pcie"] as const) {
    try { validateCostModel(c[k]); } catch (e) { throw new RangeError(`cluster.${k}: ${(e as Error).message}`); }
  }
  return c;
}
