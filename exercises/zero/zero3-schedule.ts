import { notImplemented } from "../harness/index.js";

/** One wrapping unit (a layer of the course model): its parameter tensors' ranges in the flat buffer, in order. */
export interface ScheduleUnit {
  name: string;
  /** Elements an all-gather of this unit moves in: its non-persistent tensors. */
  gatheredElements: number;
  params: { name: string; start: number; end: number; persistent: boolean }[];
}

/** One operation of the step (see the page's table of operations). */
export type Op =
  | { op: "gather" | "release" | "forward" | "backward"; unit: number }
  | { op: "reduce" | "allgather-params"; start: number; end: number }
  | { op: "step" };

/** DeepSpeed's stage-3 knobs, in elements. */
export interface Stage3Knobs {
  reduce_bucket_size: number;
  stage3_prefetch_bucket_size: number;
  stage3_max_live_parameters: number;
}

/**
 * Exercise 8.3 — build it: one ZeRO-3 training step, as a schedule.
 *
 * Return the operations of one ZeRO-3 (FSDP FULL_SHARD) step, in order. The
 * grader runs them on P simulated ranks training the course model (lib/nn) in
 * bf16 with fp32 master weights and AdamW: each rank holds only its shard of
 * every state, so a unit's forward or backward on a rank whose unit is not
 * gathered stops the run; a gather of a unit already gathered, a reduce of
 * gradients not yet produced (or twice), a step before every gradient is
 * reduced or with a unit still gathered, all stop it too. Graded on the trained
 * weights (equal, bit for bit, to DDP on the same batches), the communication
 * (3(P−1)Ψ elements per step when nothing persists), the peak memory per rank
 * and the operations themselves.
 *
 * The schedule is DeepSpeed's (stage3.py, partitioned_param_coordinator.py, stage_1_and_2.py):
 * - forward over units 0, 1, …; backward over the units in reverse. Before each
 *   unit's forward and backward, fetch: gather it if it is not gathered, then
 *   prefetch the next units of the same pass (in pass order, skipping gathered ones)
 *   while the prefetched elements stay within stage3_prefetch_bucket_size and the
 *   gathered elements (all live units) within stage3_max_live_parameters; stop at the
 *   first that does not fit. A unit with gatheredElements 0 is never gathered.
 * - release each unit right after its forward and right after its backward (if gathered).
 * - after each unit's backward, its tensors' gradients go into a bucket, last
 *   tensor first; before adding a tensor, if the bucket is not empty and would exceed
 *   reduce_bucket_size elements, reduce the bucket (one "reduce" of its range);
 *   after the last backward, reduce what remains.
 * - then "step"; then one "allgather-params" per persistent tensor (its range), in flat order.
 *
 * Sizes in elements. Read first: the page's section "Build it: a ZeRO-3 step".
 * Do not read lib/zero/zeroSchedule.ts (the reference) before solving;
 * lib/zero/ZeroWorld.ts, the machine your schedule runs on, is fine to read.
 *
 * @param units the wrapping units, forward order
 * @param knobs bucket and prefetch sizes (elements, ≥ 1)
 * @returns the operations
 * @example
 * // two units, tensors a [0,4) and b [4,6) (b persistent), no prefetch, buckets of 4:
 * zero3Schedule([{ name: "u0", gatheredElements: 4, params: [{ name: "a", start: 0, end: 4, persistent: false }] },
 *                { name: "u1", gatheredElements: 0, params: [{ name: "b", start: 4, end: 6, persistent: true }] }],
 *   { reduce_bucket_size: 4, stage3_prefetch_bucket_size: 1, stage3_max_live_parameters: 100 })
 * // [gather 0, forward 0, release 0, forward 1, backward 1, gather 0, backward 0, release 0,
 * //  reduce [4,6), reduce [0,4), step, allgather-params [4,6)]
 */
export function zero3Schedule(units: ScheduleUnit[], knobs: Stage3Knobs): Op[] {
  return notImplemented("8.3");
}
