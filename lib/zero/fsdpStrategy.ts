/**
 * PyTorch FSDP's names, mapped onto the ZeRO simulation.
 */
import { checkNumRanks } from "../collectives/index.js";
import { TRAIN_PRECISIONS, type TrainPrecision } from "../amp/castArray.js";
import type { ZeroStage } from "./validateZeroOptions.js";

/** torch.distributed.fsdp.ShardingStrategy members. */
export type FsdpStrategy = "FULL_SHARD" | "SHARD_GRAD_OP" | "NO_SHARD" | "HYBRID_SHARD";

/**
 * Every FSDP strategy the course maps.
 * @example FSDP_STRATEGIES.length // 4
 * @see PyTorch torch.distributed.fsdp.ShardingStrategy docs
 */
export const FSDP_STRATEGIES: readonly FsdpStrategy[] = ["FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD", "HYBRID_SHARD"];

/** What a strategy means in the ZeRO simulation. */
export interface FsdpMapping {
  /** The simulation's stage that runs it: SHARD_GRAD_OP is stage 3's schedule without the reshard after forward. */
  stage: ZeroStage;
  /** The ZeRO stage its peak memory and traffic match: SHARD_GRAD_OP is ZeRO-2-like (all parameters gathered at the forward/backward turn, 2Ψ per step). */
  zeroAnalogue: ZeroStage;
  /** Stage 3 only: free parameters after forward (FULL_SHARD) or keep them until backward ends (SHARD_GRAD_OP). */
  reshardAfterForward: boolean;
  /** Ranks a parameter is sharded over (P, or the shard group G for HYBRID_SHARD, or 1). */
  shardRanks: number;
  /** Replicas of each shard (P / shardRanks): gradients are all-reduced across them. */
  replicas: number;
}

/**
 * Maps an FSDP sharding strategy on P ranks to the ZeRO simulation:
 * FULL_SHARD = stage 3 (reshard after forward); SHARD_GRAD_OP = stage 3's schedule
 * without the reshard after forward: every unit stays gathered from its forward to
 * its backward, so at the turn the whole model's 16-bit parameters are resident and
 * one all-gather per step suffices, ZeRO-2's peak and 2Ψ traffic (its `zeroAnalogue`),
 * with parameters sharded only between steps; NO_SHARD = stage 0 (DDP); HYBRID_SHARD =
 * FULL_SHARD inside a group of G ranks (a node) and replication across the P/G groups.
 *
 * @param strategy a ShardingStrategy name
 * @param numRanks P
 * @param shardGroupSize G for HYBRID_SHARD (default 8, one node of 8 GPUs); must divide P
 * @returns {@link FsdpMapping}
 * @throws RangeError `strategy must be one of FULL_SHARD, SHARD_GRAD_OP, NO_SHARD, HYBRID_SHARD, got "ZERO2"`;
 *   `shardGroupSize (3) must divide numRanks (8)`; `numRanks must be an integer >= 1, got 0`
 * @example fsdpToZero("HYBRID_SHARD", 16, 8) // { stage: 3, zeroAnalogue: 3, reshardAfterForward: true, shardRanks: 8, replicas: 2 }
 * @see PyTorch torch.distributed.fsdp.ShardingStrategy docstring (SHARD_GRAD_OP "does not reshard them after the forward, and only reshards them after the backward computation"); Zhao et al. 2023, "PyTorch FSDP: Experiences on Scaling Fully Sharded Data Parallel", §3.2 (hybrid sharding)
 */
