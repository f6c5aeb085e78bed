import { checkBytesPerElement, checkNumRanks, validateCostModel, type CostModel } from "./costModel.js";
import { checkSplits } from "./splits.js";
import type { Topology } from "./World.js";
import type { NodeTopology } from "./groupCostModel.js";

/**
 * Time and bytes of one all-to-all, with the share that crosses nodes.
 * @see the sources of {@link allToAllCost}: Hockney 1994 (α-β); NCCL tests doc/PERFORMANCE.md ("AllToAll": (n−1)/n)
 */
export interface AllToAllCost {
  /** Seconds: α + the busiest link's bytes / its bandwidth (0 when nothing leaves a rank). */
  timeS: number;
  /** Bytes the busiest rank sends (to other ranks). */
  maxBytesSentPerRank: number;
  /** Bytes all ranks send together (to other ranks). */
  totalBytes: number;
  /** Of totalBytes, the bytes between nodes (0 without a topology). */
  interNodeBytes: number;
}

/**
 * Closed-form cost of an all-to-all with the given split table, equal to what
 * {@link allToAll} measures on the simulated World (tests): one step of
 * α + max over ranks of max(intra out, intra in)/B and max(inter out, inter in)/B_net,
 * where "intra" counts bytes to and from ranks of the same node (⌊r/g⌋ equal,
 * g = ranksPerNode) and "inter" the others; a rank's segment for itself costs nothing.
 *
 * @param splits P×P element counts (splits[r][d] from rank r to rank d)
 * @param cost α and B, the link inside a node
 * @param bytesPerElement default 4 (float32); 2 for bf16 activations
 * @param topology nodes (default: all ranks in one node)
 * @returns `{timeS, maxBytesSentPerRank, totalBytes, interNodeBytes}`
 * @throws RangeError from checkSplits, validateCostModel and checkBytesPerElement
 * @example allToAllCost([[0, 4], [4, 0]], { alphaS: 0, bandwidthBytesPerS: 16 }).timeS // 1 (16 bytes each way at 16 B/s)
 * @see Hockney 1994, Parallel Computing 20(3) (α-β); NCCL tests doc/PERFORMANCE.md ("AllToAll")
 */
export function allToAllCost(splits: readonly (readonly number[])[], cost: CostModel, bytesPerElement = 4, topology?: Topology): AllToAllCost {
  const P = splits.length;
  checkSplits(splits, P);
  const c = validateCostModel(cost), b = checkBytesPerElement(bytesPerElement);
  const g = topology?.ranksPerNode ?? P;
  const load = Array.from({ length: P }, () => [0, 0, 0, 0]); // intra out, intra in, inter out, inter in
  let total = 0, inter = 0;
  for (let r = 0; r < P; r++) {
    for (let d = 0; d < P; d++) {
      if (r === d || splits[r][d] === 0) continue;
      const bytes = splits[r][d] * b, x = Math.floor(r / g) !== Math.floor(d / g) ? 2 : 0;
      load[r][x] += bytes; load[d][x + 1] += bytes; total += bytes;
      if (x) inter += bytes;
    }
  }
  if (total === 0) return { timeS: 0, maxBytesSentPerRank: 0, totalBytes: 0, interNodeBytes: 0 };
  let transfer = 0, maxSent = 0;
  for (const [io, ii, eo, ei] of load) {
    transfer = Math.max(transfer, Math.max(io, ii) / c.bandwidthBytesPerS);
    if (topology) transfer = Math.max(transfer, Math.max(eo, ei) / topology.interNodeBandwidthBytesPerS);
    maxSent = Math.max(maxSent, io + eo);
  }
  return { timeS: c.alphaS + transfer, maxBytesSentPerRank: maxSent, totalBytes: total, interNodeBytes: inter };
}

