import { describe, expect, it } from "vitest";
import { createReduceKernel } from "./createReduceKernel.js";
import { addChunk } from "./addChunk.js";
import { ringAllReduce } from "./ringAllReduce.js";
import { firstMismatch, randomBuffers } from "./testing.js";
import { mulberry32 } from "../random.js";

/** n float32 values spread over 2^−40 … 2^40 in magnitude, both signs. */
function wideFloats(n: number, seed: number): Float32Array {
  const rand = mulberry32(seed);
  return Float32Array.from({ length: n }, () => (rand() < 0.5 ? -1 : 1) * 2 ** (rand() * 80 - 40));
}

describe("addChunk", () => {
  it("addChunk rounds each sum once to float32 (1 + 2^−24 rounds to 1; 1 + 3·2^−24 rounds up to 1 + 2^−22)", () => {
    expect(addChunk(Float32Array.of(1, 1), Float32Array.of(2 ** -24, 3 * 2 ** -24))).toEqual(Float32Array.of(1, 1 + 2 ** -22));
    expect(() => addChunk(Float32Array.of(1), Float32Array.of())).toThrow("received has length 0, expected 1 (the local chunk's length)");
  });
});

describe("createReduceKernel", () => {
  for (const mode of ["gpu", "cpu"] as const) {
    it(`createReduceKernel("${mode}").reduce equals addChunk bit for bit on 200,000 float32 values`, () => {
      const k = createReduceKernel(mode);
      try {
        const a = wideFloats(200_000, 1), b = wideFloats(200_000, 2);
        // include exact cancellations, zeros and halfway cases
        a.set([1, 0, -0, 5, 16777216], 0);
        b.set([2 ** -24, -0, -0, -5, 1], 0);
        expect(firstMismatch(k.reduce(a, b), addChunk(a, b))).toBe(-1);
        expect(k.reduce(new Float32Array(0), new Float32Array(0))).toHaveLength(0);
        expect(() => k.reduce(Float32Array.of(1), Float32Array.of(1, 2))).toThrow(/expected 1/);
      } finally {
        k.destroy();
      }
    });
  }

  it("ringAllReduce with the kernel as its reduction equals ringAllReduce on the CPU path", () => {
    const k = createReduceKernel();
    try {
      const buffers = randomBuffers(5, 1003, 9);
      const gpu = ringAllReduce(buffers, { reduce: k.reduce }).result;
      const cpu = ringAllReduce(buffers).result;
      gpu.forEach((r, i) => expect(firstMismatch(r, cpu[i])).toBe(-1));
    } finally {
      k.destroy();
    }
  });
});
