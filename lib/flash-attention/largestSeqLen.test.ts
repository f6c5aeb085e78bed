import { describe, expect, it } from "vitest";
import gpujs from "gpu.js";
import { largestSeqLen } from "./largestSeqLen.js";

describe("largestSeqLen", () => {
  it("largestSeqLen(8192, 64) is 8192 for standard attention and 8192²/64 for the flash kernel", () => {
    expect(largestSeqLen(8192, 64)).toEqual({ standard: 8192, flash: 8192 * 128 });
    expect(largestSeqLen(16384, 128, 4)).toEqual({ standard: 4096, flash: 16384 * 16384 / 512 });
  });
  it("largestSeqLen's standard bound is gpu.js's own texture size for the S output", () => {
    // gpu.js lays a 2-D output (x, y) out as an x×y texture: S is (Nk, B·H·Nq)
    const { utils } = gpujs as unknown as { utils: { getKernelTextureSize(s: object, dims: number[]): Int32Array } };
    const T = 8192;
    const N = largestSeqLen(T, 64, 2).standard;
    const tex = utils.getKernelTextureSize({ optimizeFloatMemory: false, precision: "single" }, [N, 2 * N]);
    expect(Math.max(...tex)).toBe(T);
    const over = utils.getKernelTextureSize({ optimizeFloatMemory: false, precision: "single" }, [N + 1, 2 * (N + 1)]);
    expect(Math.max(...over)).toBeGreaterThan(T);
  });
  it("largestSeqLen throws a RangeError naming the field", () => {
    expect(() => largestSeqLen(0, 64)).toThrow("maxTextureSize must be an integer >= 1, got 0");
    expect(() => largestSeqLen(8192, 1.5)).toThrow("d must be an integer >= 1, got 1.5");
  });
});
