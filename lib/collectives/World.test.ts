import { describe, expect, it } from "vitest";
import { World } from "./World.js";

const F = (...xs: number[]) => Float32Array.from(xs);

describe("World", () => {
  it("World.step runs messages simultaneously: payloads are read before any lands", () => {
    // a swap: 0 → 1 and 1 → 0 in one step must exchange, not duplicate
    const w = new World([F(1), F(2)], { alphaS: 0, bandwidthBytesPerS: 4 });
    w.step("send", [
      { sender: 0, receiver: 1, chunk: -1, offset: 0, length: 1, op: "copy" },
      { sender: 1, receiver: 0, chunk: -1, offset: 0, length: 1, op: "copy" },
    ]);
    expect(w.buffers).toEqual([F(2), F(1)]);
  });

  it("World.step in a chain 0 → 1 → 2 forwards rank 1's old value, not the one arriving in the same step", () => {
    const w = new World([F(1, 5), F(2, 6), F(3, 7)], { alphaS: 0, bandwidthBytesPerS: 4 });
    w.step("send", [
      { sender: 0, receiver: 1, chunk: 0, offset: 0, length: 1, op: "reduce" },
      { sender: 1, receiver: 2, chunk: 0, offset: 0, length: 1, op: "reduce" },
      { sender: 2, receiver: 0, chunk: 1, offset: 1, length: 1, op: "copy" }, // disjoint range: read as a view
    ]);
    expect(w.buffers).toEqual([F(1, 7), F(3, 6), F(5, 7)]);
  });

  it("World.step lasts α + max(bytes out, bytes in)/B and advances the participants' clocks only", () => {
    const w = new World([F(1, 1), F(2, 2), F(3, 3)], { alphaS: 0.5, bandwidthBytesPerS: 8 });
    // ranks 1 and 2 both send 8 bytes to rank 0: rank 0 receives 16 bytes → 0.5 + 16/8 = 2.5 s
    const d = w.step("push", [
      { sender: 1, receiver: 0, chunk: -1, offset: 0, length: 2, op: "reduce" },
      { sender: 2, receiver: 0, chunk: -1, offset: 0, length: 2, op: "reduce" },
    ]);
    expect(d).toBe(2.5);
    expect(w.buffers[0]).toEqual(F(6, 6));
    expect(w.clock).toEqual([2.5, 2.5, 2.5]);
    // a later step between 1 and 2 starts at their clocks
    w.step("send", [{ sender: 1, receiver: 2, chunk: 0, offset: 1, length: 1, op: "copy" }]);
    expect(w.clock).toEqual([2.5, 3.5, 3.5]);
    expect(w.events.at(-1)).toMatchObject({ step: 1, t: 2.5, tEnd: 3.5, sender: 1, receiver: 2, rank: 1, bytes: 4, kind: "send" });
    expect(w.bytesSent).toEqual([0, 12, 8]);
    expect(w.bytesReceived).toEqual([16, 0, 4]);
  });

  it("World skips zero-length messages and steps without messages", () => {
    const w = new World([F(), F()], { alphaS: 1, bandwidthBytesPerS: 1 });
    expect(w.step("send", [{ sender: 0, receiver: 1, chunk: 0, offset: 0, length: 0, op: "copy" }])).toBe(0);
    expect(w.numSteps).toBe(0);
    expect(w.events).toHaveLength(0);
  });

  it("new World rejects no ranks, unequal lengths and bad cost models", () => {
    expect(() => new World([], { alphaS: 0, bandwidthBytesPerS: 1 })).toThrow("buffers must hold one buffer per rank (numRanks >= 1), got 0 buffers");
    expect(() => new World([F(1), F(1, 2)], { alphaS: 0, bandwidthBytesPerS: 1 })).toThrow("buffers[1] has length 2, expected 1 (every rank's buffer must have the same length)");
    expect(() => new World([F(1)], { alphaS: 0, bandwidthBytesPerS: 0 })).toThrow("bandwidthBytesPerS must be a finite number > 0, got 0");
    expect(() => new World([F(1)], { alphaS: Number.NaN, bandwidthBytesPerS: 1 })).toThrow("alphaS must be a finite number >= 0, got NaN");
  });
});
