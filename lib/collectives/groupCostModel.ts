import { checkNumRanks, validateCostModel, type CostModel } from "./costModel.js";

/**
 * The links of a cluster of identical nodes, as a ring collective sees them:
 * one link per GPU inside a node (NVLink/NVSwitch, or PCIe) and one network
 * adapter per GPU between nodes (rail-aligned: GPU i of every node on NIC i).
 * @see {@link groupCostModel}
 */
export interface NodeTopology {
  /** G, GPUs per node (integer ≥ 1). */
  gpusPerNode: number;
  /** One GPU's link inside a node, per direction (bytes/s a ring step can move). */
  intraNode: CostModel;
  /** One GPU's network adapter, per direction (a node has G of them). */
  interNodePerGpu: CostModel;
}

/**
 * The α-β link a ring collective of a group of ranks runs at: a group inside
 * one node uses the node's link; a group that spans nodes with g members in
 * each node sends each node's traffic over g network adapters at once, so
 *
 *   B = min(B_intra, g · B_nic),   α = α_nic,
 *
 * not one adapter's B_nic. NCCL builds one ring per channel and spreads the
 * channels over the adapters of the GPUs in the group (rails), so a ring that
 * enters and leaves a node through g adapters carries g times one adapter's
 * rate, up to what the node's own links carry. Checked against nccl-tests:
 * two nodes of 8 A100 with 4 HDR adapters (g · B_nic = 4 × 25 GB/s = 100 GB/s)
 * measure 86–91 GB/s bus bandwidth; a DGX A100 pair with 8 adapters measures
 * 192 of 200 GB/s.
 * @param topology the cluster's links ({@link NodeTopology})
 * @param groupSize ranks of the group (integer ≥ 1)
 * @param membersPerNode g, ranks of the group in each node it touches (integer from 1 to min(groupSize, G))
 * @returns a new {@link CostModel}: the node link when the group fits in one node (groupSize ≤ membersPerNode), else the rule above
 * @throws RangeError `groupSize must be an integer >= 1, got 0`; `membersPerNode must be an integer from 1 to 8, got 9`;
 *   and the errors of {@link validateCostModel} (prefixed `intraNode: ` or `interNodePerGpu: `)
 * @example groupCostModel({ gpusPerNode: 8, intraNode: { alphaS: 5e-6, bandwidthBytesPerS: 300e9 }, interNodePerGpu: { alphaS: 5e-6, bandwidthBytesPerS: 25e9 } }, 16, 8).bandwidthBytesPerS
 *   // 200e9: 8 adapters of 25 GB/s, not one
 * @see NVIDIA/nccl-tests issues #100 (2 × HGX A100, 4 × HDR: 91 GB/s busbw) and #175 (86 GB/s of 100); NVIDIA/nccl issue #1576
 *   (a DGX A100 pair with 8 × 200 Gb/s: 192 GB/s busbw, quoted from an NVIDIA engineer); NCCL documentation, "NCCL_CROSS_NIC" (rings stay on a rail);
 *   Narayanan et al. 2021, §4.1 (8 InfiniBand cards per DGX A100)
 */
export function groupCostModel(topology: NodeTopology, groupSize: number, membersPerNode: number): CostModel {
  const n = checkNumRanks(groupSize, "groupSize");
  const G = checkNumRanks(topology.gpusPerNode, "gpusPerNode");
  if (!Number.isInteger(membersPerNode) || membersPerNode < 1 || membersPerNode > Math.min(n, G)) {
    throw new RangeError(`membersPerNode must be an integer from 1 to ${Math.min(n, G)}, got ${membersPerNode}`);
  }
  const check = (name: string, c: CostModel) => {
    try { return validateCostModel(c); } catch (e) { throw new RangeError(`${name}: ${(e as Error).message}`); }
  };
  const intra = check("intraNode", topology.intraNode);
  const nic = check("interNodePerGpu", topology.interNodePerGpu);
  if (n <= membersPerNode) return { alphaS: intra.alphaS, bandwidthBytesPerS: intra.bandwidthBytesPerS };
  const bw = Math.min(intra.bandwidthBytesPerS, membersPerNode * nic.bandwidthBytesPerS);
  return { alphaS: Math.max(intra.alphaS, nic.alphaS), bandwidthBytesPerS: bw };
}

/**
 * Members per node of a group of ranks spaced `stride` apart in a cluster of
 * G GPUs per node, ranks numbered node by node (Megatron-LM orders tensor-,
 * then data-, then pipeline-parallel ranks): a group of n ranks with stride s
 * has min(n, max(1, ⌊G/s⌋)) members in each node it touches.
 * @param groupSize n (integer ≥ 1)
 * @param stride s, the rank distance between consecutive members (integer ≥ 1): 1 for tensor parallelism, t for data parallelism, t·d for pipeline stages
 * @param gpusPerNode G (integer ≥ 1)
 * @returns g, an integer from 1 to min(n, G)
 * @throws RangeError `stride must be an integer >= 1, got 0` (likewise groupSize, gpusPerNode)
 * @example membersPerNode(32, 8, 8) // 1: the data-parallel group of t = 8 has one rank per node
 * @example membersPerNode(16, 2, 8) // 4
 * @see Megatron-LM `megatron/core/parallel_state.py` (`RankGenerator`, order "tp-cp-ep-dp-pp")
 */
export function membersPerNode(groupSize: number, stride: number, gpusPerNode: number): number {
  const n = checkNumRanks(groupSize, "groupSize");
  const s = checkNumRanks(stride, "stride");
  const G = checkNumRanks(gpusPerNode, "gpusPerNode");
  return Math.min(n, G, Math.max(1, Math.floor(G / s)));
}
