/**
 * The optimizer step after a pipeline schedule, over several iterations: with the all-reduce over
 * every stage that gradient clipping and the inf/NaN check need (every stage waits for the last),
 * or with Qi et al.'s optimizer post-validation (each stage steps at once on a partially reduced
 * state passed along the pipeline, and rolls back if the fully reduced state says it should not have).
 */
import { type Op, type OpKind, type Schedule, type StageTimes } from "./schedule.js";
import { timeOrders } from "./timeOrders.js";
import { routePosition, routeStep } from "./placement.js";

/** A numerical event in one iteration: an inf/NaN in some stage's gradients, or a global norm above the clipping threshold that the partial norm first exceeds at that stage. */
export interface StepFault { iteration: number; stage: number; kind: "inf" | "clip" }

/** Options of {@link simulateOptimizerStep}. */
export interface OptimizerStepOptions {
  /** The schedule's pass times (the iterations are re-timed with them). */
  times: StageTimes;
  /** Iterations to run (integer ≥ 1, default 2). */
  iterations?: number;
  /** One optimizer step on one stage (and one rollback), ms ≥ 0. */
  optimizerMs: number;
  /** The all-reduce of the grad norm and the found-inf flag over all stages (synchronised mode), ms ≥ 0. */
  allReduceMs: number;
  /** One message of the reduced state between neighbouring stages (post-validation), ms ≥ 0; default times.sendMs or 0. */
  stateSendMs?: number;
  /** Qi et al.'s post-validation instead of the all-reduce. */
  postValidation: boolean;
  faults?: readonly StepFault[];
}

/** A timed event: a pass of an iteration (discarded when a rollback made it run again), or an optimizer event. */
export interface StepEvent {
  stage: number;
  iteration: number;
  kind: OpKind | "allreduce" | "step" | "rollback" | "validate";
  microBatch?: number;
  chunk?: number;
  start: number;
  end: number;
  discarded?: boolean;
  overlapped?: boolean;
  /** A step with clipped gradients (redone after a failed validation, or synchronised after a clip). */
  clipped?: boolean;
}

/** What stands of an iteration's optimizer steps on a stage once every check is done ("invalid": more than one step stands). */
export type StepOutcome = "update" | "clipped" | "skipped" | "invalid";

/** Result of {@link simulateOptimizerStep}. */
export interface OptimizerStepResult {
  events: StepEvent[];
  /** End of the last event. */
  totalMs: number;
  /** outcomes[iteration][stage]: the step that stands once every check is done, read from the events (steps minus rollbacks). */
  outcomes: StepOutcome[][];
  /** rollbacks[iteration][stage]: whether the stage stepped eagerly and had to undo it. */
  rollbacks: boolean[][];
}

/** Per-device orders read back from a schedule's events (ties: F, then B, then W; an overlapped F&B pair is one op). */
export function ordersOf(s: Schedule): Op[][] {
  const rank = { F: 0, B: 1, W: 2 };
  return Array.from({ length: s.p }, (_, st) => {
    const evs = s.events.filter((e) => e.stage === st).sort((a, b) => a.start - b.start || a.end - b.end || rank[a.kind] - rank[b.kind]);
    const out: Op[] = [];
    for (const e of evs) {
      if (e.overlapped && e.kind === "B") continue;
      const op: Op = { kind: e.kind, microBatch: e.microBatch, chunk: e.chunk, ...(e.full ? { full: true } : {}) };
      if (e.overlapped) {
        const b = evs.find((x) => x.overlapped && x.kind === "B" && x.start === e.start)!;
        op.with = { kind: "B", microBatch: b.microBatch, chunk: b.chunk, ...(b.full ? { full: true } : {}) };
      }
      out.push(op);
    }
    return out;
  });
}

const checkMs = (name: string, x: number) => {
  if (typeof x !== "number" || !Number.isFinite(x) || x < 0) throw new RangeError(`${name} must be a finite number >= 0, got ${x}`);
};

