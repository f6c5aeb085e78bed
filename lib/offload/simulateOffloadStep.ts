/**
 * The offload timeline: one GPU, one CPU, the PCIe link in each direction and
 * an NVMe drive, as serial queues ("lanes"), running back-to-back training
 * steps of a model whose states live where DeepSpeed's `offload_optimizer`
 * and `offload_param` put them.
 */
import { resolveOffloadConfig, type OffloadConfig, type ResolvedOffloadConfig } from "./resolveOffloadConfig.js";

/** A serial resource of the timeline. */
export type Lane = "gpu" | "h2d" | "d2h" | "cpu" | "nvme-read" | "nvme-write";

/** Every lane, in drawing order. */
export const LANES: readonly Lane[] = ["gpu", "h2d", "d2h", "cpu", "nvme-read", "nvme-write"];

/** What a timeline event does. */
export type OffloadEventKind =
  | "forward" | "backward" | "gpu-adam"
  | "param-h2d" | "grad-d2h" | "cpu-adam"
  | "optim-read" | "optim-write" | "param-read" | "param-write";

/** One busy interval of one lane. */
export interface OffloadEvent {
  /** Start, seconds from the first forward. */
  t: number;
  /** End, seconds. */
  end: number;
  lane: Lane;
  kind: OffloadEventKind;
  /** 0-based step. */
  step: number;
  /** 0-based layer. */
  layer: number;
  /** Bytes moved (0 for compute). */
  bytes: number;
}

/** What one simulated run gives. */
export interface OffloadTimeline {
  config: ResolvedOffloadConfig;
  events: OffloadEvent[];
  /** Time per step in the steady state: done of the last step − done of the one before (the makespan when there is one step). */
  stepTimeS: number;
  /** When the last event ends. */
  makespanS: number;
  /** Forward plus backward compute of one step (what the GPU must do whatever is offloaded). */
  gpuComputeS: number;
  /** gpuComputeS / stepTimeS. */
  gpuUtilization: number;
  /** When each step is done: its update complete where the next use reads it (without DPU), its GPU work ended (with DPU). */
  stepDoneS: number[];
  /** Bytes per step over each lane that moves data (from the events of step 0). */
  bytesPerStep: { h2d: number; d2h: number; nvmeRead: number; nvmeWrite: number };
}

/**
 * Simulates `numSteps` training steps on the offload timeline.
 *
 * Each lane runs its tasks one at a time in the order they are issued; a task
 * starts when its inputs are ready and its lane is free. A transfer of n bytes
 * takes α + n/B, a layer's forward F/FLOP/s (F = 24bsh² + 4bs²h), its
 * backward 2F/FLOP/s, Adam on ψ elements ψ/(elements/s).
 *
 * - ZeRO-Offload (`offloadOptimizer: "cpu"`): fp16 parameters stay on the GPU;
 *   each layer's fp16 gradients (2ψ bytes) go to the CPU as soon as its
 *   backward ends; after the last gradient arrives the CPU runs Adam layer by
 *   layer (layer 0 first) on the fp32 master, and each layer's fp16 parameters
 *   (2ψ) go back. The next step's forward waits for the whole update (the
 *   optimizer step is synchronous).
 * - `dpu: true`: step s + 1's forward uses the parameters of step s − 1's
 *   update, so the CPU's Adam and the parameter copies of step s overlap with
 *   the GPU's step s + 1 (Ren et al. 2021, §5.2).
 * - `offloadParam: "cpu"` (ZeRO-3 only): fp16 parameters live on the CPU; each
 *   layer is copied to the GPU before its forward and again before its
 *   backward (fetched one layer ahead), and freed after use; updated parameters
 *   stay on the CPU.
 * - `"nvme"` (ZeRO-Infinity): the optimizer states (12ψ) are read from NVMe
 *   before each layer's Adam and written back after it; NVMe parameters are
 *   read before each copy to the GPU and written after the update.
 * - `offloadOptimizer: "none"`: Adam runs on the GPU after backward.
 *
 * One GPU, no limit on pinned buffers or GPU memory (see {@link offloadMemory}
 * for what fits); reads and writes of NVMe are separate lanes.
 *
 * @param config the run (see {@link resolveOffloadConfig} for defaults and errors)
 * @returns events, step time, bytes per step
 * @throws RangeError naming the field, e.g. `offloadParam "cpu" needs stage 3 (zero_optimization.stage), got stage 2`,
 *   `h2d.bandwidthBytesPerS must be a finite number > 0, got 0`
 * @example simulateOffloadStep({ numLayers: 4, hiddenSize: 1024 }).bytesPerStep.d2h // 4 · 2 · 12 · 1024² = 100663296
 * @see Ren et al. 2021, *ZeRO-Offload: Democratizing Billion-Scale Model Training*, §4 (offload strategy), §5 (schedule, DPU);
 *   Rajbhandari et al. 2021, *ZeRO-Infinity*, §5 (NVMe offload); DeepSpeed configuration docs (`offload_optimizer`, `offload_param`)
 */
