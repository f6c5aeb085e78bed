import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { fp8Gemm, roundToBits } from "./fp8Gemm.js";
import { fp8AccumulationError } from "./fp8AccumulationError.js";
import { quantizeFp8 } from "./quantizeFp8.js";
import { quantizeTiles, type Fp8Tiles } from "./quantizeTiles.js";
import { perTensorTiles } from "./transposeTiles.js";
import { matmul } from "../../nn/matmul.js";

const one = (d: number[], r: number, c: number, s = 2): Fp8Tiles => ({ data: Float32Array.from(d), rows: r, cols: c, tileRows: r, tileCols: c, scale: Float32Array.of(s), scaleInv: Float32Array.of(1 / s), overflow: 0, underflow: 0 });
/** Dequantized values of a tiled operand, (rows, cols). */
const dequant = (t: Fp8Tiles) => t.data.map((v, i) => v * t.scaleInv[Math.floor(Math.floor(i / t.cols) / t.tileRows) * Math.ceil(t.cols / t.tileCols) + Math.floor((i % t.cols) / t.tileCols)]);

describe("fp8Gemm", () => {
  it("worked example: (2·6 + 4·8) · 0.5 · 0.5 = 11", () => {
    expect([...fp8Gemm(one([2, 4], 1, 2), one([6, 8], 2, 1))]).toEqual([11]);
  });

  it("with power-of-two scales and an fp32 accumulator it equals lib/nn's fp32 matmul of the dequantized operands (oracle), per tensor and per tile", () => {
    fc.assert(fc.property(fc.array(fc.float({ min: -100, max: 100, noNaN: true }), { minLength: 6 * 8, maxLength: 6 * 8 }), fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 8 * 5, maxLength: 8 * 5 }), (a, b) => {
        const A = quantizeTiles(Float32Array.from(a), 6, 8, { rows: 1, cols: 4 }, "fp8-e4m3"), B = quantizeTiles(Float32Array.from(b), 8, 5, { rows: 4, cols: 4 }, "fp8-e4m3");
        const got = fp8Gemm(A, B, { promoteEvery: 4 });
        // per k-block the products are exact and the scales powers of two, so the two sums differ only in the order of fp32 additions
        const want = matmul(dequant(A), dequant(B), { M: 6, K: 8, N: 5 });
        got.forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThanOrEqual(1e-5 * (1 + Math.abs(want[i]))));
        const P = perTensorTiles(quantizeFp8(Float32Array.from(a), 0.25, "fp8-e4m3"), 6, 8), Q = perTensorTiles(quantizeFp8(Float32Array.from(b), 64, "fp8-e4m3"), 8, 5);
        expect([...fp8Gemm(P, Q)]).toEqual([...matmul(dequant(P), dequant(Q), { M: 6, K: 8, N: 5 })]);
      }), { seed: 11, numRuns: 60 });
  });

  it("a 14-bit accumulator loses the small addends that fp32 keeps; promotion every 2 products keeps them", () => {
    const A = one([1024, 1, 1, 1], 1, 4, 1), B = one([1, 1, 1, 1], 4, 1, 1);
    expect(fp8Gemm(A, B)[0]).toBe(1027);
    expect(fp8Gemm(A, B, { accumulatorBits: 10 })[0]).toBe(1024); // each +1 is below half the spacing (2) at 1024: a tie, to even
    expect(fp8Gemm(A, B, { accumulatorBits: 10, promoteEvery: 2 })[0]).toBe(1026); // [1024+1 → 1024] then [1+1 = 2] in fp32
  });

  it("refuses inconsistent shapes, tiles that do not nest the k-blocks, and bad options", () => {
    expect(() => fp8Gemm(one([1, 2], 1, 2), one([1, 2, 3], 3, 1))).toThrow(/A has 2 columns but B has 3 rows/);
    const A = quantizeTiles(new Float32Array(8).fill(1), 1, 8, { rows: 1, cols: 2 }, "fp8-e4m3");
    expect(() => fp8Gemm(A, one(new Array(8).fill(1), 8, 1), { promoteEvery: 4 })).toThrow(/A's tiles of 2 columns do not nest the k-blocks of promoteEvery = 4/);
    expect(() => fp8Gemm(one([1], 1, 1), one([1], 1, 1), { accumulatorBits: 30 })).toThrow(/accumulatorBits must be an integer in \[2, 24\], got 30/);
    expect(() => fp8Gemm(one([1], 1, 1), one([1], 1, 1), { promoteEvery: 0 })).toThrow(/promoteEvery must be an integer >= 1, got 0/);
  });
});

describe("roundToBits", () => {
  it("rounds to nearest even or toward zero at the given significant bits", () => {
    expect(roundToBits(1 + 2 ** -14, 14)).toBe(1);
    expect(roundToBits(1 + 3 * 2 ** -14, 14)).toBe(1 + 2 ** -12);
    expect(roundToBits(-(1 + 3 * 2 ** -14), 14, "toward-zero")).toBe(-(1 + 2 ** -13));
    expect(roundToBits(0, 14)).toBe(0);
  });
  it("with 24 bits it is float32's rounding (property)", () => {
    fc.assert(fc.property(fc.double({ min: -1e30, max: 1e30, noNaN: true }), (x) => { if (Math.abs(x) > 1e-30) expect(roundToBits(x, 24)).toBe(Math.fround(x)); }), { seed: 3, numRuns: 1000 });
  });
});

describe("fp8AccumulationError", () => {
  it("a 14-bit accumulator's error grows with K; promotion every 128 keeps it below the 14-bit error at K = 128; fp32 stays near 2^-24·K", () => {
    const pts = fp8AccumulationError([128, 1024, 4096], { m: 4 });
    expect(pts.map((p) => p.k)).toEqual([128, 1024, 4096]);
    expect(pts[2].limited).toBeGreaterThan(pts[0].limited);
    expect(pts[0].promoted).toBe(pts[0].limited); // K = 128: one block, nothing promoted yet
    for (const p of pts) { expect(p.promoted).toBeLessThanOrEqual(pts[0].limited * 1.5); expect(p.fp32).toBeLessThan(1e-5); }
  });
  it("DeepSeek-V3 measured a maximum relative error of nearly 2% at K = 4096 on H800: round-to-nearest and truncating 14-bit models bracket it", () => {
    const [nearest] = fp8AccumulationError([4096], { m: 4 }), [trunc] = fp8AccumulationError([4096], { m: 4, rounding: "toward-zero" });
    expect(nearest.limited).toBeLessThan(0.02);
    expect(trunc.limited).toBeGreaterThan(0.02);
  });
  it("names a bad K", () => expect(() => fp8AccumulationError([0])).toThrow(/ks must be integers >= 1, got 0/));
});