/**
 * Runs a schedule for several iterations with the optimizer step between them, and times it.
 * - Synchronised (`postValidation: false`, what Megatron-LM does): after a stage's last pass it
 *   joins an all-reduce of the grad norm and the found-inf flag, which ends `allReduceMs` after the
 *   last stage joins; then every stage steps (clipped, or skipped on an inf) and starts the next iteration.
 * - Post-validation (Qi et al. §4): stage s combines its local state with the partial state from
 *   stage s − 1 and passes it on; it steps at once unless that partial state already shows an inf or
 *   a norm above the threshold. The fully reduced state travels back from the last stage during the
 *   next iteration's warm-up; each stage validates it before its first pass that is not a forward of
 *   its first chunk (sail-sg's placement of POST_VALIDATION). If the check fails, the stages that
 *   stepped roll back (charged one optimizer step's time: Qi et al.'s in-place rollback, Appendix C, is one more elementwise pass over the state), the step is redone with
 *   clipped gradients or skipped, and the iteration's forwards run so far are discarded and rerun.
 * In both modes the final outcome of every iteration is the same: post-validation keeps the
 * synchronous semantics and changes only the timing.
 * @param s the schedule of one iteration (its per-device orders are read from its events, {@link ordersOf})
 * @param o times, iterations, step and message costs, mode and faults (see {@link OptimizerStepOptions})
 * @returns the events of all iterations, the total time, and each iteration's outcome and rollbacks per stage
 * @throws {RangeError} `optimizerMs must be a finite number >= 0, got -1`; `iterations must be an integer >= 1, got 0`; `faults[0].stage must be an integer from 0 to 3, got 4`
 * @example simulateOptimizerStep(zbH2Schedule(4, 8), { times: { forward: 1, backward: 1, weight: 1 }, iterations: 2, optimizerMs: 1, allReduceMs: 0, postValidation: true }).totalMs // 53 = 2(24 + 1) + 3
 * @see Qi et al. 2023, §4 and Figure 4, Appendix C (in-place rollback); sail-sg/zero-bubble-pipeline-parallelism at 39f2c18: megatron/core/optimizer/optimizer.py (`pre_step`, `post_validation`) and zerobubble/scheduler/communication.py (`add_post_validation_nodes_before_deadline`)
 */
