/**
 * ZeRO-Offload's timeline for layers of any sizes: the GPU computes, the
 * gradients cross PCIe to the CPU, the CPU runs Adam, the parameters come
 * back; with or without the one-step delayed update (DPU). The general case of
 * {@link simulateOffloadStep}'s `offloadOptimizer: "cpu"` run, whose layers
 * are all alike.
 */
import { resolveOffloadConfig, type OffloadConfig } from "./resolveOffloadConfig.js";

/** One layer of the model: its parameters and its forward time. */
export interface TimelineLayer {
  /** ψ, parameters of the layer (integer ≥ 0). */
  params: number;
  /** Seconds of its forward on the GPU (finite, ≥ 0); its backward takes twice that. */
  forwardS: number;
}

/** One direction of the PCIe link: n bytes take alphaS + n / bytesPerS. */
export interface TimelineLink {
  /** Latency per transfer, seconds (finite, ≥ 0; default 0). */
  alphaS?: number;
  /** Bytes per second (finite, > 0). */
  bytesPerS: number;
}

/** The run: layers, steps, the links and the CPU's Adam rate. */
export interface TimelineProblem {
  /** The model's layers, layer 0 first (at least one). */
  layers: TimelineLayer[];
  /** Training steps back to back (integer ≥ 1). */
  steps: number;
  /** The one-step delayed parameter update (default false). */
  dpu?: boolean;
  /** Host → device (the parameters). */
  h2d: TimelineLink;
  /** Device → host (the gradients). */
  d2h: TimelineLink;
  /** Adam elements per second on the CPU (finite, > 0). */
  cpuAdamElementsPerS: number;
}

/** What a task does; its lane follows from it (forward, backward: the GPU; grad-d2h, param-h2d: the PCIe directions; cpu-adam: the CPU). */
export type TimelineTaskKind = "forward" | "backward" | "grad-d2h" | "cpu-adam" | "param-h2d";

/** One task of the timeline. */
export interface TimelineTask {
  kind: TimelineTaskKind;
  /** 0-based step. */
  step: number;
  /** 0-based layer. */
  layer: number;
  /** Start, seconds from the first forward. */
  t: number;
  /** End, seconds. */
  end: number;
}

/** The lane of each kind of task. */
export const TIMELINE_LANES: Readonly<Record<TimelineTaskKind, "gpu" | "d2h" | "cpu" | "h2d">> = {
  forward: "gpu", backward: "gpu", "grad-d2h": "d2h", "cpu-adam": "cpu", "param-h2d": "h2d",
};

const KINDS: readonly TimelineTaskKind[] = ["forward", "backward", "grad-d2h", "cpu-adam", "param-h2d"];

function checkNumber(name: string, v: unknown, { min = 0, open = false } = {}): number {
  if (typeof v !== "number" || !Number.isFinite(v) || (open ? v <= min : v < min)) throw new RangeError(`${name} must be a finite number ${open ? ">" : ">="} ${min}, got ${String(v)}`);
  return v;
}

/** Checks a problem; returns it with its defaults filled in. */
export function resolveTimelineProblem(p: TimelineProblem): Required<Omit<TimelineProblem, "h2d" | "d2h">> & { h2d: Required<TimelineLink>; d2h: Required<TimelineLink> } {
  if (!Array.isArray(p?.layers) || p.layers.length === 0) throw new RangeError(`layers must have at least one layer, got ${Array.isArray(p?.layers) ? 0 : String(p?.layers)}`);
  p.layers.forEach((l, i) => {
    if (typeof l?.params !== "number" || !Number.isSafeInteger(l.params) || l.params < 0) throw new RangeError(`layers[${i}].params must be an integer >= 0, got ${String(l?.params)}`);
    checkNumber(`layers[${i}].forwardS`, l.forwardS);
  });
  if (typeof p.steps !== "number" || !Number.isSafeInteger(p.steps) || p.steps < 1) throw new RangeError(`steps must be an integer >= 1, got ${String(p.steps)}`);
  const link = (name: "h2d" | "d2h") => ({
    alphaS: checkNumber(`${name}.alphaS`, p[name]?.alphaS ?? 0),
    bytesPerS: checkNumber(`${name}.bytesPerS`, p[name]?.bytesPerS, { open: true }),
  });
  return { layers: p.layers, steps: p.steps, dpu: p.dpu ?? false, h2d: link("h2d"), d2h: link("d2h"), cpuAdamElementsPerS: checkNumber("cpuAdamElementsPerS", p.cpuAdamElementsPerS, { open: true }) };
}

