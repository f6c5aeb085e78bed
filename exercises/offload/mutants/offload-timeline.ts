import type { offloadTimeline, TimelineProblem, TimelineTask, TimelineTaskKind } from "../offload-timeline.js";
import { offloadTimeline as lib } from "../../../lib/offload/index.js";

type F = typeof offloadTimeline;

interface Flags {
  /** With DPU, the forward of step s ≥ from waits for the copy of step s − lag. */
  lag?: number; from?: number;
  /** With DPU, step 1 waits for update 0. */
  lateStart?: boolean;
  /** Adam on a layer starts once its own gradient has arrived. */
  noBarrier?: boolean;
  /** Without DPU, a layer's forward waits for its own copy only. */
  perLayerSync?: boolean;
  /** The CPU and the h2d link update layer L−1 first. */
  cpuReverse?: boolean;
  /** Every lane starts each step free. */
  laneReset?: boolean;
  /** Gradient bytes per parameter. */
  gradBytes?: number;
  /** A layer of no parameters moves nothing and pays no α. */
  emptyFree?: boolean;
  /** Gradients leave layer 0 first, after the whole backward. */
  d2hAfter?: boolean;
  /** The barrier as Math.max(...arrivals). */
  spread?: boolean;
}

function timeline(p: TimelineProblem, o: Flags): TimelineTask[] {
  lib(p); // the reference's input checks
  const L = p.layers.length, lag = o.lag ?? 2, from = o.from ?? 2;
  const a = (x?: number) => x ?? 0;
  const xfer = (link: TimelineProblem["h2d"], psi: number, bytes: number) => (o.emptyFree && psi === 0 ? 0 : a(link.alphaS) + (bytes * psi) / link.bytesPerS);
  const dur = (k: TimelineTaskKind, l: number) => {
    const { params: psi, forwardS } = p.layers[l];
    return k === "forward" ? forwardS : k === "backward" ? 2 * forwardS : k === "grad-d2h" ? xfer(p.d2h, psi, o.gradBytes ?? 2) : k === "cpu-adam" ? psi / p.cpuAdamElementsPerS : xfer(p.h2d, psi, 2);
  };
  const lane = { forward: "gpu", backward: "gpu", "grad-d2h": "d2h", "cpu-adam": "cpu", "param-h2d": "h2d" } as const;
  let free: Record<string, number> = { gpu: 0, d2h: 0, cpu: 0, h2d: 0 };
  const out: TimelineTask[] = [];
  const run = (kind: TimelineTaskKind, step: number, layer: number, ready: number) => {
    const t = Math.max(ready, free[lane[kind]]), end = t + dur(kind, layer);
    free[lane[kind]] = end;
    out.push({ kind, step, layer, t, end });
    return end;
  };
  const copied: number[][] = [];
  for (let s = 0; s < p.steps; s++) {
    if (o.laneReset && s > 0) { const g = free.gpu; free = { gpu: g, d2h: 0, cpu: 0, h2d: 0 }; }
    const barrier = !p.dpu && s > 0 ? copied[s - 1].reduce((x, y) => Math.max(x, y), 0) : 0;
    for (let l = 0; l < L; l++) {
      const ready = p.dpu ? (s >= from ? copied[s - lag][l] : o.lateStart && s === 1 ? copied[0][l] : 0) : o.perLayerSync && s > 0 ? copied[s - 1][l] : barrier;
      run("forward", s, l, ready);
    }
    const arrive: number[] = new Array(L).fill(0);
    const back: number[] = new Array(L).fill(0);
    for (let l = L - 1; l >= 0; l--) {
      back[l] = run("backward", s, l, 0);
      if (!o.d2hAfter) arrive[l] = run("grad-d2h", s, l, back[l]);
    }
    if (o.d2hAfter) for (let l = 0; l < L; l++) arrive[l] = run("grad-d2h", s, l, back[l]);
    const all = o.spread ? Math.max(...arrive) : arrive.reduce((x, y) => Math.max(x, y), 0);
    const c: number[] = new Array(L).fill(0);
    const layers = Array.from({ length: L }, (_, i) => (o.cpuReverse ? L - 1 - i : i));
    for (const l of layers) c[l] = run("param-h2d", s, l, run("cpu-adam", s, l, o.noBarrier ? arrive[l] : all));
    copied.push(c);
  }
  return out;
}
const m = (o: Flags): F => (p) => timeline(p, o);

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "DPU without the delay: step s's forward waits for update s − 1": {
    impl: m({ lag: 1, from: 1 }),
    caughtBy: ["the stub's example", "exact timings with DPU: step s's forward waits for update s − 2", "the chapter's figure (simulateOffloadStep's ZeRO-Offload runs)"],
  },
  "DPU's delay starts a step late (step 1 waits for update 0)": {
    impl: m({ lateStart: true }),
    caughtBy: ["the stub's example", "edges: one layer, layers without parameters, DPU on one and two steps"],
  },
  "Adam overlaps the backward: each layer as soon as its own gradient arrives, layer L−1 first (no overflow check over the whole gradient)": {
    impl: m({ noBarrier: true, cpuReverse: true }),
    caughtBy: ["passes the course's validity checker", "exact timings, synchronous update, unlike layers"],
  },
  "without DPU a layer's forward waits for its own copy only": {
    impl: m({ perLayerSync: true }),
    caughtBy: ["passes the course's validity checker", "exact timings, synchronous update, unlike layers"],
  },
  "the CPU updates layer L−1 first (the order of the gradients)": {
    impl: m({ cpuReverse: true }),
    caughtBy: ["exact timings, synchronous update, unlike layers", "the stub's example"],
  },
  "each step starts with the CPU and links free (the previous step's work forgotten)": {
    impl: m({ laneReset: true }),
    caughtBy: ["passes the course's validity checker", "exact timings with DPU: step s's forward waits for update s − 2"],
  },
  "fp32 gradients over PCIe (DeepSpeed's 4ψ bytes, not the paper's 2ψ)": {
    impl: m({ gradBytes: 4 }),
    caughtBy: ["passes the course's validity checker", "the stub's example"],
  },
  "a layer without parameters moves nothing and pays no latency": {
    impl: m({ emptyFree: true }),
    caughtBy: "edges: one layer, layers without parameters, DPU on one and two steps",
  },
  "gradients leave after the whole backward, layer 0 first": {
    impl: m({ d2hAfter: true }),
    caughtBy: ["exact timings, synchronous update, unlike layers", "the stub's example"],
  },
  "the barrier as Math.max(...arrivals) (an argument spread)": {
    impl: m({ spread: true }),
    caughtBy: "200,000 layers (a million tasks)",
  },
  "fills the defaults into the caller's problem (p.dpu ??= false adds a key)": {
    impl: (p) => { p.dpu ??= false; for (const k of ["h2d", "d2h"] as const) p[k].alphaS ??= 0; return lib(p); },
    caughtBy: ["the stub's example", "edges: one layer, layers without parameters, DPU on one and two steps"],
  },
  "times rounded to the microsecond": {
    impl: (p) => lib(p).map((x) => ({ ...x, t: Math.round(x.t * 1e6) / 1e6, end: Math.round(x.end * 1e6) / 1e6 })),
    caughtBy: ["exact timings, synchronous update, unlike layers", "200,000 layers (a million tasks)"],
  },
  "accepts a NaN forward time": {
    impl: (p) => { if (p.layers?.some((l) => Number.isNaN(l.forwardS))) return []; return lib(p); },
    caughtBy: "bad input names the field",
  },
};
