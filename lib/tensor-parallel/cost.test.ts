import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { tpCommPerLayer, tpTimePerLayer, NVLINK_A100 } from "./cost.js";
import { collectiveCost } from "../collectives/index.js";

describe("tpCommPerLayer", () => {
  it("worked example: 4 tokens × h 2, T = 2, fp32: two all-reduces each way of 2·1·8·4 = 64 bytes", () => {
    expect(tpCommPerLayer({ tokens: 4, hiddenSize: 2, T: 2, bytesPerElement: 4 })).toEqual([
      { pass: "forward", collective: "all-reduce", count: 2, elements: 8, bytesTotal: 128, bytesPerRank: 64 },
      { pass: "backward", collective: "all-reduce", count: 2, elements: 8, bytesTotal: 128, bytesPerRank: 64 },
    ]);
  });
  it("per rank, each all-reduce sends 2(T−1)/T·n·b bytes, as lib/collectives' ring cost; sequence parallelism's forward sends the same (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 16 }), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 64 }), (T, k, h) => {
      const tokens = k * T, n = tokens * h;
      const plain = tpCommPerLayer({ tokens, hiddenSize: h, T, bytesPerElement: 2 });
      expect(plain[0].bytesTotal).toBe(2 * collectiveCost("ring-all-reduce", n, T, NVLINK_A100, 2).totalBytes);
      const sp = tpCommPerLayer({ tokens, hiddenSize: h, T, sequenceParallel: true, bytesPerElement: 2 });
      const fwd = (r: typeof sp) => r.filter((x) => x.pass === "forward").reduce((s, x) => s + x.bytesPerRank, 0);
      expect(fwd(sp)).toBeCloseTo(fwd(plain), 6);
      // backward: one extra all-gather per region (Megatron re-gathers the sharded input for dW)
      const bwd = (r: typeof sp) => r.filter((x) => x.pass === "backward").reduce((s, x) => s + x.bytesTotal, 0);
      expect(bwd(sp) - bwd(plain)).toBe(2 * (T - 1) * n * 2);
    }));
  });
  it("T = 1 communicates nothing; bad input names the field", () => {
    expect(tpCommPerLayer({ tokens: 3, hiddenSize: 2, T: 1 })).toEqual([]);
    expect(() => tpCommPerLayer({ tokens: 0, hiddenSize: 2, T: 1 })).toThrow("tokens must be an integer >= 1, got 0");
    expect(() => tpCommPerLayer({ tokens: 3, hiddenSize: 2, T: 2, sequenceParallel: true })).toThrow("tokens (3) must be divisible by T (2) with sequence parallelism");
  });
});

describe("tpTimePerLayer", () => {
  const base = { seqLen: 2048, microBatch: 1, hiddenSize: 8192 };
  it("T = 1 has no communication; its compute is 72bsh²(1 + s/6h) FLOPs at 312 TFLOP/s", () => {
    const r = tpTimePerLayer({ ...base, T: 1 });
    expect(r.commS).toBe(0);
    expect(r.computeS).toBeCloseTo((72 * 2048 * 8192 ** 2 * (1 + 2048 / (6 * 8192))) / 312e12, 12);
  });
  it("a group of 16 crosses nodes and is slower per layer than 8 inside a node", () => {
    const t8 = tpTimePerLayer({ ...base, T: 8 }), t16 = tpTimePerLayer({ ...base, T: 16 });
    expect(t8.crossesNodes).toBe(false);
    expect(t16.crossesNodes).toBe(true);
    expect(t16.totalS).toBeGreaterThan(t8.totalS);
  });
  it("names the bad field", () => {
    expect(() => tpTimePerLayer({ ...base, seqLen: 0, T: 1 })).toThrow("seqLen must be an integer >= 1, got 0");
    expect(() => tpTimePerLayer({ ...base, T: 2, gpusPerNode: 0 })).toThrow("gpusPerNode must be an integer >= 1, got 0");
  });
});