/** Seconds each task of layer `l` takes. */
function durations(p: ReturnType<typeof resolveTimelineProblem>, l: number): Record<TimelineTaskKind, number> {
  const { params: psi, forwardS } = p.layers[l];
  return {
    forward: forwardS, backward: 2 * forwardS,
    "grad-d2h": p.d2h.alphaS + (2 * psi) / p.d2h.bytesPerS,
    "cpu-adam": psi / p.cpuAdamElementsPerS,
    "param-h2d": p.h2d.alphaS + (2 * psi) / p.h2d.bytesPerS,
  };
}

/**
 * The timeline of ZeRO-Offload (Ren et al. 2021: fp16 parameters, forward and
 * backward on the GPU; fp32 master and Adam's moments on the CPU) for layers
 * of any sizes.
 *
 * Durations: a forward takes the layer's forwardS and its backward twice that;
 * each layer's fp16 gradients (2ψ bytes, the paper's: DeepSpeed sends fp32)
 * cross device → host in α + 2ψ/B; Adam on the CPU takes ψ / rate; the fp16
 * parameters (2ψ bytes) cross host → device in α + 2ψ/B.
 *
 * Dependencies: backward after the step's forward, layer L−1 first; a layer's
 * gradients leave when its backward ends; the CPU's Adam on any layer of a
 * step waits for every gradient of that step (the overflow check and gradient
 * clipping need them all); a layer's parameters go back when its Adam ends.
 * Without DPU the step is synchronous: step s + 1's forward starts once every
 * parameter copy of step s has ended. With DPU the forward of layer l in step
 * s ≥ 2 waits only for layer l's copy from step s − 2; steps 0 and 1 run on
 * the initial parameters (Ren et al. 2021, §5.2: "the forward of iteration
 * t+1 uses the parameters of iteration t−1").
 *
 * Each of the four lanes (GPU, D2H, CPU, H2D) runs one task at a time, in
 * this order: GPU forward 0 … L−1 then backward L−1 … 0, step after step; D2H
 * layer L−1 first; CPU and H2D layer 0 first (the next forward needs it
 * first); each task starts as soon as its inputs and its lane allow.
 *
 * @param problem layers, steps, dpu, links, CPU rate (see {@link resolveTimelineProblem} for the errors)
 * @returns every task, in the order they are issued
 * @throws RangeError naming the field: `layers must have at least one layer, got 0`,
 *   `layers[1].params must be an integer >= 0, got -1`, `steps must be an integer >= 1, got 0`,
 *   `h2d.bytesPerS must be a finite number > 0, got 0`
 * @example offloadTimeline({ layers: [{ params: 1e9, forwardS: 1 }], steps: 1, h2d: { bytesPerS: 2e9 }, d2h: { bytesPerS: 2e9 }, cpuAdamElementsPerS: 1e9 })
 * // forward 0–1, backward 1–3, grad-d2h 3–4, cpu-adam 4–5, param-h2d 5–6
 * @see Ren et al. 2021, *ZeRO-Offload: Democratizing Billion-Scale Model Training*, §4 (offload strategy), §5.2 (DPU)
 */
