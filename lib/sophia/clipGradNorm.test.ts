import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { clipGradNorm } from "./clipGradNorm.js";
import type { Param } from "../nn/index.js";

const param = (name: string, g: number[]): Param => ({ name, shape: [g.length], data: new Float32Array(g.length), grad: Float32Array.from(g) });

describe("clipGradNorm (torch.nn.utils.clip_grad_norm_)", () => {
  it("hand example: the norm of (3, 4) over two params is 5; scaled by 1 / (5 + 1e-6)", () => {
    const a = param("a", [3]), b = param("b", [4]);
    expect(clipGradNorm([a, b], 1)).toBe(5);
    expect(a.grad[0]).toBeCloseTo(0.6, 6);
    expect(b.grad[0]).toBeCloseTo(0.8, 6);
  });
  it("a norm below maxNorm leaves the gradients bit-identical (coefficient clamped to 1)", () => {
    const a = param("a", [0.3, -0.4]);
    expect(clipGradNorm([a], 1)).toBeCloseTo(0.5, 7);
    expect(Array.from(a.grad)).toEqual([Math.fround(0.3), Math.fround(-0.4)]);
  });
  it("property: afterwards the norm is min(before, maxNorm) within float32 rounding, and directions are kept", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 2000 }), (ints, mn) => {
      const g = ints.map((v) => v / 100), maxNorm = mn / 100, p = param("w", g);
      const before = clipGradNorm([p], maxNorm);
      const after = Math.hypot(...p.grad);
      const sameSign = Array.from(p.grad).every((v, i) => Math.sign(v) === Math.sign(Math.fround(g[i]!)));
      return sameSign && Math.abs(after - Math.min(before, maxNorm)) <= 1e-5 * (1 + maxNorm);
    }));
  });
  it("bad input names the field; nothing is scaled on a non-finite gradient", () => {
    expect(() => clipGradNorm([param("w", [1])], 0)).toThrow(/maxNorm must be a finite number > 0, got 0/);
    const a = param("a", [10]), b = param("w", [1, NaN]);
    expect(() => clipGradNorm([a, b], 1)).toThrow(/grad of w\[1\] must be finite, got NaN/);
    expect(a.grad[0]).toBe(10);
  });
});
