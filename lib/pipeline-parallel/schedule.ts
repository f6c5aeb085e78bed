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

/** F: forward; B: backward (the whole backward, or only the input gradient where W is split off); W: weight gradient. */
export type OpKind = "F" | "B" | "W";

/** One pass of one micro-batch on one stage. Times in ms from the start of the step. */
export interface ScheduleEvent {
  /** Device (pipeline stage), 0 … p−1. */
  stage: number;
  /** Micro-batch, 0 … m−1. */
  microBatch: number;
  kind: OpKind;
  /** Model chunk on this device, 0 … v−1 (always 0 unless interleaved). Virtual stage = chunk·p + stage. */
  chunk: number;
  start: number;
  end: number;
}

/** The schedules this chapter generates. */
export type ScheduleName = "naive" | "gpipe" | "1f1b" | "interleaved" | "zb-h1";

/** Every schedule name, in the page's order. */
export const SCHEDULE_NAMES: readonly ScheduleName[] = ["naive", "gpipe", "1f1b", "interleaved", "zb-h1"];

/** A generated schedule: its shape and its events (sorted by start, then stage). */
export interface Schedule {
  name: ScheduleName;
  /** Pipeline stages (devices). */
  p: number;
  /** Micro-batches per step. */
  m: number;
  /** Model chunks per device (1 unless interleaved). */
  v: number;
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
export interface ResolvedTimes { forward: number[]; backward: number[]; weight: number[]; sendMs: number }

/**
 * Expands {@link StageTimes} to one value per stage and checks them.
 * @param times per-stage times (numbers or arrays of length p)
 * @param p number of stages
 * @returns arrays of length p and the send time
 * @throws {RangeError} `times.forward[2] must be a finite number >= 0, got -1`; `times.backward must have p = 4 entries, got 3`; `times.sendMs must be a finite number >= 0, got NaN`
 * @example resolveTimes({ forward: 1, backward: [2, 3] }, 2) // { forward: [1, 1], backward: [2, 3], weight: [0, 0], sendMs: 0 }
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
  return { forward: one("forward", times.forward), backward: one("backward", times.backward), weight: one("weight", times.weight, 0), sendMs };
}

/** One pass in a device's order, before timing. */
export interface Op { kind: OpKind; microBatch: number; chunk: number }

/**
 * Duration of one pass on one stage: the stage's time divided by v (each chunk holds 1/v of the stage's layers).
 * B lasts backward + weight when the schedule does not split backward.
 */
export function opDuration(kind: OpKind, stage: number, v: number, t: ResolvedTimes, splitBackward: boolean): number {
  if (kind === "F") return t.forward[stage] / v;
  if (kind === "W") return t.weight[stage] / v;
  return (splitBackward ? t.backward[stage] : t.backward[stage] + t.weight[stage]) / v;
}

/**
 * Times per-device orders of passes: each pass starts as soon as its device is free and its
 * inputs are there. F of virtual stage k needs F of virtual stage k−1 (plus a send when that is
 * another device); B of virtual stage k needs F of k on the same device and B of k+1 (plus a send);
 * W needs B of the same pass. Virtual stage k lives on device k mod p as chunk ⌊k/p⌋.
 * @param orders one list of passes per device (length p), in the order the device runs them
 * @param p stages; @param m micro-batches; @param v chunks per device
 * @param times per-stage times
 * @param splitBackward whether B and W are separate passes
 * @returns events, sorted by start then stage
 * @throws {Error} `schedule deadlocks: stage 1 waits for F of micro-batch 0, chunk 0 on stage 0, which never runs before it` when an order cannot run
 * @example timeOrders([[{kind:"F",microBatch:0,chunk:0},{kind:"B",microBatch:0,chunk:0}]], 1, 1, 1, UNIT_TIMES, false).map(e => [e.kind, e.start, e.end]) // [["F",0,1],["B",1,2]]
 */
export function timeOrders(orders: readonly (readonly Op[])[], p: number, m: number, v: number, times: StageTimes, splitBackward: boolean): ScheduleEvent[] {
  checkShape(p, m, v);
  const t = resolveTimes(times, p);
  const P = p * v;
  const ends = [new Float64Array(P * m).fill(NaN), new Float64Array(P * m).fill(NaN), new Float64Array(P * m).fill(NaN)];
  const ki = (k: OpKind) => (k === "F" ? 0 : k === "B" ? 1 : 2);
  const idx = new Array(p).fill(0);
  const free = new Array(p).fill(0);
  const events: ScheduleEvent[] = [];
  let remaining = orders.reduce((a, o) => a + o.length, 0);
  let done = 0;
  // readiness of a pass: NaN when an input is missing
  const ready = (s: number, op: Op): number => {
    const vs = op.chunk * p + s, j = op.microBatch;
    if (op.kind === "F") {
      if (vs === 0) return 0;
      const e = ends[0][(vs - 1) * m + j];
      return e + (((vs - 1) % p) !== s ? t.sendMs : 0);
    }
    if (op.kind === "B") {
      const f = ends[0][vs * m + j];
      if (vs === P - 1) return f;
      const b = ends[1][(vs + 1) * m + j];
      return Math.max(f, b + (((vs + 1) % p) !== s ? t.sendMs : 0));
    }
    return ends[1][vs * m + j];
  };
  while (remaining > 0) {
    let progressed = false;
    for (let s = 0; s < p; s++) {
      const order = orders[s];
      while (idx[s] < order.length) {
        const op = order[idx[s]];
        const r = ready(s, op);
        if (Number.isNaN(r)) break;
        const start = Math.max(free[s], r);
        const end = start + opDuration(op.kind, s, v, t, splitBackward);
        ends[ki(op.kind)][(op.chunk * p + s) * m + op.microBatch] = end;
        free[s] = end;
        events.push({ stage: s, microBatch: op.microBatch, kind: op.kind, chunk: op.chunk, start, end });
        idx[s]++; remaining--; done++;
        progressed = true;
      }
    }
    if (!progressed) {
      const s = idx.findIndex((i, d) => i < orders[d].length);
      const op = orders[s][idx[s]];
      throw new Error(`schedule deadlocks: stage ${s} waits before ${op.kind} of micro-batch ${op.microBatch}, chunk ${op.chunk}, whose input never comes (${done} passes ran)`);
    }
  }
  return events.sort((a, b) => a.start - b.start || a.stage - b.stage);
}
