import { describe, expect, it } from "vitest";
import { clipGradNorm, compareClipOrder } from "./clipGradNorm.js";

describe("clipGradNorm", () => {
  it("clipGradNorm([3, 4], 1) scales to norm ≈ 1 with PyTorch's 1e-6 in the coefficient", () => {
    const r = clipGradNorm([Float32Array.of(3, 4)], 1);
    expect(r.totalNorm).toBe(5);
    expect(r.clipCoef).toBe(Math.fround(1 / (5 + 1e-6)));
    expect(r.grads[0]![0]).toBeCloseTo(0.6, 6);
  });

  it("clipGradNorm leaves gradients below maxNorm unchanged (coef clamped to 1)", () => {
    const r = clipGradNorm([Float32Array.of(0.3), Float32Array.of(0.4)], 1);
    expect(r.clipCoef).toBe(1);
    expect([...r.grads[0]!, ...r.grads[1]!]).toEqual([Math.fround(0.3), Math.fround(0.4)]);
    expect(() => clipGradNorm([], 0)).toThrow(/maxNorm must be a positive finite number, got 0/);
  });

  it("compareClipOrder: clipping scaled gradients shrinks a norm-0.5 gradient to 1/scale instead of leaving it", () => {
    const scale = 65536;
    const c = compareClipOrder([Float32Array.of(0.3 * scale, 0.4 * scale)], scale, 1);
    expect(c.trueNorm).toBeCloseTo(0.5, 6);
    expect(c.scaledNorm).toBeCloseTo(0.5 * scale, 0);
    expect(c.right.norm).toBeCloseTo(0.5, 6); // not clipped: 0.5 < 1
    expect(c.wrong.norm).toBeCloseTo(1 / scale, 9); // clipped to 1 while scaled, then divided by the scale
  });
});
