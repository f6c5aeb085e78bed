import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { outlierFactor, scaleColumn, scaleRow } from "./outlierChannel.js";
import { matmul } from "../../nn/matmul.js";

const o = { weight: "blocks.0.W1", channel: 1, log2Factor: 6, period: 10 };

describe("outlierChannel", () => {
  it("the factor is 2^k at steps period − 1, 2·period − 1, …, else 1; none without an outlier", () => {
    expect([8, 9, 10, 19].map((s) => outlierFactor(o, s))).toEqual([1, 64, 1, 64]);
    expect(outlierFactor({ ...o, period: undefined }, 3)).toBe(64);
    expect(outlierFactor(undefined, 3)).toBe(1);
  });

  it("names bad settings", () => {
    expect(() => outlierFactor({ ...o, log2Factor: 0 }, 0)).toThrow(/outlier.log2Factor must be an integer in \[1, 60\], got 0/);
    expect(() => outlierFactor({ ...o, period: 0 }, 0)).toThrow(/outlier.period must be an integer >= 1, got 0/);
    expect(() => outlierFactor({ ...o, channel: -1 }, 0)).toThrow(/outlier.channel must be an integer >= 0, got -1/);
    expect(() => scaleColumn(new Float32Array(4), 2, 2, 2, 2)).toThrow(/col must be an integer in \[0, 2\), got 2/);
    expect(() => scaleRow(new Float32Array(4), 2, 2, 2)).toThrow(/row must be an integer in \[0, 2\), got 2/);
  });

  it("worked example: a column times 8, a row halved; the inputs are not modified", () => {
    const a = Float32Array.of(1, 2, 3, 4);
    expect([...scaleColumn(a, 2, 2, 1, 8)]).toEqual([1, 16, 3, 32]);
    expect([...scaleRow(a, 2, 0, 0.5)]).toEqual([0.5, 1, 3, 4]);
    expect([...a]).toEqual([1, 2, 3, 4]);
  });

  it("property: moving 2^k from a weight row into the input column leaves the fp32 product bit for bit unchanged (normal float32 values)", () => {
    fc.assert(fc.property(fc.array(fc.float({ min: -10, max: 10, noNaN: true }), { minLength: 12, maxLength: 12 }), fc.array(fc.float({ min: -10, max: 10, noNaN: true }), { minLength: 8, maxLength: 8 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 12 }),
      (x, w, c, k) => {
        const normal = (v: number) => (Math.abs(v) < 1e-30 ? 0 : v); // float32 subnormals would lose bits when divided by F
        const X = Float32Array.from(x, normal), W = Float32Array.from(w, normal), F = 2 ** k; // X (3, 4), W (4, 2)
        const y = matmul(X, W, { M: 3, K: 4, N: 2 }), y2 = matmul(scaleColumn(X, 3, 4, c, F), scaleRow(W, 2, c, 1 / F), { M: 3, K: 4, N: 2 });
        expect([...y2]).toEqual([...y]);
      }), { seed: 15, numRuns: 200 });
  });
});
