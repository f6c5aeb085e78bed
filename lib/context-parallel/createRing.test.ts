import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { createRing } from "./createRing.js";

describe("createRing", () => {
  it("createRing(2).sendRecv swaps the buffers and logs one message per rank (worked example)", () => {
    const ring = createRing(2, { cost: { alphaS: 1, bandwidthBytesPerS: 4 } });
    expect(ring.sendRecv([Float32Array.of(1), Float32Array.of(2)])).toEqual([Float32Array.of(2), Float32Array.of(1)]);
    expect(ring.bytesSent).toEqual([4, 4]);
    expect(ring.timeS).toBe(2); // α + 4 bytes / 4 B/s
    expect(ring.events.map((e) => [e.sender, e.receiver, e.offset, e.length, e.bytes, e.kind, e.step])).toEqual([[0, 1, 0, 1, 4, "send", 0], [1, 0, 0, 1, 4, "send", 0]]);
  });
  it("createRing: rank r always receives rank r − 1's buffer, and after C steps every buffer is home (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 5 }), (C, L) => {
      const ring = createRing(C);
      const start: Float32Array[] = Array.from({ length: C }, (_, r) => Float32Array.from({ length: L }, (_, i) => r * 100 + i));
      let b = start;
      for (let s = 1; s <= C; s++) {
        b = ring.sendRecv(b);
        b.forEach((x, r) => expect(x).toEqual(start[(((r - s) % C) + C) % C]));
      }
      expect(ring.numSteps).toBe(C === 1 ? 0 : C);
      expect(ring.bytesSent).toEqual(new Array(C).fill(C === 1 ? 0 : C * L * 4));
      expect(ring.events.every((e) => e.receiver === (e.sender + 1) % C)).toBe(true);
    }), { seed: 2, numRuns: 40 });
  });
  it("createRing with cpSize 1 sends nothing; sendRecv checks its buffers; the inputs are not modified", () => {
    const one = createRing(1);
    const x = Float32Array.of(1, 2);
    const y = one.sendRecv([x]);
    expect(y[0]).toEqual(x);
    expect(y[0]).not.toBe(x);
    expect(one.events).toEqual([]);
    expect(() => createRing(0)).toThrow(/^cpSize must be an integer >= 1, got 0$/);
    expect(() => createRing(3).sendRecv([x, x])).toThrow(/^sendRecv needs one buffer per rank \(3\), got 2$/);
    expect(() => createRing(2).sendRecv([x, Float32Array.of(1)])).toThrow(/every rank's buffer must have the same length/);
  });
});
