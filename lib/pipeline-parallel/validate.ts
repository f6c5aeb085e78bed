/**
 * The validity checker: what any pipeline schedule must respect, read from its events alone.
 */
import { checkShape, opDuration, resolveTimes, type Schedule, type ScheduleEvent, type StageTimes } from "./schedule.js";

/** Options of {@link checkSchedule}. */
export interface CheckOptions {
  /** When given, every pass must last exactly its time (|Δ| ≤ 1e-9·max(1, t)) and sends must take sendMs. */
  times?: StageTimes;
  /** Most micro-batches' activations a stage may hold at once (chunk passes count 1/v; W frees them where split). */
  maxInFlight?: number;
}

const EPS = 1e-9;

/**
 * Every rule a schedule breaks, as readable sentences (empty when valid):
 * 1. fields in range: 0 ≤ stage < p, 0 ≤ microBatch < m, 0 ≤ chunk < v, kind F/B (and W iff
 *    splitBackward), 0 ≤ start ≤ end, finite;
 * 2. every (stage, chunk, micro-batch) has exactly one F and one B (and one W where split);
 * 3. dependencies: F of virtual stage k after F of k − 1 (plus sendMs across devices); B of k after
 *    F of k and after B of k + 1 (plus sendMs); W after its B;
 * 4. one pass per device at a time;
 * 5. optional: exact durations, and at most `maxInFlight` micro-batches in flight per stage (from the
 *    start of F to the end of B, or of W where backward is split).
 * @param s the schedule to check
 * @param o optional times and memory limit
 * @returns list of violations, at most 20
 * @throws {RangeError} `p must be an integer >= 1, got 0` when the schedule's shape is invalid
 * @example checkSchedule(gpipeSchedule(2, 2), { maxInFlight: 1 }) // ["stage 0 holds 2 micro-batches in flight at t = 1 (maxInFlight = 1)", "stage 1 holds 2 micro-batches in flight at t = 2 (maxInFlight = 1)"]
 * @see Narayanan et al. 2021 (Megatron-LM), §2.2; Qi et al. 2023, §2 (the B/W dependencies)
 */
