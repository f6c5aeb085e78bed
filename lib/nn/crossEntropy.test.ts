import { describe, expect, it } from "vitest";
import { crossEntropy, crossEntropyBackward, IGNORE_INDEX } from "./crossEntropy.js";

describe("crossEntropy", () => {
  it("crossEntropy of equal logits is ln V per token", () => {
    const r = crossEntropy({ data: new Float32Array(2 * 4), rows: 2, cols: 4 }, Int32Array.of(0, 3));
    expect(r.loss).toBeCloseTo(Math.log(4), 12);
    expect(r.lossSum).toBeCloseTo(2 * Math.log(4), 12);
  });
  it("crossEntropy matches −log softmax for logits [1, 2, 3], target 2 (hand computed)", () => {
    const r = crossEntropy({ data: Float32Array.of(1, 2, 3), rows: 1, cols: 3 }, Int32Array.of(2));
    expect(r.loss).toBeCloseTo(Math.log(Math.exp(1) + Math.exp(2) + Math.exp(3)) - 3, 6);
  });
  it("crossEntropy is stable for large logits (1000, 0)", () => {
    expect(crossEntropy({ data: Float32Array.of(1000, 0), rows: 1, cols: 2 }, Int32Array.of(1)).loss).toBeCloseTo(1000, 6);
  });
  it("crossEntropy skips IGNORE_INDEX rows; all ignored gives NaN mean and 0 count, as PyTorch", () => {
    const r = crossEntropy({ data: Float32Array.of(0, 0, 5, 0), rows: 2, cols: 2 }, Int32Array.of(1, IGNORE_INDEX));
    expect(r.tokenCount).toBe(1);
    expect(r.loss).toBeCloseTo(Math.log(2), 12);
    const none = crossEntropy({ data: Float32Array.of(0, 0), rows: 1, cols: 2 }, Int32Array.of(IGNORE_INDEX));
    expect(none.tokenCount).toBe(0);
    expect(none.loss).toBeNaN();
  });
  it("crossEntropy rejects a target out of range", () => {
    expect(() => crossEntropy({ data: Float32Array.of(0, 0), rows: 1, cols: 2 }, Int32Array.of(2))).toThrow(/targets\[0\] must be an integer in \[0, 2\) or -100, got 2/);
  });
  it("crossEntropyBackward gives scale·(p − onehot) and zero on ignored rows", () => {
    const d = crossEntropyBackward(Float32Array.of(0.25, 0.75, 0.5, 0.5), Int32Array.of(1, IGNORE_INDEX), 2, 0.5, "fp32");
    expect(Array.from(d.data)).toEqual([0.125, -0.125, 0, 0]);
  });
});
