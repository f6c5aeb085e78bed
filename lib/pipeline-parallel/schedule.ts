/**
 * Pipeline schedules as data: every forward (F), backward (B) and, where the
 * schedule splits backward, weight-gradient (W) pass of every micro-batch on
 * every stage is one {@link ScheduleEvent} with its start and end time.
 *
 * A generator fixes the *order* of the passes on each device; {@link timeOrders}
 * then starts every pass as soon as its device is free and its inputs have
 * arrived (what a real runtime does with blocking receives), so every timing
 * on the page comes from the events, not from a formula.
 */
import { messageTimeS, type CostModel } from "../collectives/index.js";
import type { Placement } from "./placement.js";

/** F: forward; B: backward (the whole backward, or only the input gradient where W is split off); W: weight gradient. */
export type OpKind = "F" | "B" | "W";

/** One pass of one micro-batch on one stage. Times in ms from the start of the step. */
export interface ScheduleEvent {
  /** Device (pipeline stage), 0 … p−1. */
  stage: number;
  /** Micro-batch, 0 … m−1. */
  microBatch: number;
  kind: OpKind;
  /** Model chunk on this device, 0 … v−1 (always 0 unless interleaved). Where it sits on a micro-batch's route depends on the schedule's placement (lib/pipeline-parallel/placement.ts). */
  chunk: number;
  start: number;
  end: number;
  /** A B that also computes the weight gradient, in a schedule that otherwise splits backward (DualPipe): no W pass follows it. */
  full?: boolean;
  /** One of an F and a B run overlapped as one pair (DualPipe's F&B): both events span the pair's interval. */
  overlapped?: boolean;
}

/** The schedules this chapter generates. */
export type ScheduleName = "naive" | "gpipe" | "1f1b" | "interleaved" | "zb-h1" | "zb-h2" | "zb-v" | "dualpipe" | "dualpipe-v";

/** Every schedule name, in the page's order. */
export const SCHEDULE_NAMES: readonly ScheduleName[] = ["naive", "gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2", "zb-v", "dualpipe", "dualpipe-v"];

/** A generated schedule: its shape and its events (sorted by start, then stage). */
export interface Schedule {
  name: ScheduleName;
  /** Pipeline stages (devices). */
  p: number;
  /** Micro-batches per step. */
  m: number;
  /** Model chunks per device (1 unless interleaved; 2 for ZB-V and DualPipe). */
  v: number;
  /** How chunks sit on devices (default "loop"): see {@link Placement}. */
  placement?: Placement;
  /** True when backward is split into B (input gradient) and W (weight gradient). */
  splitBackward: boolean;
  /** Megatron's micro-batch group size N of an interleaved schedule, when it is not p. */
  microbatchGroupSize?: number;
  events: ScheduleEvent[];
}

/**
 * Per-stage pass times in ms for one micro-batch through the whole stage (all its chunks).
 * A number applies to every stage; an array gives one value per stage (length p).
 */
export interface StageTimes {
  /** Forward of one micro-batch (≥ 0). */
  forward: number | readonly number[];
  /** Backward for the input gradient (≥ 0). */
  backward: number | readonly number[];
  /**
   * Backward for the weight gradient (≥ 0, default 0). A schedule that does not split backward
   * runs it inside B (B lasts backward + weight); ZB-H1 runs it as a separate W pass.
   */
  weight?: number | readonly number[];
  /**
   * Time of one forward and one backward run overlapped as one pair (DualPipe's F&B, ≥ 0); default
   * forward + backward + weight, i.e. no gain from the overlap.
   */
  overlapped?: number | readonly number[];
  /** Time of one point-to-point send between neighbouring stages (≥ 0, default 0); see {@link p2pSendMs}. */
  sendMs?: number;
}

/** Unit times: F = 1, B = 1 (of which no weight part), no send cost. */
export const UNIT_TIMES: Readonly<StageTimes> = Object.freeze({ forward: 1, backward: 1 });

/**
 * Time of one activation (or activation-gradient) send between neighbouring stages, in ms,
 * from the α-β cost model of lib/collectives: α + bytes / B.
 * @param bytes message size in bytes (≥ 0), e.g. microBatch·seqLen·hidden·2 for bf16 activations
 * @param cost latency α (s) and link bandwidth B (bytes/s)
 * @returns milliseconds
 * @throws {RangeError} `bytes must be a finite number >= 0, got -1` (from messageTimeS)
 * @example p2pSendMs(25e6, { alphaS: 5e-6, bandwidthBytesPerS: 25e9 }) // 1.005 (ms)
 * @see Hockney 1994 (the α-β model), as lib/collectives uses it
 */
