import { describe, expect, it } from "vitest";
import { simulateDdpStep } from "./simulateDdpStep.js";
import { simulateDataParallelStep } from "./simulateDataParallelStep.js";
import { ddpStepTimeMs } from "./ddpStepTimeMs.js";
import { exampleLayers, type LayerSpec } from "./layers.js";
import { collectiveCost } from "../collectives/index.js";

const cost = { alphaS: 1e-5, bandwidthBytesPerS: 1e10 };
const layers = exampleLayers(8, 40e6, 2); // 8 blocks of 40 MB, 0.08 ms forward each

describe("simulateDdpStep", () => {
  it("simulateDdpStep agrees with ddpStepTimeMs on the same buckets, and overlap hides communication", () => {
    for (const overlap of [true, false]) {
      const { result } = simulateDdpStep({ layers, numRanks: 8, cost, overlap, optimizerMs: 0.3 });
      const fwd = layers.reduce((s, l) => s + l.forwardMs, 0), bwd = layers.reduce((s, l) => s + l.backwardMs, 0);
      expect(result.stepTimeMs).toBeCloseTo(ddpStepTimeMs({ forwardMs: fwd, backwardMs: bwd, buckets: result.buckets, optimizerMs: 0.3, overlap }), 12);
      // every bucket's all-reduce time is the closed-form ring all-reduce time
      for (const b of result.buckets) expect(b.allReduceMs).toBeCloseTo(1000 * collectiveCost("ring-all-reduce", Math.ceil(b.bytes / 4), 8, cost).timeS, 12);
    }
    const on = simulateDdpStep({ layers, numRanks: 8, cost, overlap: true, optimizerMs: 0.3 }).result;
    const off = simulateDdpStep({ layers, numRanks: 8, cost, overlap: false, optimizerMs: 0.3 }).result;
    expect(on.stepTimeMs!).toBeLessThan(off.stepTimeMs!);
    expect(off.exposedCommMs).toBeCloseTo(off.commMs, 9);
  });

  it("simulateDdpStep on 2 layers / 2 buckets reproduces a hand-computed timeline (P = 2, α = 0, B = 1 GB/s)", () => {
    // Layers in forward order: a (4e6 B, fwd 1 ms, bwd 2 ms), b (6e6 B, fwd 1 ms, bwd 3 ms). Optimizer 0.5 ms.
    // Buckets (default caps 1 MiB then 25 MiB, walked in reverse): bucket 0 = [b] (6e6 ≥ 1 MiB), bucket 1 = [a].
    // Ring all-reduce, P = 2: 2(P−1) = 2 steps of one chunk S/2 each → S / B: b = 6 ms, a = 4 ms.
    // overlap:   forward 0–2; backward b 2–5, a 5–7; bucket 0 ready at 5 → 5–11; bucket 1 ready at 7, stream busy → 11–15;
    //            optimizer 15–15.5. Step 15.5 ms; compute 2 + 5 + 0.5 = 7.5 ms; exposed comm 8 ms.
    // no overlap: both wait for the end of backward (7): bucket 0 7–13, bucket 1 13–17; optimizer 17–17.5. Step 17.5 ms.
    const L: LayerSpec[] = [
      { name: "a", paramBytes: 4e6, forwardMs: 1, backwardMs: 2 },
      { name: "b", paramBytes: 6e6, forwardMs: 1, backwardMs: 3 },
    ];
    const c = { alphaS: 0, bandwidthBytesPerS: 1e9 };
    const on = simulateDdpStep({ layers: L, numRanks: 2, cost: c, overlap: true, optimizerMs: 0.5 }).result;
    expect(on.buckets.map((b) => b.paramIndices)).toEqual([[1], [0]]);
    expect(on.buckets.map((b) => [b.readyMs, b.allReduceMs])).toEqual([[3, 6], [5, 4]]);
    expect(on.buckets.map((b) => [b.startMs, b.endMs])).toEqual([[5, 11], [11, 15]]);
    expect(on.stepTimeMs).toBeCloseTo(15.5, 12);
    expect(on.computeMs).toBeCloseTo(7.5, 12);
    expect(on.exposedCommMs).toBeCloseTo(8, 12);
    expect(on.commMs).toBeCloseTo(10, 12);
    const off = simulateDdpStep({ layers: L, numRanks: 2, cost: c, overlap: false, optimizerMs: 0.5 }).result;
    expect(off.buckets.map((b) => [b.startMs, b.endMs])).toEqual([[7, 13], [13, 17]]);
    expect(off.stepTimeMs).toBeCloseTo(17.5, 12);
  });

  it("simulateDdpStep emits compute and comm bars for every rank, all-reduces never before their bucket is ready", () => {
    const { result, events } = simulateDdpStep({ layers, numRanks: 3, cost, overlap: true, optimizerMs: 0.3, bucketCapBytes: 50e6 });
    expect(new Set(events.map((e) => e.rank))).toEqual(new Set([0, 1, 2]));
    const fwd = layers.reduce((s, l) => s + l.forwardMs, 0);
    result.buckets.forEach((b) => expect(b.startMs!).toBeGreaterThanOrEqual(fwd + b.readyMs - 1e-12));
    expect(events.filter((e) => e.rank === 0 && e.kind === "all-reduce")).toHaveLength(result.buckets.length);
    for (const e of events) expect(e.tEnd).toBeGreaterThanOrEqual(e.t);
  });

  it("an unused layer without find_unused_parameters stalls its bucket and every later one, with PyTorch's error", () => {
    const withUnused: LayerSpec[] = layers.map((l, i) => (i === 2 ? { ...l, used: false } : l));
    const { result } = simulateDdpStep({ layers: withUnused, numRanks: 4, cost, overlap: true, optimizerMs: 0.3 });
    expect(result.stepTimeMs).toBeNull();
    expect(result.error).toMatch(/block 2 received no gradient/);
    expect(result.error).toMatch(/find_unused_parameters=True/);
    const fixed = simulateDdpStep({ layers: withUnused, numRanks: 4, cost, overlap: true, optimizerMs: 0.3, findUnusedParameters: true, findUnusedTraversalMs: 0.05 }).result;
    expect(fixed.error).toBeUndefined();
    expect(fixed.stepTimeMs).toBeGreaterThan(0);
  });

  it("rejects P = 0 and bad layers", () => {
    expect(() => simulateDdpStep({ layers, numRanks: 0, cost, overlap: true, optimizerMs: 0 })).toThrow("numRanks must be an integer >= 1, got 0");
    expect(() => simulateDdpStep({ layers: [], numRanks: 2, cost, overlap: true, optimizerMs: 0 })).toThrow("layers must be a non-empty array");
    expect(() => simulateDdpStep({ layers, numRanks: 2, cost: { alphaS: 0, bandwidthBytesPerS: -1 }, overlap: true, optimizerMs: 0 })).toThrow(/bandwidthBytesPerS/);
  });
});

