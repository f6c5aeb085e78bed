import { linkCostModel, validateCostModel, type CostModel } from "../collectives/index.js";
import { gpuPreset, type GpuSpec } from "./gpuPresets.js";

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

function node(gpu: string, gpusPerNode: number, nodes: number, intra: string, inter: string, pcie: string, cpuBytes: number): Cluster {
  return { gpu: gpuPreset(gpu), gpusPerNode, nodes, intraNode: linkCostModel(intra), interNode: linkCostModel(inter), pcie: linkCostModel(pcie), cpuMemoryBytesPerNode: cpuBytes };
}

/**
 * Clusters the planner's page and CLI offer by name.
 * | id | GPUs | inside a node | between nodes | host memory per node |
 * |---|---|---|---|---|
 * | 8x-a100-80gb | 1 node × 8 A100 80GB (DGX A100) | NVSwitch, 300 GB/s | (none) | 2 TiB |
 * | 64x-h100-80gb | 8 nodes × 8 H100 80GB (DGX H100) | NVSwitch, 450 GB/s | 400 Gb/s per GPU | 2 TiB |
 * | 1024x-a100-80gb | 128 nodes × 8 A100 80GB | NVSwitch, 300 GB/s | 200 Gb/s per GPU | 2 TiB |
 * @example CLUSTER_PRESETS.map((c) => c.id) // ["8x-a100-80gb", "64x-h100-80gb", "1024x-a100-80gb"]
 * @see NVIDIA DGX A100 datasheet (8 × A100 80GB, NVSwitch, 8 × 200 Gb/s HDR InfiniBand, 2 TB system memory);
 *   NVIDIA DGX H100 datasheet (8 × H100 SXM, NVSwitch, 8 × 400 Gb/s ConnectX-7, 2 TB system memory);
 *   lib/collectives LINK_PRESETS for the link figures
 */
export const CLUSTER_PRESETS: readonly ClusterPreset[] = Object.freeze([
  {
    id: "8x-a100-80gb", name: "8 × A100 80GB, one NVSwitch node (the notes' machine)",
    cluster: node("a100-80gb", 8, 1, "a100-nvswitch", "net-200g", "pcie4-x16", 2 * TiB),
    source: "NVIDIA DGX A100 datasheet",
  },
  {
    id: "64x-h100-80gb", name: "64 × H100 80GB: 8 nodes of 8, 400 Gb/s per GPU between nodes",
    cluster: node("h100-80gb", 8, 8, "h100-nvswitch", "net-400g", "pcie5-x16", 2 * TiB),
    source: "NVIDIA DGX H100 datasheet",
  },
  {
    id: "1024x-a100-80gb", name: "1,024 × A100 80GB: 128 nodes of 8, 200 Gb/s per GPU between nodes",
    cluster: node("a100-80gb", 8, 128, "a100-nvswitch", "net-200g", "pcie4-x16", 2 * TiB),
    source: "NVIDIA DGX A100 datasheet (the node); the size is the planner's benchmark case",
  },
].map((c) => Object.freeze(c)));

/**
 * The cluster with this id.
 * @param id one of the ids of {@link CLUSTER_PRESETS}
 * @returns a fresh copy of its {@link Cluster}
 * @throws RangeError `unknown cluster "dgx"; known: 8x-a100-80gb, 64x-h100-80gb, 1024x-a100-80gb`
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