export function fsdpToZero(strategy: string, numRanks: number, shardGroupSize = 8): FsdpMapping {
  checkNumRanks(numRanks);
  switch (strategy) {
    case "FULL_SHARD": return { stage: 3, zeroAnalogue: 3, reshardAfterForward: true, shardRanks: numRanks, replicas: 1 };
    case "SHARD_GRAD_OP": return { stage: 3, zeroAnalogue: 2, reshardAfterForward: false, shardRanks: numRanks, replicas: 1 };
    case "NO_SHARD": return { stage: 0, zeroAnalogue: 0, reshardAfterForward: false, shardRanks: 1, replicas: numRanks };
    case "HYBRID_SHARD": {
      checkNumRanks(shardGroupSize, "shardGroupSize");
      const g = Math.min(shardGroupSize, numRanks);
      if (numRanks % g !== 0) throw new RangeError(`shardGroupSize (${shardGroupSize}) must divide numRanks (${numRanks})`);
      return { stage: 3, zeroAnalogue: 3, reshardAfterForward: true, shardRanks: g, replicas: numRanks / g };
    }
    default: throw new RangeError(`strategy must be one of ${FSDP_STRATEGIES.join(", ")}, got ${JSON.stringify(strategy)}`);
  }
}

/**
 * Elements each rank sends per step under an FSDP strategy (ring collectives,
 * no persistent tensors): FULL_SHARD 3Ψ(P−1)/P, SHARD_GRAD_OP and NO_SHARD
 * 2Ψ(P−1)/P, HYBRID_SHARD 3Ψ(G−1)/G inside the group plus an all-reduce of
 * the Ψ/G gradient shard across the R = P/G replicas, 2(Ψ/G)(R−1)/R.
 * @param strategy a ShardingStrategy name
 * @param numParams Ψ
 * @param numRanks P
 * @param shardGroupSize G (HYBRID_SHARD)
 * @returns elements sent per rank (a mean when P does not divide Ψ)
 * @throws as {@link fsdpToZero}
 * @example fsdpCommPerRank("FULL_SHARD", 1000, 4) // 2250
 * @see Zhao et al. 2023, PyTorch FSDP, §3.2.2 (hybrid sharding: reduce-scatter in the group, all-reduce across groups)
 */
export function fsdpCommPerRank(strategy: string, numParams: number, numRanks: number, shardGroupSize = 8): number {
  const m = fsdpToZero(strategy, numRanks, shardGroupSize);
  const G = m.shardRanks, R = m.replicas;
  if (m.stage === 0) return (2 * numParams * (numRanks - 1)) / numRanks;
  const inGroup = ((m.reshardAfterForward ? 3 : 2) * numParams * (G - 1)) / G;
  return inGroup + (2 * (numParams / G) * (R - 1)) / R;
}

/** torch.distributed.fsdp.MixedPrecision's three dtypes. */
export interface FsdpMixedPrecision {
  /** dtype of the gathered parameters and of compute. */
  param_dtype: TrainPrecision;
  /** dtype of the gradient reduction (default: param_dtype). */
  reduce_dtype?: TrainPrecision;
  /** dtype of buffers such as BatchNorm statistics (lib/nn's model has none: nothing to cast). */
  buffer_dtype?: TrainPrecision;
}

/**
 * The simulation's precision settings for an FSDP MixedPrecision policy.
 * @param mp the three dtypes ("fp32" | "fp16" | "bf16")
 * @returns `{precision, reduceDtype}` for {@link trainZero} (FSDP keeps the sharded fp32 parameters as the master)
 * @throws RangeError `reduce_dtype must be one of fp32, fp16, bf16, got "int8"`
 * @example fsdpMixedPrecision({ param_dtype: "bf16", reduce_dtype: "fp32" }) // { precision: "bf16", reduceDtype: "fp32" }
 * @see PyTorch torch.distributed.fsdp.MixedPrecision docs (reduce_dtype None → param_dtype)
 */
export function fsdpMixedPrecision(mp: FsdpMixedPrecision): { precision: TrainPrecision; reduceDtype: TrainPrecision } {
  for (const k of ["param_dtype", "reduce_dtype", "buffer_dtype"] as const) {
    const v = mp[k];
    if ((v !== undefined || k === "param_dtype") && !TRAIN_PRECISIONS.includes(v as TrainPrecision)) throw new RangeError(`${k} must be one of ${TRAIN_PRECISIONS.join(", ")}, got ${JSON.stringify(v)}`);
  }
  return { precision: mp.param_dtype, reduceDtype: mp.reduce_dtype ?? mp.param_dtype };
}
