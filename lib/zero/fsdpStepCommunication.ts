/**
 * FSDP's collectives of one optimizer step, group by group, in closed form: what the
 * simulated World's message log must add up to.
 */
import { elementBytes } from "./validateZeroOptions.js";
import type { FullyShardPlan } from "./fullyShard.js";
import type { TrainPrecision } from "../amp/castArray.js";

/** One kind of collective of one group over a step. */
export interface FsdpStepCollective {
  group: string;
  kind: "all-gather (forward)" | "all-gather (backward)" | "reduce-scatter" | "all-reduce (replicas)";
  /** Calls per optimizer step. */
  calls: number;
  /** Ranks in each ring of the call. */
  ringSize: number;
  /** Elements sent by all ranks in one call (every ring). */
  elementsPerCall: number;
  bytesPerElement: number;
}

/** What {@link fsdpStepCommunication} returns. */
export interface FsdpStepCommunication {
  collectives: FsdpStepCollective[];
  /** Σ calls × elementsPerCall: all ranks, one optimizer step. */
  elementsSent: number;
  bytesSent: number;
}

/**
 * The elements and bytes an FSDP step sends on rings, per group with padded shard S (all-gather output G·S) on an
 * R × G mesh, P = R·G, K micro-batches:
 * - forward all-gather, every micro-batch: R rings of G, (G − 1)·G·S elements each, in `param_dtype`;
 * - backward all-gather, every micro-batch: the same if `reshard_after_forward` is true; (P/g) rings of g,
 *   (g − 1)·G·S each, if it is an int g; none if false;
 * - reduce-scatter, every micro-batch (or once under `set_requires_gradient_sync(False)`): R·(G − 1)·G·S, in `reduce_dtype`;
 * - HSDP: an all-reduce of each rank's S reduced elements over its R replicas, G rings: 2(R − 1)·S·G, in `reduce_dtype`.
 * With every S·G = the group's numel (no padding), R = 1 and every group resharded, this is ZeRO-3's 3K(P−1)Ψ (or
 * (2K + 1)(P − 1)Ψ reducing once), `zeroStepCommunication`'s stage 3.
 *
 * @param plan from {@link fullyShard}
 * @param o K (default 1), requiresGradientSync (default true), the dtypes (default fp32)
 * @returns {@link FsdpStepCommunication}
 * @throws RangeError `gradAccumSteps must be an integer >= 1, got 0`
 * @example fsdpStepCommunication(fullyShard(fsdpModel(AMP_LIVE_MODEL).layers, [{ modules: "root", reshardAfterForward: true }], { shard: 4 })).elementsSent
 *   // 32076: three collectives (forward and backward all-gathers, reduce-scatter) of (4 − 1) · 4 · 891 elements
 * @see PyTorch `_fsdp_param_group.py` and `_fsdp_collectives.py` at 010ae4a; NCCL PERFORMANCE.md (ring volumes (n − 1)/n); Zhao et al. 2023, §3.2.2
 */
export function fsdpStepCommunication(plan: FullyShardPlan, o: { gradAccumSteps?: number; requiresGradientSync?: boolean; paramDtype?: TrainPrecision; reduceDtype?: TrainPrecision } = {}): FsdpStepCommunication {
  const K = o.gradAccumSteps ?? 1;
  if (!(Number.isInteger(K) && K >= 1)) throw new RangeError(`gradAccumSteps must be an integer >= 1, got ${String(K)}`);
  const { numRanks: P, replicate: R, shard: G } = plan.mesh;
  const syncs = o.requiresGradientSync === false ? 1 : K;
  const pb = elementBytes(o.paramDtype ?? "fp32"), rb = elementBytes(o.reduceDtype ?? o.paramDtype ?? "fp32");
  const out: FsdpStepCollective[] = [];
  const add = (c: FsdpStepCollective) => { if (c.elementsPerCall > 0 && c.calls > 0) out.push(c); };
  for (const g of plan.groups) {
    const n = G * g.paddedShardElements, r = g.reshardAfterForward;
    add({ group: g.name, kind: "all-gather (forward)", calls: K, ringSize: G, elementsPerCall: R * (G - 1) * n, bytesPerElement: pb });
    if (r !== false) {
      const w = r === true ? G : r;
      add({ group: g.name, kind: "all-gather (backward)", calls: K, ringSize: w, elementsPerCall: (P / w) * (w - 1) * n, bytesPerElement: pb });
    }
    add({ group: g.name, kind: "reduce-scatter", calls: syncs, ringSize: G, elementsPerCall: R * (G - 1) * n, bytesPerElement: rb });
    add({ group: g.name, kind: "all-reduce (replicas)", calls: syncs, ringSize: R, elementsPerCall: 2 * (R - 1) * g.paddedShardElements * G, bytesPerElement: rb });
  }
  return {
    collectives: out,
    elementsSent: out.reduce((s, c) => s + c.calls * c.elementsPerCall, 0),
    bytesSent: out.reduce((s, c) => s + c.calls * c.elementsPerCall * c.bytesPerElement, 0),
  };
}