export function simulateOffloadStep(config: OffloadConfig): OffloadTimeline {
  const c = resolveOffloadConfig(config);
  const hw = c.hardware, L = c.numLayers, psi = c.paramsPerLayer;
  const fwdS = c.forwardFlopsPerLayer / hw.gpuFlopsPerS;
  const events: OffloadEvent[] = [];
  const free: Record<Lane, number> = { gpu: 0, h2d: 0, d2h: 0, cpu: 0, "nvme-read": 0, "nvme-write": 0 };
  const run = (lane: Lane, kind: OffloadEventKind, step: number, layer: number, ready: number, seconds: number, bytes = 0): number => {
    const t = Math.max(ready, free[lane]);
    const end = t + seconds;
    free[lane] = end;
    events.push({ t, end, lane, kind, step, layer, bytes });
    return end;
  };
  const h2d = (bytes: number) => hw.h2d.alphaS + bytes / hw.h2d.bandwidthBytesPerS;
  const d2h = (bytes: number) => hw.d2h.alphaS + bytes / hw.d2h.bandwidthBytesPerS;
  const paramsOnCpu = c.offloadParam !== "none";
  const cpuCopyReady = new Array<number>(L).fill(0); // fp16 parameters current on the CPU / NVMe (param offload)
  const updatedAt: number[][] = []; // [step][layer]: updated fp16 parameters ready where the next forward reads them
  const stepDoneS: number[] = [];

  /** Brings layer l's fp16 parameters to the GPU (param offload), issued no earlier than `issue`. */
  const fetch = (s: number, l: number, issue: number): number => {
    let ready = Math.max(issue, cpuCopyReady[l]);
    if (c.offloadParam === "nvme") ready = run("nvme-read", "param-read", s, l, ready, (2 * psi) / hw.nvmeReadBytesPerS, 2 * psi);
    return run("h2d", "param-h2d", s, l, ready, h2d(2 * psi), 2 * psi);
  };

  for (let s = 0; s < c.numSteps; s++) {
    const barrier = s === 0 ? 0 : stepDoneS[s - 1];
    // Forward, layer 0 … L−1.
    let prevStart = barrier;
    for (let l = 0; l < L; l++) {
      let ready: number;
      if (paramsOnCpu) ready = fetch(s, l, l === 0 ? barrier : prevStart);
      else if (c.dpu) ready = s >= 2 ? updatedAt[s - 2][l] : 0;
      else ready = barrier;
      const end = run("gpu", "forward", s, l, ready, fwdS);
      prevStart = end - fwdS;
    }
    // Backward, layer L−1 … 0; gradients leave as they are produced.
    const gradArrive: number[] = new Array(L).fill(0);
    for (let l = L - 1; l >= 0; l--) {
      const ready = paramsOnCpu ? fetch(s, l, l === L - 1 ? free.gpu - fwdS : prevStart) : 0;
      const end = run("gpu", "backward", s, l, ready, 2 * fwdS);
      prevStart = end - 2 * fwdS;
      if (c.offloadOptimizer !== "none") gradArrive[l] = run("d2h", "grad-d2h", s, l, end, d2h(2 * psi), 2 * psi);
    }
    // The optimizer step, layer 0 first (the next forward needs it first).
    const updated: number[] = new Array(L).fill(0);
    if (c.offloadOptimizer === "none") {
      for (let l = 0; l < L; l++) updated[l] = run("gpu", "gpu-adam", s, l, 0, psi / hw.gpuAdamElementsPerS);
    } else {
      const allGrads = Math.max(...gradArrive);
      for (let l = 0; l < L; l++) {
        let ready = allGrads;
        if (c.offloadOptimizer === "nvme") ready = run("nvme-read", "optim-read", s, l, ready, (12 * psi) / hw.nvmeReadBytesPerS, 12 * psi);
        const done = run("cpu", "cpu-adam", s, l, ready, psi / hw.cpuAdamElementsPerS);
        if (c.offloadOptimizer === "nvme") run("nvme-write", "optim-write", s, l, done, (12 * psi) / hw.nvmeWriteBytesPerS, 12 * psi);
        if (!paramsOnCpu) updated[l] = run("h2d", "param-h2d", s, l, done, h2d(2 * psi), 2 * psi);
        else {
          cpuCopyReady[l] = c.offloadParam === "nvme" ? run("nvme-write", "param-write", s, l, done, (2 * psi) / hw.nvmeWriteBytesPerS, 2 * psi) : done;
          updated[l] = cpuCopyReady[l];
        }
      }
    }
    updatedAt.push(updated);
    // With DPU the next forward does not wait for this update; without it, it does.
    const gpuDone = Math.max(...events.filter((e) => e.step === s && e.lane === "gpu").map((e) => e.end));
    stepDoneS.push(c.dpu ? gpuDone : Math.max(gpuDone, ...updated));
  }
  const makespanS = Math.max(...events.map((e) => e.end));
  const stepTimeS = c.numSteps === 1 ? makespanS : stepDoneS[c.numSteps - 1] - stepDoneS[c.numSteps - 2];
  const gpuComputeS = 3 * fwdS * L;
  const bytes = (kinds: OffloadEventKind[], lane: Lane) => events.filter((e) => e.step === 0 && e.lane === lane && kinds.includes(e.kind)).reduce((a, e) => a + e.bytes, 0);
  return {
    config: c, events, stepTimeS, makespanS, gpuComputeS, gpuUtilization: gpuComputeS / stepTimeS, stepDoneS,
    bytesPerStep: {
      h2d: bytes(["param-h2d"], "h2d"), d2h: bytes(["grad-d2h"], "d2h"),
      nvmeRead: bytes(["optim-read", "param-read"], "nvme-read"), nvmeWrite: bytes(["optim-write", "param-write"], "nvme-write"),
    },
  };
}