/**
 * The all-to-all in which every rank sends S bytes split evenly over the P
 * ranks (S/P to each, itself included), in closed form. With g = min(ranksPerNode, P)
 * ranks per node (P a multiple of g): a rank sends (g−1)·S/P inside its node
 * and (P−g)·S/P to other nodes, at the same time, so
 *
 * time = α + max((g−1)·S/(P·B), (P−g)·S/(P·B_net)).
 *
 * Within one node (g = P) that is α + (P−1)/P · S/B, the bytes of NCCL's
 * all-to-all bus bandwidth factor (n−1)/n. Across nodes the network term wins
 * as soon as B_net < B·(P−g)/(g−1): EP beyond a node pays the network rate for
 * most of its bytes.
 *
 * @param bytesPerRank S, bytes each rank sends in all (its own share included), ≥ 0
 * @param numRanks P, the ranks of the all-to-all (integer ≥ 1)
 * @param cost α and B inside a node
 * @param topology ranksPerNode g and the network bandwidth B_net (default: one node)
 * @returns `{timeS, maxBytesSentPerRank: (P−1)·S/P, totalBytes: (P−1)·S, interNodeBytes: (P−g)·S}`
 * @throws RangeError `numRanks (12) must be a multiple of topology.ranksPerNode (8) when it exceeds it`;
 *   `bytesPerRank must be a finite number >= 0, got -1`; `numRanks must be an integer >= 1, got 0`; cost-model errors
 * @example uniformAllToAllCost(8e6, 8, { alphaS: 0, bandwidthBytesPerS: 1e9 }).timeS // 0.007 (7/8 of 8 MB at 1 GB/s)
 * @see NCCL tests doc/PERFORMANCE.md ("AllToAll": busbw = algbw · (n−1)/n); DeepSeek-AI 2024, *DeepSeek-V3 Technical Report* §3.2.2 (IB 50 GB/s against NVLink 160 GB/s)
 */
export function uniformAllToAllCost(bytesPerRank: number, numRanks: number, cost: CostModel, topology?: Topology): AllToAllCost {
  const P = checkNumRanks(numRanks), c = validateCostModel(cost);
  if (!Number.isFinite(bytesPerRank) || bytesPerRank < 0) throw new RangeError(`bytesPerRank must be a finite number >= 0, got ${bytesPerRank}`);
  const g = Math.min(topology?.ranksPerNode ?? P, P);
  if (P > g && P % g !== 0) throw new RangeError(`numRanks (${P}) must be a multiple of topology.ranksPerNode (${g}) when it exceeds it`);
  if (P === 1 || bytesPerRank === 0) return { timeS: 0, maxBytesSentPerRank: 0, totalBytes: 0, interNodeBytes: 0 };
  const S = bytesPerRank, intra = ((g - 1) * S) / P, inter = ((P - g) * S) / P;
  const transfer = Math.max(intra / c.bandwidthBytesPerS, topology && inter > 0 ? inter / topology.interNodeBandwidthBytesPerS : 0);
  return { timeS: c.alphaS + transfer, maxBytesSentPerRank: intra + inter, totalBytes: P * (intra + inter), interNodeBytes: P * inter };
}

/**
 * An all-to-all's view of a cluster described as the planner describes it ({@link NodeTopology}: G GPUs per node,
 * one link inside the node and one network adapter per GPU): the cost model inside a node and the World's
 * {@link Topology}. In an all-to-all every rank sends its inter-node bytes through its own adapter at the
 * same time, so each rank's network rate is one adapter's B_nic and a node sends G·B_nic in all; the planner's
 * ring rule min(B_intra, g·B_nic) for a ring through g adapters of a node is the same budget seen by one ring.
 * The α of a step is the larger of the two links' (one step crosses both).
 * @param t the cluster's links
 * @returns `{cost, topology}` for {@link allToAll}, {@link allToAllCost} and {@link uniformAllToAllCost}
 * @throws RangeError `gpusPerNode must be an integer >= 1, got 0`; cost-model errors
 * @example allToAllLinks({ gpusPerNode: 8, intraNode: { alphaS: 5e-6, bandwidthBytesPerS: 450e9 }, interNodePerGpu: { alphaS: 5e-6, bandwidthBytesPerS: 50e9 } }).topology
 *   // { ranksPerNode: 8, interNodeBandwidthBytesPerS: 50e9 }
 * @see {@link groupCostModel} (the planner's rule for rings); NVIDIA DGX H100 user guide (eight ConnectX-7 adapters, one per GPU)
 */
export function allToAllLinks(t: NodeTopology): { cost: CostModel; topology: Topology } {
  const G = checkNumRanks(t.gpusPerNode, "gpusPerNode");
  const intra = validateCostModel(t.intraNode), nic = validateCostModel(t.interNodePerGpu);
  return { cost: { alphaS: Math.max(intra.alphaS, nic.alphaS), bandwidthBytesPerS: intra.bandwidthBytesPerS }, topology: { ranksPerNode: G, interNodeBandwidthBytesPerS: nic.bandwidthBytesPerS } };
}