export function offloadTimeline(problem: TimelineProblem): TimelineTask[] {
  const p = resolveTimelineProblem(problem);
  const L = p.layers.length;
  const dur = p.layers.map((_, l) => durations(p, l));
  const free = { gpu: 0, d2h: 0, cpu: 0, h2d: 0 };
  const tasks: TimelineTask[] = [];
  const run = (kind: TimelineTaskKind, step: number, layer: number, ready: number): number => {
    const lane = TIMELINE_LANES[kind];
    const t = Math.max(ready, free[lane]);
    const end = t + dur[layer][kind];
    free[lane] = end;
    tasks.push({ kind, step, layer, t, end });
    return end;
  };
  const copied: Float64Array[] = []; // [step][layer]: when the updated parameters are on the GPU
  for (let s = 0; s < p.steps; s++) {
    let barrier = 0;
    if (!p.dpu && s > 0) for (const e of copied[s - 1]) barrier = Math.max(barrier, e);
    for (let l = 0; l < L; l++) run("forward", s, l, p.dpu ? (s >= 2 ? copied[s - 2][l] : 0) : barrier);
    let allGrads = 0;
    for (let l = L - 1; l >= 0; l--) {
      const b = run("backward", s, l, 0);
      allGrads = Math.max(allGrads, run("grad-d2h", s, l, b));
    }
    const c = new Float64Array(L);
    for (let l = 0; l < L; l++) c[l] = run("param-h2d", s, l, run("cpu-adam", s, l, allGrads));
    copied.push(c);
  }
  return tasks;
}

/**
 * Everything wrong with a timeline, as sentences (empty when it is valid):
 * a task missing, repeated or unknown; a duration that is not the task's; two
 * tasks of a lane overlapping; a task that starts before its inputs are ready
 * (the dependencies of {@link offloadTimeline}, DPU's included). It does not
 * require tasks to start as early as possible. Times are compared with a
 * relative tolerance of 1e-9.
 * @param problem the run
 * @param tasks the timeline to check
 * @returns at most `limit` problems, the first found first
 * @example checkOffloadTimeline(problem, offloadTimeline(problem)) // []
 */
export function checkOffloadTimeline(problem: TimelineProblem, tasks: readonly TimelineTask[], limit = 5): string[] {
  const p = resolveTimelineProblem(problem);
  const L = p.layers.length, S = p.steps;
  const out: string[] = [];
  const say = (m: string) => { if (out.length < limit) out.push(m); };
  let horizon = 1e-300;
  for (const x of tasks) if (Number.isFinite(x?.end) && Math.abs(x.end) > horizon) horizon = Math.abs(x.end);
  const eps = 1e-9 * horizon;
  const name = (k: TimelineTaskKind, s: number, l: number) => `${k} of layer ${l} in step ${s}`;
  const K = KINDS.length;
  const slot = (k: number, s: number, l: number) => (s * L + l) * K + k;
  const at: (TimelineTask | undefined)[] = new Array(S * L * K);
  const dur = p.layers.map((_, l) => durations(p, l));
  for (const x of tasks) {
    const k = KINDS.indexOf(x?.kind);
    if (k < 0 || !Number.isInteger(x.step) || x.step < 0 || x.step >= S || !Number.isInteger(x.layer) || x.layer < 0 || x.layer >= L) { say(`unknown task ${JSON.stringify(x)}`); continue; }
    if (!Number.isFinite(x.t) || !Number.isFinite(x.end)) { say(`${name(x.kind, x.step, x.layer)}: t and end must be finite numbers, got ${x.t} and ${x.end}`); continue; }
    const i = slot(k, x.step, x.layer);
    if (at[i]) { say(`${name(x.kind, x.step, x.layer)} appears twice`); continue; }
    at[i] = x;
    const want = dur[x.layer][x.kind];
    if (Math.abs(x.end - x.t - want) > eps) say(`${name(x.kind, x.step, x.layer)} lasts ${x.end - x.t} s, it takes ${want} s`);
    if (x.t < -eps) say(`${name(x.kind, x.step, x.layer)} starts at ${x.t} s, before 0`);
  }
  for (let s = 0; s < S && out.length < limit; s++) for (let l = 0; l < L; l++) for (let k = 0; k < K; k++) if (!at[slot(k, s, l)]) say(`${name(KINDS[k], s, l)} is missing`);
  if (out.length) return out;
  const get = (k: TimelineTaskKind, s: number, l: number) => at[slot(KINDS.indexOf(k), s, l)]!;
  const after = (x: TimelineTask, y: TimelineTask, why: string) => { if (x.t < y.end - eps) say(`${name(x.kind, x.step, x.layer)} starts at ${x.t} s, before ${name(y.kind, y.step, y.layer)} ends (${y.end} s): ${why}`); };
  const last = (k: TimelineTaskKind, s: number) => { let w = get(k, s, 0); for (let j = 1; j < L; j++) if (get(k, s, j).end > w.end) w = get(k, s, j); return w; };
  for (let s = 0; s < S; s++) {
    const lastGrad = last("grad-d2h", s), lastCopy = s >= 1 ? last("param-h2d", s - 1) : undefined;
    for (let l = 0; l < L; l++) {
      if (l > 0) after(get("forward", s, l), get("forward", s, l - 1), "the forward runs layer 0 first");
      if (l < L - 1) after(get("backward", s, l), get("backward", s, l + 1), "the backward runs layer L−1 first");
      else after(get("backward", s, l), get("forward", s, L - 1), "the backward follows the forward");
      after(get("grad-d2h", s, l), get("backward", s, l), "a layer's gradients leave when its backward ends");
      after(get("cpu-adam", s, l), lastGrad, "Adam waits for every gradient of its step");
      after(get("param-h2d", s, l), get("cpu-adam", s, l), "a layer's parameters go back once Adam has updated them");
      if (p.dpu) { if (s >= 2) after(get("forward", s, l), get("param-h2d", s - 2, l), "with DPU step s's forward uses the update of step s − 2"); }
      else if (lastCopy) after(get("forward", s, l), lastCopy, "without DPU the next forward waits for the whole update");
      if (s >= 1) after(get("forward", s, l), get("backward", s - 1, 0), "one step's GPU work follows the previous step's");
    }
  }
  const lanes = new Map<string, TimelineTask[]>();
  for (const x of at) { if (!x) continue; const k = TIMELINE_LANES[x.kind]; if (!lanes.has(k)) lanes.set(k, []); lanes.get(k)!.push(x); }
  for (const [lane, xs] of lanes) {
    xs.sort((a, b) => a.t - b.t || a.end - b.end);
    for (let i = 1; i < xs.length; i++) {
      const a = xs[i - 1], b = xs[i];
      if (b.t < a.end - eps && b.end > b.t && a.end > a.t) say(`the ${lane} lane runs two tasks at once: ${name(a.kind, a.step, a.layer)} (${a.t}–${a.end} s) and ${name(b.kind, b.step, b.layer)} (${b.t}–${b.end} s)`);
    }
  }
  return out;
}

