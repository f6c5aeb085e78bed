import { describe, expect, it } from "vitest";
import { trainFp8, fp8TrainingSteps } from "./trainFp8.js";
import { train, corpus } from "../../nn/index.js";
import { trainQuantized } from "../../precision/trainQuantized.js";

const steps = 25, mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;

describe("trainFp8", () => {
  it("its fp32 baseline is lib/nn's train and its bf16 baseline lib/precision's trainQuantized, bit for bit (oracles)", () => {
    expect(trainFp8({ precision: "fp32", steps: 5 }).losses).toEqual(train({ steps: 5, batchSize: 4, seqLen: 16 }).losses);
    expect(trainFp8({ precision: "bf16", steps: 5 }).losses).toEqual(trainQuantized({ format: "bf16", steps: 5 }).losses);
  });

  it("FP8 training (delayed, current, block-wise) learns: the loss falls below ln V and ends near bf16's", () => {
    const lnV = Math.log(corpus().vocab.size), bf16 = mean(trainFp8({ precision: "bf16", steps }).losses.slice(-5));
    for (const precision of [{ kind: "delayed" }, { kind: "current" }, { kind: "blockwise", blockSize: 16 }] as const) {
      const { losses } = trainFp8({ precision, steps });
      expect(losses[0]).toBeGreaterThan(lnV - 0.2);
      expect(mean(losses.slice(-5))).toBeLessThan(lnV - 0.5);
      expect(Math.abs(mean(losses.slice(-5)) - bf16)).toBeLessThan(0.1);
    }
  });

  it("runs the GEMMs of every linear weight but the head in FP8 and reports their tensors each step", () => {
    const [r] = [...fp8TrainingSteps({ precision: { kind: "delayed" }, steps: 1 })];
    const weights = [...new Set(r.tensors.map((t) => t.tensor.split(":")[0]))];
    expect(weights.sort()).toEqual(["blocks.0.W1", "blocks.0.W2", "blocks.1.W1", "blocks.1.W2", "proj.W"]);
    expect(r.tensors.length).toBe(15);
    expect(trainFp8({ precision: { kind: "delayed" }, steps: 1, fp8Weights: ["proj.W"] }).records[0].tensors.length).toBe(3);
  });

  it("records each FP8 forward GEMM's error against fp32 when asked", () => {
    const { records } = trainFp8({ precision: { kind: "current" }, steps: 2, measureError: true });
    expect(Object.keys(records[1].forwardError).sort()).toEqual(["blocks.0.W1", "blocks.0.W2", "blocks.1.W1", "blocks.1.W2", "proj.W"]);
    for (const e of Object.values(records[1].forwardError)) { expect(e).toBeGreaterThan(0); expect(e).toBeLessThan(0.1); }
  });

  it("names bad options", () => {
    expect(() => trainFp8({ precision: "bf16", steps: 0 })).toThrow(/steps must be an integer >= 1, got 0/);
    expect(() => trainFp8({ precision: { kind: "delayed" }, steps: 1, fp8Weights: ["x.W"] })).toThrow(/fp8Weights must name linear weights of the model, got "x.W"/);
    expect(() => trainFp8({ precision: "fp16" as never, steps: 1 })).toThrow(/precision must be "fp32", "bf16" or an FP8 scaling, got "fp16"/);
  });
});
