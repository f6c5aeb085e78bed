/**
 * What gradient accumulation costs in data-parallel communication, with and
 * without DDP's `no_sync()` (or DeepSpeed's accumulation boundary).
 */
import { ringAllReduceBytesPerRank } from "../collectives/index.js";

/**
 * Settings of {@link accumulationCommunication}.
 * @see the sources of {@link accumulationCommunication}
 */
export interface AccumulationCommunicationOptions {
  /** Bytes of one full gradient (parameters × bytes per gradient element, e.g. 4 for fp32 `.grad`). */
  gradientBytes: number;
  /** R, data-parallel ranks (integer >= 1). */
  numRanks: number;
  /** K, micro-batches per optimizer step (integer >= 1). */
  microBatches: number;
  /** true: the first K−1 backward passes run under `no_sync()` (one all-reduce per step); false: every backward all-reduces. */
  noSync: boolean;
}

/**
 * Gradient all-reduces per optimizer step and the bytes each rank sends for
 * them, with a ring all-reduce (2(R−1)/R of the gradient per all-reduce).
 *
 * DDP all-reduces the gradient from hooks that fire during every `backward()`;
 * inside `no_sync()` the hooks do nothing and gradients only accumulate in
 * `.grad`, so the backward of the K-th micro-batch all-reduces once. Without it,
 * each of the K backward passes all-reduces: K times the traffic, for the same result.
 *
 * @param o gradient size, ranks, micro-batches, and whether no_sync is used
 * @returns `{allReduces, bytesSentPerRank}` per optimizer step
 * @throws {RangeError} `gradientBytes must be a number >= 0, got -1`; `numRanks must be an integer >= 1, got 0`; `microBatches must be an integer >= 1, got 1.5`
 * @example accumulationCommunication({ gradientBytes: 4e6, numRanks: 4, microBatches: 8, noSync: false }) // { allReduces: 8, bytesSentPerRank: 4.8e7 }
 * @see PyTorch `DistributedDataParallel.no_sync` docs; DeepSpeed `runtime/engine.py` (`is_gradient_accumulation_boundary`, `allreduce_gradients`);
 *   Patarasuk & Yuan 2009, *Bandwidth optimal all-reduce algorithms for clusters of workstations* (ring: 2(R−1)/R)
 */
export function accumulationCommunication(o: AccumulationCommunicationOptions): { allReduces: number; bytesSentPerRank: number } {
  if (typeof o.gradientBytes !== "number" || !(o.gradientBytes >= 0) || !Number.isFinite(o.gradientBytes)) throw new RangeError(`gradientBytes must be a number >= 0, got ${o.gradientBytes}`);
  for (const k of ["numRanks", "microBatches"] as const) {
    if (!Number.isInteger(o[k]) || o[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${o[k]}`);
  }
  const allReduces = o.noSync ? 1 : o.microBatches;
  return { allReduces, bytesSentPerRank: allReduces * ringAllReduceBytesPerRank(o.gradientBytes, o.numRanks) };
}
