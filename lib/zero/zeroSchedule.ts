/**
 * The operations of one ZeRO step, in order: what the simulated world runs.
 */
import type { ChunkRange } from "../collectives/index.js";
import type { Unit } from "./wrapUnits.js";
import type { ZeroKnobs, ZeroStage } from "./validateZeroOptions.js";

/**
 * One operation of a step. `unit` indexes the units (forward order); ranges are in the flat parameter buffer.
 * - gather: all-gather the unit's non-persistent parameters (stage 3); release: free the gathered copy
 * - forward / backward: compute on every rank (backward writes the unit's gradients)
 * - reduce: reduce the gradients of [start, end) into their owners (reduce-scatter; stage 0: all-reduce)
 * - step: the optimizer on each rank's shard (stage 0: everything), then the new 16-bit copy of it
 * - allgather-params: all-gather the updated parameters of [start, end)
 * @see Rajbhandari et al. 2020, ZeRO, §5 and §7; DeepSpeed stage_1_and_2.py and stage3.py
 */
export type ZeroOp =
  | { op: "gather" | "release" | "forward" | "backward"; unit: number }
  | { op: "reduce" | "allgather-params"; start: number; end: number }
  | { op: "step" };

/**
 * Which part of an optimizer step a micro-batch runs under gradient accumulation (K micro-batches per step).
 * @see DeepSpeed edaa722 `runtime/engine.py` (`is_gradient_accumulation_boundary`, `allreduce_gradients`); PyTorch `DistributedDataParallel.no_sync`
 */
export interface MicroBatchPart {
  /** The micro-batch reduces its gradients (stages 2–3 every micro-batch; stages 0–1 under `no_sync` only the last). */
  reduce: boolean;
  /** The last micro-batch of the step: the optimizer step and the parameter all-gathers follow it. */
  last: boolean;
}

/**
 * DeepSpeed's schedule for one step: forward over the units (stage 3: gather
 * before, release after, with prefetch of the next units up to
 * stage3_prefetch_bucket_size and stage3_max_live_parameters), backward in
 * reverse (stage 3: gather again), gradients reduced in buckets of
 * reduce_bucket_size as backward produces them, the optimizer step, then the
 * all-gather of the updated parameters in buckets of allgather_bucket_size
 * (stages 1–2; stage 3: only the persistent tensors).
 *
 * @param stage 0–3
 * @param units from {@link wrapUnits}
 * @param knobs validated knobs
 * @param reshardAfterForward stage 3: free after forward and gather again in backward (default true; false = FSDP SHARD_GRAD_OP)
 * @param part under gradient accumulation, what this micro-batch runs (default: the whole step, K = 1): without
 *   `reduce` no gradient is reduced (they accumulate), without `last` neither the step nor the all-gathers after it
 * @returns the operations, in order
 * @example zeroSchedule(3, units, validateZeroKnobs({}, 3)).filter((o) => o.op === "gather").length // 2 × units.length (no unit persistent)
 * @see DeepSpeed stage3.py and partitioned_param_coordinator.py (fetch, prefetch, release); stage_1_and_2.py (reduce_independent_p_g_buckets_and_remove_grads)
 */
export function zeroSchedule(stage: ZeroStage, units: readonly Unit[], knobs: Required<ZeroKnobs>, reshardAfterForward = true, part: MicroBatchPart = { reduce: true, last: true }): ZeroOp[] {
  const ops: ZeroOp[] = [];
  const numElements = units.length === 0 ? 0 : units[units.length - 1].params.at(-1)!.end;
  const live = new Set<number>();
  const size = (u: number) => units[u].gatheredElements;
  const fetch = (order: number[], i: number) => {
    if (stage !== 3) return;
    const want = [order[i]];
    let prefetched = 0;
    for (let j = i + 1; j < order.length; j++) {
      const u = order[j];
      if (live.has(u) || want.includes(u)) continue;
      const liveNow = [...live, ...want].reduce((s, v) => s + size(v), 0);
      if (prefetched + size(u) > knobs.stage3_prefetch_bucket_size || liveNow + size(u) > knobs.stage3_max_live_parameters) break;
      want.push(u);
      prefetched += size(u);
    }
    for (const u of want) if (!live.has(u) && size(u) > 0) { ops.push({ op: "gather", unit: u }); live.add(u); }
  };
  const release = (u: number) => { if (live.delete(u)) ops.push({ op: "release", unit: u }); };
  const forwardOrder = units.map((_, i) => i);
  forwardOrder.forEach((u, i) => {
    fetch(forwardOrder, i);
    ops.push({ op: "forward", unit: u });
    if (reshardAfterForward) release(u);
  });
  const backwardOrder = forwardOrder.slice().reverse();
  let pending: ChunkRange | null = null;
  backwardOrder.forEach((u, i) => {
    fetch(backwardOrder, i);
    ops.push({ op: "backward", unit: u });
    release(u);
    for (const p of part.reduce ? units[u].params.slice().reverse() : []) {
      if (pending && pending.end - pending.start + (p.end - p.start) > knobs.reduce_bucket_size) {
        ops.push({ op: "reduce", ...pending });
        pending = null;
      }
      pending = pending ? { start: p.start, end: pending.end } : { start: p.start, end: p.end };
    }
  });
  if (pending) ops.push({ op: "reduce", ...(pending as ChunkRange) });
  if (!part.last) return ops;
  ops.push({ op: "step" });
  if (stage === 1 || stage === 2) {
    for (let s = 0; s < numElements; s += knobs.allgather_bucket_size) ops.push({ op: "allgather-params", start: s, end: Math.min(numElements, s + knobs.allgather_bucket_size) });
  } else if (stage === 3) {
    for (const p of units.flatMap((u) => u.params)) if (p.persistent) ops.push({ op: "allgather-params", start: p.start, end: p.end });
  }
  return ops;
}