describe("simulateDataParallelStep", () => {
  const base = { layers, cost, inputBytes: 4e6, outputBytes: 2e6, lossMs: 0.1, optimizerMs: 0.3 };

  it("simulateDataParallelStep serialises scatter, replicate, forward, gather, loss, backward, reduce, optimizer (worked example, P = 2)", () => {
    const L: LayerSpec[] = [{ name: "a", paramBytes: 4e6, forwardMs: 1, backwardMs: 2 }];
    const c = { alphaS: 0, bandwidthBytesPerS: 1e9 };
    const { result } = simulateDataParallelStep({ layers: L, numRanks: 2, cost: c, inputBytes: 2e6, outputBytes: 2e6, lossMs: 0.5, optimizerMs: 0.25 });
    // scatter 1e6 B: 1 ms; broadcast 4e6 B: 4 ms; forward 1; gather 1; loss 0.5; scatter grads 1; backward 2; reduce 4; optimizer 0.25
    expect(result.stepTimeMs).toBeCloseTo(1 + 4 + 1 + 1 + 0.5 + 1 + 2 + 4 + 0.25, 9);
    expect(result.idleMsPerRank[1] - result.idleMsPerRank[0]).toBeCloseTo(0.75, 9); // loss and optimizer run on device 0 only
  });

  it("device 0 holds the optimizer states and the gathered outputs; the others do not", () => {
    const { result } = simulateDataParallelStep({ ...base, numRanks: 4 });
    const [d0, d1] = result.memoryPerRank;
    expect(d0.total - d1.total).toBe(d0.optimizerStates + base.outputBytes);
    expect(d1.optimizerStates).toBe(0);
  });

  it("DataParallel is slower than DDP on the same model and links (no overlap, replicate every step)", () => {
    for (const P of [2, 4, 8]) {
      const dp = simulateDataParallelStep({ ...base, numRanks: P }).result.stepTimeMs;
      const ddp = simulateDdpStep({ layers, numRanks: P, cost, overlap: true, optimizerMs: 0.3 }).result.stepTimeMs!;
      expect(dp).toBeGreaterThan(ddp);
    }
  });

  it("rejects negative input bytes", () => {
    expect(() => simulateDataParallelStep({ ...base, numRanks: 2, inputBytes: -1 })).toThrow("inputBytes must be a finite number >= 0, got -1");
  });
});
