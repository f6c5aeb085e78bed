import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { flattenResult, isGlBackend, toVec4Views } from "./vec4.js";

describe("vec4 packing", () => {
  it("toVec4Views(a) gives views of four values, zero-padding a ragged tail (the stub's example)", () => {
    const v = toVec4Views(Float32Array.of(1, 2, 3, 4, 5));
    expect(v.map((x) => Array.from(x))).toEqual([[1, 2, 3, 4], [5, 0, 0, 0]]);
    expect(toVec4Views(new Float32Array(0))).toEqual([]);
  });

  it("flattenResult reads nested texels and raw texture output, and says when values are missing", () => {
    expect(Array.from(flattenResult([Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8)], 6))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Array.from(flattenResult([[Float32Array.of(1, 2, 3, 4)], [Float32Array.of(5, 6, 7, 8)]], 8))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const texture = { renderRawOutput: () => Float32Array.of(9, 8, 7, 6, 0, 0, 0, 0) };
    expect(Array.from(flattenResult(texture, 3))).toEqual([9, 8, 7]);
    expect(() => flattenResult([Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8)], 9)).toThrow("the kernel returned 8 values, 9 were asked for");
  });

  it("flattenResult(toVec4Views(a), n) gives a back, for any a (property)", () => {
    fc.assert(fc.property(fc.float32Array({ noNaN: true, maxLength: 40 }), (a) => {
      expect(Array.from(flattenResult(toVec4Views(a), a.length))).toEqual(Array.from(a));
    }), { seed: 4, numRuns: 100 });
  });

  it("isGlBackend names the WebGL backends only", () => {
    expect(["webgl2", "webgl", "headlessgl", "cpu", "webasm", "webgpu"].map(isGlBackend)).toEqual([true, true, true, false, false, false]);
  });
});