export function checkSchedule(s: Schedule, o: CheckOptions = {}): string[] {
  const { p, m, v, splitBackward } = s;
  checkShape(p, m, v);
  const out: string[] = [];
  const add = (msg: string) => { if (out.length < 20) out.push(msg); };
  const kinds = splitBackward ? ["F", "B", "W"] : ["F", "B"];
  const P = p * v;
  const slots: (ScheduleEvent | undefined)[] = new Array(3 * P * m);
  const KI: Record<string, number> = { F: 0, B: 1, W: 2 };
  const key = (k: string, vs: number, j: number) => (KI[k] * P + vs) * m + j;
  const at = { has: (i: number) => slots[i] !== undefined, get: (i: number) => slots[i], set: (i: number, e: ScheduleEvent) => { slots[i] = e; } };
  for (const e of s.events) {
    const ok = Number.isInteger(e.stage) && e.stage >= 0 && e.stage < p && Number.isInteger(e.microBatch) && e.microBatch >= 0 && e.microBatch < m
      && Number.isInteger(e.chunk) && e.chunk >= 0 && e.chunk < v && kinds.includes(e.kind)
      && Number.isFinite(e.start) && Number.isFinite(e.end) && e.start >= 0 && e.end >= e.start;
    if (!ok) { add(`bad event ${JSON.stringify(e)} (p = ${p}, m = ${m}, v = ${v}, kinds ${kinds.join("/")})`); continue; }
    const k = key(e.kind, e.chunk * p + e.stage, e.microBatch);
    if (at.has(k)) add(`${e.kind} of micro-batch ${e.microBatch} on stage ${e.stage}, chunk ${e.chunk} runs twice`);
    at.set(k, e);
  }
  for (const kind of kinds) for (let vs = 0; vs < P; vs++) for (let j = 0; j < m; j++) {
    if (!at.has(key(kind, vs, j))) add(`${kind} of micro-batch ${j} on stage ${vs % p}${v > 1 ? `, chunk ${Math.floor(vs / p)}` : ""} is missing`);
  }
  if (out.length) return out;
  const t = o.times ? resolveTimes(o.times, p) : null;
  const send = t?.sendMs ?? 0;
  const hop = (a: number, b: number) => (a % p !== b % p ? send : 0);
  const where = (e: ScheduleEvent) => `micro-batch ${e.microBatch} on stage ${e.stage}${v > 1 ? `, chunk ${e.chunk}` : ""}`;
  for (let vs = 0; vs < P; vs++) for (let j = 0; j < m; j++) {
    const f = at.get(key("F", vs, j))!, b = at.get(key("B", vs, j))!;
    if (vs > 0) {
      const prev = at.get(key("F", vs - 1, j))!;
      if (f.start < prev.end + hop(vs - 1, vs) - EPS) add(`F of ${where(f)} starts at ${f.start} before F of the previous stage ends (${prev.end}${hop(vs - 1, vs) ? ` + send ${send}` : ""})`);
    }
    if (b.start < f.end - EPS) add(`B of ${where(b)} starts at ${b.start} before its F ends (${f.end})`);
    if (vs < P - 1) {
      const next = at.get(key("B", vs + 1, j))!;
      if (b.start < next.end + hop(vs + 1, vs) - EPS) add(`B of ${where(b)} starts at ${b.start} before B of the next stage ends (${next.end}${hop(vs + 1, vs) ? ` + send ${send}` : ""})`);
    }
    if (splitBackward) {
      const w = at.get(key("W", vs, j))!;
      if (w.start < b.end - EPS) add(`W of ${where(w)} starts at ${w.start} before its B ends (${b.end})`);
    }
  }
  const byStage: ScheduleEvent[][] = Array.from({ length: p }, () => []);
  for (const e of s.events) byStage[e.stage].push(e);
  for (let st = 0; st < p; st++) {
    const evs = byStage[st].sort((a, b) => a.start - b.start || a.end - b.end);
    for (let i = 1; i < evs.length; i++) {
      if (evs[i].start < evs[i - 1].end - EPS) add(`stage ${st} runs two passes at once: ${evs[i - 1].kind} of micro-batch ${evs[i - 1].microBatch} [${evs[i - 1].start}, ${evs[i - 1].end}] and ${evs[i].kind} of micro-batch ${evs[i].microBatch} [${evs[i].start}, ${evs[i].end}]`);
    }
    if (t) for (const e of evs) {
      const d = opDuration(e.kind, st, v, t, splitBackward);
      if (Math.abs(e.end - e.start - d) > EPS * Math.max(1, d)) add(`${e.kind} of ${where(e)} lasts ${e.end - e.start}, expected ${d}`);
    }
  }
  if (o.maxInFlight !== undefined) {
    const peaks = inFlightTimeline(s);
    for (let st = 0; st < p; st++) {
      const bad = peaks[st].find((x) => x.inFlight > o.maxInFlight! + EPS);
      if (bad) add(`stage ${st} holds ${+bad.inFlight.toFixed(6)} micro-batches in flight at t = ${bad.t} (maxInFlight = ${o.maxInFlight})`);
    }
  }
  return out;
}

/**
 * Throws when {@link checkSchedule} finds a violation.
 * @throws {Error} `invalid schedule: B of micro-batch 0 on stage 1 starts at 0 before its F ends (1); …`
 * @example assertValidSchedule(oneFOneBSchedule(4, 8), { maxInFlight: 4 }) // no error
 */
export function assertValidSchedule(s: Schedule, o: CheckOptions = {}): void {
  const v = checkSchedule(s, o);
  if (v.length) throw new Error(`invalid schedule: ${v.slice(0, 3).join("; ")}${v.length > 3 ? ` (and ${v.length - 3} more)` : ""}`);
}

/**
 * Micro-batches in flight on each stage after each change: a pass (micro-batch, chunk) is in flight
 * from the start of its F to the end of its B (of its W where backward is split), and counts 1/v.
 * @returns per stage, the points {t, inFlight} where the count changes, in time order
 * @example inFlightTimeline(gpipeSchedule(1, 2))[0] // [{t: 0, inFlight: 1}, {t: 1, inFlight: 2}, {t: 3, inFlight: 1}, {t: 4, inFlight: 0}]
 */
export function inFlightTimeline(s: Schedule): { t: number; inFlight: number }[][] {
  const freeKind = s.splitBackward ? "W" : "B";
  const byStage: [number, number][][] = Array.from({ length: s.p }, () => []);
  for (const e of s.events) {
    if (e.kind === "F") byStage[e.stage].push([e.start, 1]);
    else if (e.kind === freeKind) byStage[e.stage].push([e.end, -1]);
  }
  return byStage.map((deltas) => {
    deltas.sort((a, b) => a[0] - b[0] || a[1] - b[1]); // frees before allocations at equal times
    const out: { t: number; inFlight: number }[] = [];
    let n = 0;
    for (const [t, d] of deltas) {
      n += d;
      if (out.length && out[out.length - 1].t === t) out[out.length - 1].inFlight = n / s.v;
      else out.push({ t, inFlight: n / s.v });
    }
    return out;
  });
}