/**
 * The problem of a {@link simulateOffloadStep} run of ZeRO-Offload (the
 * optimizer on the CPU, the parameters on the GPU): L alike layers of ψ = 12h²
 * parameters and F / (GPU FLOP/s) seconds of forward, its links, its CPU rate,
 * its steps and DPU.
 * @param config a run whose `offloadOptimizer` is "cpu" (the default) and `offloadParam` "none"
 * @returns the same run for {@link offloadTimeline}
 * @throws RangeError when the run offloads otherwise, or as {@link resolveOffloadConfig}
 * @example timelineProblemOf({ numLayers: 2, hiddenSize: 1024 }).layers[0].params // 12582912
 */
export function timelineProblemOf(config: OffloadConfig): TimelineProblem {
  const c = resolveOffloadConfig(config);
  if (c.offloadOptimizer !== "cpu" || c.offloadParam !== "none") throw new RangeError(`the timeline is ZeRO-Offload's: offloadOptimizer "cpu" and offloadParam "none", got ${JSON.stringify(c.offloadOptimizer)} and ${JSON.stringify(c.offloadParam)}`);
  const hw = c.hardware;
  return {
    layers: Array.from({ length: c.numLayers }, () => ({ params: c.paramsPerLayer, forwardS: c.forwardFlopsPerLayer / hw.gpuFlopsPerS })),
    steps: c.numSteps, dpu: c.dpu,
    h2d: { alphaS: hw.h2d.alphaS, bytesPerS: hw.h2d.bandwidthBytesPerS },
    d2h: { alphaS: hw.d2h.alphaS, bytesPerS: hw.d2h.bandwidthBytesPerS },
    cpuAdamElementsPerS: hw.cpuAdamElementsPerS,
  };
}
