import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { quantizeTiles } from "./quantizeTiles.js";
import { quantizeFp8 } from "./quantizeFp8.js";
import { scaleFromAmax } from "./scaleFromAmax.js";
import { perTensorTiles, transposeTiles } from "./transposeTiles.js";

describe("quantizeTiles", () => {
  it("worked example: one power-of-two scale per 1 × 2 tile", () => {
    const t = quantizeTiles(Float32Array.of(1, 2, 300, 600), 2, 2, { rows: 1, cols: 2 }, "fp8-e4m3");
    expect([...t.scale]).toEqual([128, 0.5]);
    expect([...t.scaleInv]).toEqual([1 / 128, 2]);
    expect([...t.data]).toEqual([128, 256, 144, 288]); // 300 · 0.5 = 150 → 144 (E4M3: spacing 16 in [128, 256))
  });

  it("edge tiles are smaller; a 2D block covers both directions", () => {
    const v = Float32Array.from({ length: 15 }, (_, i) => i + 1); // (3, 5)
    const t = quantizeTiles(v, 3, 5, { rows: 2, cols: 2 }, "fp8-e4m3");
    expect(t.scale.length).toBe(2 * 3);
    expect(t.scale[5]).toBe(scaleFromAmax(15, 448, { powerOf2Scales: true })); // the 1 × 1 corner tile holds 15
  });

  it("a 1 × cols tile is per-row current scaling: each row equals quantizeFp8 with its own scale (oracle)", () => {
    const v = Float32Array.of(0.01, -0.02, 0.03, 5, -70, 1);
    const t = quantizeTiles(v, 2, 3, { rows: 1, cols: 3 }, "fp8-e5m2", { powerOf2Scales: false });
    for (const r of [0, 1]) {
      const row = v.subarray(r * 3, r * 3 + 3), amax = Math.max(...[...row].map(Math.abs));
      expect([...t.data.subarray(r * 3, r * 3 + 3)]).toEqual([...quantizeFp8(row, scaleFromAmax(amax, 57344), "fp8-e5m2").data]);
    }
  });

  it("an outlier only costs its own tile: per tile only its neighbour underflows, per tensor all small values do", () => {
    const v = Float32Array.of(1e-3, 1e-3, 1e-3, 1e6); // (1, 4)
    expect(quantizeTiles(v, 1, 4, { rows: 1, cols: 2 }, "fp8-e4m3").underflow).toBe(1);
    expect(quantizeTiles(v, 1, 4, { rows: 1, cols: 4 }, "fp8-e4m3").underflow).toBe(3);
  });

  it("names bad input", () => {
    expect(() => quantizeTiles(new Float32Array(5), 2, 3, { rows: 1, cols: 1 }, "fp8-e4m3")).toThrow(/values must hold rows · cols = 6 elements, got 5/);
    expect(() => quantizeTiles(new Float32Array(6), 2, 3, { rows: 0, cols: 1 }, "fp8-e4m3")).toThrow(/tile.rows must be an integer >= 1, got 0/);
  });

  it("property: online scales never overflow, whatever the tile", () => {
    fc.assert(fc.property(fc.array(fc.float({ min: Math.fround(-1e20), max: Math.fround(1e20), noNaN: true }), { minLength: 12, maxLength: 12 }), fc.constantFrom([1, 4], [3, 1], [2, 2], [3, 4]),
      (xs, [tr, tc]) => { expect(quantizeTiles(Float32Array.from(xs), 3, 4, { rows: tr, cols: tc }, "fp8-e4m3").overflow).toBe(0); }), { seed: 9, numRuns: 300 });
  });

  it("transposeTiles moves each element with its tile's scale; perTensorTiles is one tile", () => {
    const t = quantizeTiles(Float32Array.of(1, 2, 3, 400, 500, 600), 2, 3, { rows: 1, cols: 3 }, "fp8-e4m3");
    const tt = transposeTiles(t);
    expect([tt.rows, tt.cols, tt.tileRows, tt.tileCols]).toEqual([3, 2, 3, 1]);
    for (let r = 0; r < 2; r++) for (let c = 0; c < 3; c++) {
      expect(tt.data[c * 2 + r]).toBe(t.data[r * 3 + c]);
      expect(tt.scaleInv[Math.floor(c / tt.tileRows) * 2 + r]).toBe(t.scaleInv[r]);
    }
    const p = perTensorTiles(quantizeFp8(Float32Array.of(1, 2), 4, "fp8-e4m3"), 1, 2);
    expect([...p.scaleInv]).toEqual([0.25]);
    expect(() => perTensorTiles(quantizeFp8(Float32Array.of(1, 2), 4, "fp8-e4m3"), 2, 2)).toThrow(/q must hold rows · cols = 4 values, got 2/);
  });
});
