/**
 * When each operation of an FSDP step runs, on a compute stream and a communication
 * stream: the overlap that prefetching buys.
 */
import type { FsdpOpRecord } from "./FsdpWorld.js";

/** One operation placed on a stream, in seconds from the start of the step. */
export interface TimelineEvent {
  /** Index of the operation in issue order. */
  index: number;
  stream: "compute" | "communication";
  t: number;
  tEnd: number;
  label: string;
}

/**
 * Places the operations of a step, issued in order by the CPU, on two streams of one rank: collectives (unshard,
 * reduce-scatter) run one after another on the communication stream, as on one NCCL communicator; forward, backward
 * and the step on the compute stream. A forward or backward waits for the latest unshard of its group; a
 * reduce-scatter for the compute issued before it (the group's backward); the step for every collective. A reshard
 * takes no time. So an all-gather issued before the compute it precedes finishes (FSDP2's implicit forward prefetch,
 * the default backward prefetch) overlaps that compute, and one issued after a reduce-scatter waits for it.
 *
 * @param records the step's operations ({@link FsdpWorld}'s records: communication seconds from the World's α-β clock)
 * @param computeFlopsPerS the rate of forward and backward on one rank (FLOP/s, > 0)
 * @returns the events and the step's time
 * @throws RangeError `computeFlopsPerS must be a finite number > 0, got 0`
 * @example fsdpTimeline(run.records[0].ops, 1e9).totalS // seconds of one step with overlap
 * @see PyTorch `_fsdp_param_group.py` at 010ae4a ([Note: Overlapping all-gather copy-in and all-gather], `_backward_prefetch`);
 *   `fully_shard`'s `set_modules_to_forward_prefetch` docstring (a singleton list "gives the same all-gather overlap
 *   behavior as the default … except the prefetched all-gather is issued earlier from the CPU")
 */
export function fsdpTimeline(records: readonly FsdpOpRecord[], computeFlopsPerS: number): { events: TimelineEvent[]; totalS: number } {
  if (!(Number.isFinite(computeFlopsPerS) && computeFlopsPerS > 0)) throw new RangeError(`computeFlopsPerS must be a finite number > 0, got ${computeFlopsPerS}`);
  const events: TimelineEvent[] = [];
  const unsharded = new Map<number, number>(); // group → end of its latest unshard
  let compute = 0, comm = 0, lastCompute = 0, lastComm = 0;
  records.forEach((r, i) => {
    const o = r.op;
    if (o.op === "unshard" || o.op === "reduce-scatter") {
      const t = Math.max(comm, o.op === "reduce-scatter" ? lastCompute : 0);
      comm = t + r.commS; lastComm = comm;
      if (o.op === "unshard") unsharded.set(o.group, comm);
      events.push({ index: i, stream: "communication", t, tEnd: comm, label: r.label });
    } else if (o.op === "forward" || o.op === "backward" || o.op === "step") {
      const ready = o.op === "step" ? lastComm : r.group === undefined ? 0 : unsharded.get(r.group) ?? 0;
      const t = Math.max(compute, ready);
      compute = t + (o.op === "step" ? 0 : r.flops / computeFlopsPerS); lastCompute = compute;
      events.push({ index: i, stream: "compute", t, tEnd: compute, label: r.label });
    }
  });
  return { events, totalS: Math.max(compute, comm) };
}
