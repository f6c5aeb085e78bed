import { describe, expect, it } from "vitest";
import { collectiveCost } from "../collectives/index.js";
import { transformerLayerTime, type Roofline } from "../perf/index.js";
import { tpCollectiveTime } from "./index.js";

const a100: Roofline = { peakFlops: 312e12, matmulEfficiency: 271.2 / 312, attentionEfficiency: 0.5, hbmBytesPerS: 2.039e12 * 0.9, numSMs: 108 };
const shape = { hiddenSize: 8192, numHeads: 64, numKvHeads: 8, headDim: 128, intermediateSize: 28672, gated: true, rotary: true, dropout: false };
const layer = (T: number, sp = false) => transformerLayerTime(shape, { microBatch: 1, seqLen: 4096, tensorParallel: T, sequenceParallel: sp, attention: "flash", bytesPerElement: 2 }, a100).linears;
const link = { alphaS: 5e-6, bandwidthBytesPerS: 240e9 };
const base = { tokens: 4096, hiddenSize: 8192, sequenceParallel: false, fullRecompute: false, link, bytesPerElement: 2, tpBackwardOverlap: false, tpCommOverlap: false };
const AR = (T: number) => collectiveCost("ring-all-reduce", 4096 * 8192, T, link, 2).timeS;

describe("tpCollectiveTime", () => {
  it("worked example, no overlap: four ring all-reduces of the (4096, 8192) activation on T = 8; full recomputation makes it six", () => {
    expect(tpCollectiveTime(layer(8), { ...base, T: 8 })).toEqual({ exposedS: 4 * AR(8), hiddenS: 0 });
    expect(tpCollectiveTime(layer(8), { ...base, T: 8, fullRecompute: true }).exposedS).toBeCloseTo(6 * AR(8), 12);
    expect(tpCollectiveTime(layer(1), { ...base, T: 1 })).toEqual({ exposedS: 0, hiddenS: 0 });
  });
  it("the backward all-reduce of each column-parallel layer hides behind its weight-gradient GEMM, up to that GEMM's length", () => {
    const L = layer(8);
    const r = tpCollectiveTime(L, { ...base, T: 8, tpBackwardOverlap: true });
    expect(r.hiddenS).toBeCloseTo(Math.min(AR(8), L.qkv.weightGradS) + Math.min(AR(8), L.fc1.weightGradS), 12);
    expect(r.exposedS + r.hiddenS).toBeCloseTo(4 * AR(8), 12);
  });
  it("sequence parallelism: the same bytes in all-gathers and reduce-scatters, plus the re-gather of the input for the weight gradient", () => {
    const ag = collectiveCost("all-gather", 4096 * 8192, 8, link, 2).timeS, rs = collectiveCost("reduce-scatter", 4096 * 8192, 8, link, 2).timeS;
    const r = tpCollectiveTime(layer(8, true), { ...base, T: 8, sequenceParallel: true });
    expect(r.exposedS).toBeCloseTo(2 * (ag + rs) + 2 * (2 * ag + rs), 12);
  });
  it("with T above the KV heads Megatron all-gathers the QKV activation and reduce-scatters its gradient, both exposed", () => {
    const n = 4096 * (64 + 2 * 8) * 128;
    const without = tpCollectiveTime(layer(16), { ...base, T: 16 }), withQkv = tpCollectiveTime(layer(16), { ...base, T: 16, qkvElements: n });
    expect(withQkv.exposedS - without.exposedS).toBeCloseTo(collectiveCost("all-gather", n, 16, link, 2).timeS + collectiveCost("reduce-scatter", n, 16, link, 2).timeS, 12);
  });
  it("names a bad T", () => {
    expect(() => tpCollectiveTime(layer(1), { ...base, T: 0 })).toThrow(/^T must be an integer >= 1, got 0$/);
  });
});