export function simulateOptimizerStep(s: Schedule, o: OptimizerStepOptions): OptimizerStepResult {
  const { p, m, v } = s, N = o.iterations ?? 2, placement = s.placement ?? "loop";
  if (!Number.isInteger(N) || N < 1) throw new RangeError(`iterations must be an integer >= 1, got ${N}`);
  const send = o.stateSendMs ?? o.times.sendMs ?? 0;
  checkMs("optimizerMs", o.optimizerMs); checkMs("allReduceMs", o.allReduceMs); checkMs("stateSendMs", send);
  const faults = o.faults ?? [];
  faults.forEach((f, i) => {
    if (!Number.isInteger(f.stage) || f.stage < 0 || f.stage >= p) throw new RangeError(`faults[${i}].stage must be an integer from 0 to ${p - 1}, got ${f.stage}`);
    if (!Number.isInteger(f.iteration) || f.iteration < 0 || f.iteration >= N) throw new RangeError(`faults[${i}].iteration must be an integer from 0 to ${N - 1}, got ${f.iteration}`);
    if (f.kind !== "inf" && f.kind !== "clip") throw new RangeError(`faults[${i}].kind must be "inf" or "clip", got ${JSON.stringify(f.kind)}`);
  });
  const faultAt = (k: number) => faults.filter((f) => f.iteration === k).sort((a, b) => a.stage - b.stage)[0];
  const orders = ordersOf(s), opt = o.optimizerMs;
  const events: StepEvent[] = [];
  const time = (ords: Op[][], notBefore: (st: number, i: number) => number) => timeOrders(ords, p, m, v, o.times, s.splitBackward, { placement, notBefore });
  const push = (stage: number, iteration: number, kind: StepEvent["kind"], start: number, end: number, clipped = false) => events.push({ stage, iteration, kind, start, end, ...(clipped ? { clipped } : {}) });
  // the leading forwards of each stage's first chunk: what may run before the validation
  const deadline = orders.map((ord) => { let i = 0; while (i < ord.length && ord[i].kind === "F" && !ord[i].with && ord[i].chunk === ord[0].chunk) i++; return i; });
  let start = new Array(p).fill(0);
  let pending: { G: number[]; fault?: StepFault; stepped: boolean[] } | undefined;
  const recover = (k: number, V: number[]): number[] => pending!.stepped.map((stepped, st) => {
    const f = pending!.fault;
    push(st, k, "validate", V[st], V[st]);
    if (!f) return V[st];
    let t = V[st];
    if (stepped) { push(st, k, "rollback", t, t + opt); t += opt; }
    if (f.kind === "clip") { push(st, k, "step", t, t + opt, true); t += opt; }
    return t;
  });
  for (let k = 0; k <= N; k++) {
    let evs: ReturnType<typeof timeOrders> | undefined;
    if (pending && pending.fault && k < N) {
      // the forwards that ran before the failed validation, on the stages that stepped eagerly
      const keep = orders.map((ord, st) => (pending!.stepped[st] ? deadline[st] : 0));
      for (let changed = true; changed;) { // keep only forwards whose input is kept too
        changed = false;
        orders.forEach((ord, st) => {
          for (let i = 0; i < keep[st]; i++) {
            const op = ord[i], pos = routePosition({ p, m, v, placement }, st, op.chunk, op.microBatch);
            if (pos === 0) continue;
            const prev = routeStep({ p, m, v, placement }, pos - 1, op.microBatch);
            const j = orders[prev.stage].findIndex((x) => x.kind === "F" && x.microBatch === op.microBatch && x.chunk === prev.chunk);
            if (j >= keep[prev.stage]) { keep[st] = i; changed = true; break; }
          }
        });
      }
      const pre = time(orders.map((ord, st) => ord.slice(0, keep[st])), (st, i) => (i === 0 ? start[st] : 0));
      for (const e of pre) events.push({ ...e, iteration: k, discarded: true });
      const V = pending.G.map((g, st) => Math.max(g, start[st], ...pre.filter((e) => e.stage === st).map((e) => e.end)));
      start = recover(k - 1, V);
      pending = undefined;
    }
    if (k === N) break;
    const G = pending?.G;
    evs = time(orders, (st, i) => (i === 0 ? start[st] : G && i === deadline[st] ? G[st] : 0));
    if (pending) { // passed validation: a zero-length marker where it ran, after the leading forwards
      const V = pending.G.map((g, st) => {
        const lead = evs!.filter((e) => e.stage === st).sort((a, b) => a.start - b.start).slice(0, deadline[st]);
        return Math.max(g, start[st], ...lead.map((e) => e.end));
      });
      recover(k - 1, V);
      pending = undefined;
    }
    for (const e of evs) events.push({ ...e, iteration: k });
    const E = Array.from({ length: p }, (_, st) => Math.max(start[st], ...evs!.filter((e) => e.stage === st).map((e) => e.end)));
    const fault = faultAt(k);
    if (!o.postValidation) {
      const A = Math.max(...E), Gall = A + o.allReduceMs;
      for (let st = 0; st < p; st++) {
        push(st, k, "allreduce", A, Gall);
        if (fault?.kind !== "inf") push(st, k, "step", Gall, Gall + opt, fault?.kind === "clip");
      }
      start = new Array(p).fill(fault?.kind === "inf" ? Gall : Gall + opt);
      continue;
    }
    const P = new Array(p).fill(0);
    for (let st = 0; st < p; st++) P[st] = st === 0 ? E[0] : Math.max(E[st], P[st - 1] + send);
    const stepped = P.map((_, st) => !fault || st < fault.stage);
    stepped.forEach((x, st) => { if (x) push(st, k, "step", P[st], P[st] + opt); });
    const Gs = new Array(p).fill(0);
    for (let st = p - 1; st >= 0; st--) Gs[st] = st === p - 1 ? P[p - 1] : Gs[st + 1] + send;
    start = P.map((x, st) => (stepped[st] ? x + opt : x));
    pending = { G: Gs, fault, stepped };
  }
  if (pending) recover(N - 1, pending.G.map((g, st) => Math.max(g, start[st])));
  events.sort((a, b) => a.start - b.start || a.stage - b.stage);
  const outcomes: StepOutcome[][] = [], rollbacks: boolean[][] = [];
  for (let k = 0; k < N; k++) {
    outcomes.push([]); rollbacks.push([]);
    for (let st = 0; st < p; st++) {
      const mine = events.filter((e) => e.iteration === k && e.stage === st);
      const steps = mine.filter((e) => e.kind === "step"), undone = mine.filter((e) => e.kind === "rollback").length;
      const standing = steps.length - undone;
      outcomes[k].push(standing === 0 ? "skipped" : standing > 1 || standing < 0 ? "invalid" : steps[steps.length - 1].clipped ? "clipped" : "update");
      rollbacks[k].push(undone > 0);
    }
  }
  return { events, totalMs: Math.max(0, ...events.map((e) => e.end)), outcomes, rollbacks };
}
