/**
 * A timeline of the ring's forward pass: when each rank computes each block
 * and when each block travels, with or without overlapping the two.
 */
import { validateCostModel, type CostModel } from "../collectives/costModel.js";

/**
 * One event of the timeline, in the house shape {t, rank, kind, bytes}.
 * @see the sources of {@link ringTimeline}
 */
export interface TimelineEvent {
  /** Start and end, in seconds from the start of the layer's attention. */
  t: number;
  tEnd: number;
  rank: number;
  kind: "compute" | "send";
  /** Ring step s (the block of rank (rank − s) mod C is computed at step s, and sent on to the next rank). */
  step: number;
  /** Bytes sent (0 for compute). */
  bytes: number;
  /** The receiver of a send. */
  peer?: number;
}

/**
 * Inputs of {@link ringTimeline}.
 * @see the sources of {@link ringTimeline}
 */
export interface RingTimelineOptions {
  /** work[r][s]: kept (query, key) pairs of rank r at step s (from ringWork). */
  work: readonly (readonly number[])[];
  /** FLOPs of one kept pair over the batch and heads: 4·d·H·B forward (QKᵀ and PV, 2 FLOPs a multiply-add). */
  flopsPerPair: number;
  /** Sustained FLOP/s of one GPU on attention. */
  deviceFlopsPerS: number;
  /** Bytes of one key/value block: 2·B·n·H_kv·d·bytesPerElement. */
  blockBytes: number;
  /** α-β link. */
  cost: CostModel;
  /** Send the next block while computing this one (true), or compute, then send (false). */
  overlap: boolean;
}

/**
 * What {@link ringTimeline} returns.
 * @see the sources of {@link ringTimeline}
 */
export interface RingTimeline {
  events: TimelineEvent[];
  /** When the last rank finishes. */
  timeS: number;
  /** The same schedule with free communication (α = 0, no bytes): the time the work alone needs. */
  computeOnlyS: number;
  /** timeS − computeOnlyS: communication that the compute did not hide. */
  exposedCommS: number;
  /** Seconds each rank computes. */
  computeS: number[];
}

function simulate(o: RingTimelineOptions, free: boolean): { events: TimelineEvent[]; timeS: number; computeS: number[] } {
  const { work, flopsPerPair, deviceFlopsPerS: F } = o;
  const C = work.length;
  const { alphaS, bandwidthBytesPerS } = validateCostModel(o.cost);
  const sendS = free ? 0 : alphaS + o.blockBytes / bandwidthBytesPerS;
  const events: TimelineEvent[] = [];
  let start = new Array<number>(C).fill(0);
  const computeS = new Array<number>(C).fill(0);
  let end = start;
  for (let s = 0; s < C; s++) {
    end = start.map((t, r) => {
      const dt = (work[r][s] * flopsPerPair) / F;
      computeS[r] += dt;
      if (dt > 0) events.push({ t, tEnd: t + dt, rank: r, kind: "compute", step: s, bytes: 0 });
      return t + dt;
    });
    if (s === C - 1) break;
    // The block of step s moves r → r+1: it can start once both ends are ready.
    const ready = o.overlap ? start : end;
    const sent = start.map((_, r) => {
      const to = (r + 1) % C, t = Math.max(ready[r], ready[to]);
      if (!free) events.push({ t, tEnd: t + sendS, rank: r, kind: "send", step: s, bytes: o.blockBytes, peer: to });
      return t + sendS;
    });
    start = start.map((_, r) => Math.max(end[r], sent[r], sent[(r - 1 + C) % C]));
  }
  return { events, timeS: Math.max(...end), computeS };
}

/**
 * Simulates the forward ring of C ranks from a work table.
 *
 * Rank r computes block s for work[r][s]·flopsPerPair/F seconds. The block it holds at step s
 * goes to rank r+1 in α + blockBytes/B seconds, starting when both ranks have begun step s
 * (overlap: the transfer runs under the compute, as `isend`/`irecv` on a second stream) or when
 * both have finished it (no overlap). Rank r starts step s+1 when its compute, its own send and the
 * arrival of the next block are all done. A rank with no kept pair at a step skips it (no compute
 * event), as ring-flash-attention does.
 * @param o work, flopsPerPair, deviceFlopsPerS, blockBytes, cost, overlap
 * @returns events, timeS, computeOnlyS, exposedCommS, computeS
 * @throws RangeError `work must be a non-empty square table (C rows of C counts)`; `deviceFlopsPerS must be a finite number > 0, got 0`;
 *   `blockBytes must be a finite number >= 0, got -1`; the cost-model errors of validateCostModel
 * @example ringTimeline({work: [[1, 1], [1, 1]], flopsPerPair: 1, deviceFlopsPerS: 1, blockBytes: 2, cost: {alphaS: 0, bandwidthBytesPerS: 1}, overlap: true}).timeS
 *   // 3: the 2-second send hides 1 second of it behind the first block
 * @see Liu et al. 2023, *Ring Attention*, §3 (overlap when a block's compute outlasts its transfer); Brandon et al. 2023, *Striped Attention*, §3 (each round waits for the slowest device)
 */
export function ringTimeline(o: RingTimelineOptions): RingTimeline {
  const C = o.work?.length ?? 0;
  if (C === 0 || o.work.some((row) => row.length !== C)) throw new RangeError("work must be a non-empty square table (C rows of C counts)");
  for (const [name, v, min] of [["flopsPerPair", o.flopsPerPair, 0], ["deviceFlopsPerS", o.deviceFlopsPerS, Number.MIN_VALUE], ["blockBytes", o.blockBytes, 0]] as const) {
    if (typeof v !== "number" || !Number.isFinite(v) || v < min) throw new RangeError(`${name} must be a finite number ${min === 0 ? ">= 0" : "> 0"}, got ${v}`);
  }
  const real = simulate(o, false);
  const free = simulate(o, true);
  return { events: real.events, timeS: real.timeS, computeOnlyS: free.timeS, exposedCommS: real.timeS - free.timeS, computeS: real.computeS };
}