export function p2pSendMs(bytes: number, cost: CostModel): number {
  return messageTimeS(bytes, cost) * 1e3;
}

/**
 * Checks p, m, v: integers ≥ 1.
 * @throws {RangeError} `p must be an integer >= 1, got 0` (same for m, v)
 */
export function checkShape(p: number, m: number, v = 1): void {
  for (const [name, x] of [["p", p], ["m", m], ["v", v]] as const) {
    if (!Number.isInteger(x) || x < 1) throw new RangeError(`${name} must be an integer >= 1, got ${x}`);
  }
}

/** Resolved per-stage times: arrays of length p. */
export interface ResolvedTimes { forward: number[]; backward: number[]; weight: number[]; overlapped: number[]; sendMs: number }

/**
 * Expands {@link StageTimes} to one value per stage and checks them.
 * @param times per-stage times (numbers or arrays of length p)
 * @param p number of stages
 * @returns arrays of length p and the send time
 * @throws {RangeError} `times.forward[2] must be a finite number >= 0, got -1`; `times.backward must have p = 4 entries, got 3`; `times.sendMs must be a finite number >= 0, got NaN`
 * @example resolveTimes({ forward: 1, backward: [2, 3] }, 2) // { forward: [1, 1], backward: [2, 3], weight: [0, 0], overlapped: [3, 4], sendMs: 0 }
 */
export function resolveTimes(times: StageTimes, p: number): ResolvedTimes {
  if (times === null || typeof times !== "object") throw new TypeError(`times must be an object {forward, backward, weight?, sendMs?}, got ${String(times)}`);
  const one = (name: string, x: number | readonly number[] | undefined, dflt?: number): number[] => {
    if (x === undefined && dflt !== undefined) return new Array(p).fill(dflt);
    const arr = typeof x === "number" ? new Array(p).fill(x) : Array.isArray(x) ? [...x] : null;
    if (arr === null) throw new TypeError(`times.${name} must be a number or an array of p = ${p} numbers, got ${String(x)}`);
    if (arr.length !== p) throw new RangeError(`times.${name} must have p = ${p} entries, got ${arr.length}`);
    arr.forEach((t, i) => {
      if (typeof t !== "number" || !Number.isFinite(t) || t < 0) throw new RangeError(`times.${name}${typeof x === "number" ? "" : `[${i}]`} must be a finite number >= 0, got ${t}`);
    });
    return arr;
  };
  const sendMs = times.sendMs ?? 0;
  if (typeof sendMs !== "number" || !Number.isFinite(sendMs) || sendMs < 0) throw new RangeError(`times.sendMs must be a finite number >= 0, got ${sendMs}`);
  const forward = one("forward", times.forward), backward = one("backward", times.backward), weight = one("weight", times.weight, 0);
  const overlapped = times.overlapped === undefined ? forward.map((f, i) => f + backward[i] + weight[i]) : one("overlapped", times.overlapped);
  return { forward, backward, weight, overlapped, sendMs };
}

/** One pass in a device's order, before timing. */
export interface Op {
  kind: OpKind;
  microBatch: number;
  chunk: number;
  /** B only: also computes the weight gradient (no W pass follows) in a schedule that splits backward. */
  full?: boolean;
  /** F only: a B run overlapped with this F as one pair (DualPipe's F&B). */
  with?: Op;
}

/**
 * Duration of one pass on one stage, for a chunk covering `share` of the device's layers (1/v, or 1
 * under DualPipe): an overlapped F&B pair lasts `overlapped`; B lasts backward + weight when the
 * schedule does not split backward or the B is full.
 * @param pass the pass's kind and flags; @param stage device; @param share see passShare in placement.ts
 * @param t resolved times; @param splitBackward whether the schedule has W passes
 * @example opDuration({ kind: "B", full: true }, 0, 0.5, resolveTimes({ forward: 1, backward: 1, weight: 1 }, 1), true) // 1
 */
export function opDuration(pass: { kind: OpKind; full?: boolean; overlapped?: boolean }, stage: number, share: number, t: ResolvedTimes, splitBackward: boolean): number {
  if (pass.overlapped) return t.overlapped[stage] * share;
  if (pass.kind === "F") return t.forward[stage] * share;
  if (pass.kind === "W") return t.weight[stage] * share;
  return (splitBackward && !pass.full ? t.backward[stage] : t.backward[stage] + t.weight[stage]) * share;
}

