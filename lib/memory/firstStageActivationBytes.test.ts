import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { firstStageActivationBytes, inFlightChunks } from "./firstStageActivationBytes.js";
import { activationBytes } from "./activationBytes.js";
import { gpipeSchedule, interleavedSchedule, oneFOneBSchedule, peakInFlight } from "../pipeline-parallel/index.js";

// Korthikanti et al. 2022, Table 3 (s = 2048 for every run, §6): heads, hidden, layers, t, p, GPUs, global batch, micro-batch.
const TABLE3 = {
  "22B": { a: 64, h: 6144, L: 48, t: 8, p: 1, globalBatch: 4, b: 4 },
  "175B": { a: 96, h: 12288, L: 96, t: 8, p: 8, globalBatch: 64, b: 1 },
  "530B": { a: 128, h: 20480, L: 105, t: 8, p: 35, globalBatch: 280, b: 1 },
  "1T": { a: 160, h: 25600, L: 128, t: 8, p: 64, globalBatch: 512, b: 1 },
} as const;
const s = 2048;
/** Eq. 5 in exact integers: sbhL/t·(34 + 5as/h) = (34·sbhL + 5·a·s²·b·L)/t. */
const eq5 = (r: { a: number; h: number; L: number; t: number; b: number }) => (34 * s * r.b * r.h * r.L + 5 * r.a * s * s * r.b * r.L) / r.t;

describe("firstStageActivationBytes against Korthikanti et al. 2022 §4.2.3", () => {
  it.each(Object.entries(TABLE3))("%s (Table 3), 1F1B with m = global batch / b ≥ p micro-batches: Eq. 5, L layers whatever p", (_, r) => {
    const m = r.globalBatch / r.b; // no data parallelism in Table 3
    const got = firstStageActivationBytes({ seqLen: s, microBatch: r.b, hiddenSize: r.h, numHeads: r.a, numLayers: r.L, tensorParallel: r.t, sequenceParallel: true, pipelineParallel: r.p, microBatches: m });
    expect(got).toBe(eq5(r));
  });

  it("GPT-3 175B with the interleaved schedule of §6 (three chunks per stage): Eq. 5 × (1 + (p − 1)/(p·v)) (worked example)", () => {
    const r = TABLE3["175B"];
    const got = firstStageActivationBytes({ seqLen: s, microBatch: 1, hiddenSize: r.h, numHeads: r.a, numLayers: r.L, tensorParallel: 8, sequenceParallel: true, pipelineParallel: 8, microBatches: 64, schedule: "interleaved", virtualStages: 3 });
    expect(got).toBe((eq5(r) * (24 + 7)) / 24);
    expect(got).toBe(44_468_011_008);
  });

  it("selective recomputation: Eq. 6, 34·sbhL/t", () => {
    const r = TABLE3["530B"];
    expect(firstStageActivationBytes({ seqLen: s, microBatch: 1, hiddenSize: r.h, numHeads: r.a, numLayers: r.L, tensorParallel: 8, sequenceParallel: true, recompute: "selective", pipelineParallel: 35, microBatches: 280 }))
      .toBe((34 * s * r.h * r.L) / 8);
  });

  it("fewer micro-batches than stages: m·L/p layers under 1F1B; GPipe keeps m·L/p for every m", () => {
    const base = { seqLen: 16, microBatch: 1, hiddenSize: 8, numHeads: 2, numLayers: 8 };
    const one = activationBytes({ ...base, numLayers: 1 });
    expect(firstStageActivationBytes({ ...base, pipelineParallel: 4, microBatches: 2 })).toBe(2 * 2 * one);
    expect(firstStageActivationBytes({ ...base, pipelineParallel: 4, microBatches: 16, schedule: "gpipe" })).toBe(16 * 2 * one);
    expect(firstStageActivationBytes({ ...base, pipelineParallel: 1, microBatches: 16 })).toBe(8 * one); // p = 1: one micro-batch at a time
    expect(firstStageActivationBytes({ ...base })).toBe(activationBytes(base)); // defaults: p = 1
  });

  it("inFlightChunks equals the peak measured from lib/pipeline-parallel's events on stage 0, for random p, m, v (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 4 }), (p, m, v) => {
      const L = p * v * 2;
      expect(inFlightChunks({ numLayers: L, pipelineParallel: p, microBatches: m, schedule: "gpipe" })).toBe(peakInFlight(gpipeSchedule(p, m))[0]);
      expect(inFlightChunks({ numLayers: L, pipelineParallel: p, microBatches: m })).toBe(peakInFlight(oneFOneBSchedule(p, m))[0]);
      const mi = m * p; // the interleaved schedule needs m a multiple of p
      if (v >= 2) expect(inFlightChunks({ numLayers: L, pipelineParallel: p, microBatches: mi, schedule: "interleaved", virtualStages: v })).toBeCloseTo(peakInFlight(interleavedSchedule(p, mi, v))[0] * v, 9);
    }), { numRuns: 60 });
  });

  it.each([
    [{ numLayers: 32, pipelineParallel: 4, microBatches: 6, schedule: "interleaved" as const }, "microBatches (6) must be a multiple of pipelineParallel (4) for the interleaved schedule"],
    [{ numLayers: 32, pipelineParallel: 3 }, "pipelineParallel (3) must divide numLayers (32)"],
    [{ numLayers: 32, pipelineParallel: 4, microBatches: 8, schedule: "interleaved" as const, virtualStages: 3 }, "pipelineParallel × virtualStages (12) must divide numLayers (32)"],
    [{ numLayers: 32, virtualStages: 2 }, 'virtualStages (2) needs schedule "interleaved"'],
    [{ numLayers: 32, microBatches: 0 }, "microBatches must be an integer >= 1, got 0"],
    [{ numLayers: 32, schedule: "zb" as never }, 'schedule must be gpipe, 1f1b or interleaved, got "zb"'],
  ])("rejects %j naming the field", (o, msg) => {
    expect(() => inFlightChunks(o)).toThrow(msg);
  });
});
