import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { crossEntropy, crossEntropyBackward, mulberry32, gaussian } from "../nn/index.js";
import { TpComm } from "./comm.js";
import { vocabParallelCrossEntropy } from "./vocabParallelCrossEntropy.js";
import { splitColumns, concatColumns } from "./shard.js";

describe("vocabParallelCrossEntropy", () => {
  it("worked example: two equal logits on two ranks give log 2", () => {
    expect(vocabParallelCrossEntropy(new TpComm(2), [Float32Array.of(0), Float32Array.of(0)], Int32Array.of(1)).loss).toBeCloseTo(Math.log(2), 7);
  });

  it("equals lib/nn's cross-entropy on the gathered logits, loss and gradient, with 3 all-reduces of N numbers (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 5 }), fc.integer(), (T, N, c, seed) => {
      const rng = mulberry32(seed), V = c * T;
      const logits = Float32Array.from({ length: N * V }, () => 5 * gaussian(rng));
      const targets = Int32Array.from({ length: N }, () => Math.floor(rng() * V));
      const comm = new TpComm(T, undefined, 4);
      const r = vocabParallelCrossEntropy(comm, splitColumns(logits, N, V, T), targets);
      const ref = crossEntropy({ data: logits, rows: N, cols: V }, targets);
      expect(Math.abs(r.loss - ref.loss)).toBeLessThanOrEqual(1e-5 * (1 + ref.loss));
      const dref = crossEntropyBackward(ref.probs, targets, V, 1 / N, "fp32").data;
      const d = concatColumns(r.dlogits, N);
      for (let i = 0; i < d.length; i++) expect(Math.abs(d[i] - dref[i])).toBeLessThanOrEqual(1e-6);
      expect(comm.log.map((l) => `${l.op}:${l.elements}`)).toEqual(T === 1 ? [] : [`ce-max:${N}`, `ce-target:${N}`, `ce-sumexp:${N}`]);
    }));
  });

  it("is stable for huge logits (the max is subtracted on every rank)", () => {
    const r = vocabParallelCrossEntropy(new TpComm(2), [Float32Array.of(1e30, 0), Float32Array.of(1e30, 0)], Int32Array.of(0));
    expect(r.loss).toBeCloseTo(Math.log(2), 6);
  });

  it("names bad input", () => {
    expect(() => vocabParallelCrossEntropy(new TpComm(2), [Float32Array.of(0)], Int32Array.of(0))).toThrow("logitShards must hold one (N, V/T) slice per rank (T = 2), got 1");
    expect(() => vocabParallelCrossEntropy(new TpComm(2), [Float32Array.of(0, 0), Float32Array.of(0, 0)], Int32Array.of(4))).toThrow("targets[0] = 4 is outside the vocabulary [0, 4)");
  });
});
