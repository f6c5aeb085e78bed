/**
 * The validity checker: what any pipeline schedule must respect, read from its events alone.
 */
import { checkShape, opDuration, resolveTimes, type Schedule, type ScheduleEvent, type StageTimes } from "./schedule.js";
import { checkPlacement, passShare, routeLength, routePosition, routeStep } from "./placement.js";

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
 * 1. fields in range: 0 ≤ stage < p, 0 ≤ microBatch < m, a chunk on that micro-batch's route (see
 *    placement.ts: "loop", "v", "dualpipe"), kind F/B (and W iff splitBackward), 0 ≤ start ≤ end, finite;
 * 2. every (chunk, micro-batch) on a route has exactly one F and one B, and one W where backward is
 *    split, unless its B is `full` (it computed the weight gradient itself);
 * 3. dependencies along the route: F at position k after F at k − 1 (plus sendMs across devices);
 *    B at k after F at k and after B at k + 1 (plus sendMs); W after its B;
 * 4. one pass per device at a time, except an overlapped pair: one F and one B flagged `overlapped`
 *    with the same start and end (DualPipe's F&B);
 * 5. optional: exact durations, and at most `maxInFlight` micro-batches in flight per stage (from the
 *    start of F to the end of B, or of W where backward is split).
 * @param s the schedule to check
 * @param o optional times and memory limit
 * @returns list of violations, at most 20
 * @throws {RangeError} `p must be an integer >= 1, got 0` when the schedule's shape is invalid; `placement must be one of loop, v, dualpipe, got "x"`
 * @example checkSchedule(gpipeSchedule(2, 2), { maxInFlight: 1 }) // ["stage 0 holds 2 micro-batches in flight at t = 1 (maxInFlight = 1)", "stage 1 holds 2 micro-batches in flight at t = 2 (maxInFlight = 1)"]
 * @see Narayanan et al. 2021 (Megatron-LM), §2.2; Qi et al. 2023, §2 (the B/W dependencies) and §6 (the V placement); DeepSeek-AI 2024, DeepSeek-V3 report §3.2.1 (two directions)
 */
export function checkSchedule(s: Schedule, o: CheckOptions = {}): string[] {
  const { p, m, v, splitBackward } = s;
  checkShape(p, m, v);
  const layout = { p, m, v, placement: s.placement ?? "loop" };
  checkPlacement(layout);
  const L = routeLength(layout), share = passShare(layout);
  const out: string[] = [];
  const add = (msg: string) => { if (out.length < 20) out.push(msg); };
  const kinds = splitBackward ? ["F", "B", "W"] : ["F", "B"];
  const slots: (ScheduleEvent | undefined)[] = new Array(3 * L * m);
  const KI: Record<string, number> = { F: 0, B: 1, W: 2 };
  const key = (k: string, pos: number, j: number) => (KI[k] * L + pos) * m + j;
  const posOf = (e: ScheduleEvent) => routePosition(layout, e.stage, e.chunk, e.microBatch);
  const where = (e: ScheduleEvent) => `micro-batch ${e.microBatch} on stage ${e.stage}${v > 1 ? `, chunk ${e.chunk}` : ""}`;
  for (const e of s.events) {
    const ok = Number.isInteger(e.stage) && Number.isInteger(e.microBatch) && Number.isInteger(e.chunk) && kinds.includes(e.kind) && posOf(e) >= 0
      && Number.isFinite(e.start) && Number.isFinite(e.end) && e.start >= 0 && e.end >= e.start && !(e.overlapped && e.kind === "W") && !(e.full && e.kind !== "B");
    if (!ok) { add(`bad event ${JSON.stringify(e)} (p = ${p}, m = ${m}, v = ${v}, placement ${layout.placement}, kinds ${kinds.join("/")})`); continue; }
    const k = key(e.kind, posOf(e), e.microBatch);
    if (slots[k]) add(`${e.kind} of ${where(e)} runs twice`);
    slots[k] = e;
  }
  for (let pos = 0; pos < L; pos++) for (let j = 0; j < m; j++) {
    const at = routeStep(layout, pos, j), name = `micro-batch ${j} on stage ${at.stage}${v > 1 ? `, chunk ${at.chunk}` : ""}`;
    for (const kind of ["F", "B"]) if (!slots[key(kind, pos, j)]) add(`${kind} of ${name} is missing`);
    if (!splitBackward) continue;
    const full = slots[key("B", pos, j)]?.full, w = slots[key("W", pos, j)];
    if (!full && !w) add(`W of ${name} is missing`);
    if (full && w) add(`W of ${name} runs, but its B was full (it computed the weight gradient already)`);
  }
  if (out.length) return out;
  const t = o.times ? resolveTimes(o.times, p) : null;
  const send = t?.sendMs ?? 0;
  const hop = (a: number, b: number, j: number) => (routeStep(layout, a, j).stage !== routeStep(layout, b, j).stage ? send : 0);
  for (let pos = 0; pos < L; pos++) for (let j = 0; j < m; j++) {
    const f = slots[key("F", pos, j)]!, b = slots[key("B", pos, j)]!;
    if (pos > 0) {
      const prev = slots[key("F", pos - 1, j)]!, h = hop(pos - 1, pos, j);
      if (f.start < prev.end + h - EPS) add(`F of ${where(f)} starts at ${f.start} before F of the previous stage ends (${prev.end}${h ? ` + send ${send}` : ""})`);
    }
    if (b.start < f.end - EPS) add(`B of ${where(b)} starts at ${b.start} before its F ends (${f.end})`);
    if (pos < L - 1) {
      const next = slots[key("B", pos + 1, j)]!, h = hop(pos + 1, pos, j);
      if (b.start < next.end + h - EPS) add(`B of ${where(b)} starts at ${b.start} before B of the next stage ends (${next.end}${h ? ` + send ${send}` : ""})`);
    }
    const w = splitBackward ? slots[key("W", pos, j)] : undefined;
    if (w && w.start < b.end - EPS) add(`W of ${where(w)} starts at ${w.start} before its B ends (${b.end})`);
  }
  const byStage: ScheduleEvent[][] = Array.from({ length: p }, () => []);
  for (const e of s.events) byStage[e.stage].push(e);
  for (let st = 0; st < p; st++) {
    const evs = byStage[st].sort((a, b) => a.start - b.start || a.end - b.end || (a.kind < b.kind ? -1 : 1));
    // one entry per pass or overlapped pair: overlapped passes with the same interval must be F and B in equal numbers, one of each unless they take no time
    const busy: ScheduleEvent[] = [];
    const groups = new Map<string, ScheduleEvent[]>();
    for (const e of evs) {
      if (!e.overlapped) { busy.push(e); continue; }
      const g = groups.get(`${e.start}|${e.end}`);
      if (g) g.push(e); else { groups.set(`${e.start}|${e.end}`, [e]); busy.push(e); }
    }
    for (const g of groups.values()) {
      const f = g.filter((e) => e.kind === "F").length, b = g.length - f, e = g[0];
      if (f !== b || (e.end > e.start && g.length !== 2)) add(`stage ${st} has ${f} F and ${b} B flagged overlapped on [${e.start}, ${e.end}]: an overlapped pair is one F and one B with the same interval (${e.kind} of ${where(e)})`);
    }
    busy.sort((a, b) => a.start - b.start || a.end - b.end);
    for (let i = 1; i < busy.length; i++) {
      const a = busy[i - 1], b = busy[i];
      if (b.start < a.end - EPS) add(`stage ${st} runs two passes at once: ${a.kind} of micro-batch ${a.microBatch} [${a.start}, ${a.end}] and ${b.kind} of micro-batch ${b.microBatch} [${b.start}, ${b.end}]`);
    }
    if (t) for (const e of evs) {
      const d = opDuration(e, st, share, t, splitBackward);
      if (Math.abs(e.end - e.start - d) > EPS * Math.max(1, d)) add(`${e.kind}${e.overlapped ? " (overlapped)" : ""} of ${where(e)} lasts ${e.end - e.start}, expected ${d}`);
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
 * from the start of its F to the end of its B (of its W where backward is split, unless the B is
 * full), and counts as the share of the device's layers it covers (1/v; 1 under "dualpipe").
 * @returns per stage, the points {t, inFlight} where the count changes, in time order
 * @example inFlightTimeline(gpipeSchedule(1, 2))[0] // [{t: 0, inFlight: 1}, {t: 1, inFlight: 2}, {t: 3, inFlight: 1}, {t: 4, inFlight: 0}]
 */
export function inFlightTimeline(s: Schedule): { t: number; inFlight: number }[][] {
  const share = passShare({ p: s.p, m: s.m, v: s.v, placement: s.placement });
  const byStage: [number, number][][] = Array.from({ length: s.p }, () => []);
  for (const e of s.events) {
    if (e.kind === "F") byStage[e.stage].push([e.start, 1]);
    else if (e.kind === "W" || (e.kind === "B" && (!s.splitBackward || e.full))) byStage[e.stage].push([e.end, -1]);
  }
  return byStage.map((deltas) => {
    deltas.sort((a, b) => a[0] - b[0] || a[1] - b[1]); // frees before allocations at equal times
    const out: { t: number; inFlight: number }[] = [];
    let n = 0;
    for (const [t, d] of deltas) {
      n += d;
      if (out.length && out[out.length - 1].t === t) out[out.length - 1].inFlight = n * share;
      else out.push({ t, inFlight: n * share });
    }
    return out;
  });
}
