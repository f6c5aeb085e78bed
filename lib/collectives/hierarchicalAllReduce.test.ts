import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { hierarchicalAllReduce, replayMessages } from "./hierarchicalAllReduce.js";
import { ringAllReduce } from "./ringAllReduce.js";

const sum = (bufs: number[][]) => bufs[0]!.map((_, i) => bufs.reduce((s, b) => s + b[i]!, 0));
/** Numbers each rank sends to other nodes, and inside its node. */
function traffic(P: number, G: number, messages: ReturnType<typeof hierarchicalAllReduce>["messages"]) {
  const inter = new Array<number>(P).fill(0), intra = new Array<number>(P).fill(0);
  for (const m of messages) (Math.floor(m.from / G) === Math.floor(m.to / G) ? intra : inter)[m.from]! += m.length;
  return { inter, intra };
}

describe("hierarchicalAllReduce(buffers, gpusPerNode)", () => {
  it("worked example: 2 nodes of 2 GPUs sum four buffers; each GPU sends 1 of its 2 numbers' share over the network", () => {
    const r = hierarchicalAllReduce([[1, 2], [3, 4], [5, 6], [7, 8]], 2);
    expect(r.result).toEqual([[16, 20], [16, 20], [16, 20], [16, 20]]);
    expect(traffic(4, 2, r.messages).inter).toEqual([1, 1, 1, 1]); // 2(N−1)/N · n/G = 2·1/2 · 1
    expect(Math.max(...r.messages.map((m) => m.step)) + 1).toBe(2 * (2 - 1) + 2 * (2 - 1));
  });
  it("sends G times less per GPU over the network than a flat ring's busiest GPU (4 nodes × 8 GPUs, n = 4096)", () => {
    const P = 32, G = 8, n = 4096;
    const bufs = Array.from({ length: P }, (_, r) => Array.from({ length: n }, (_, i) => (r * 7 + i) % 13));
    const h = hierarchicalAllReduce(bufs, G);
    expect(Math.max(...traffic(P, G, h.messages).inter)).toBe((2 * (4 - 1) * n) / (4 * G)); // 768
    // a flat ring over the 32 GPUs: the GPU at each node's boundary sends 2(P−1)/P · n over the network
    const flat = ringAllReduce(bufs);
    expect(Array.from(flat.result[0]!)).toEqual(h.result[0]);
    expect((2 * (P - 1) * n) / P / Math.max(...traffic(P, G, h.messages).inter)).toBeGreaterThan(G - 1);
  });
  it("edge cases: one node (a ring inside it), one GPU per node (a ring across nodes), n < P, n = 0, errors", () => {
    expect(hierarchicalAllReduce([[1, 2, 3], [4, 5, 6], [7, 8, 9]], 3).result).toEqual([[12, 15, 18], [12, 15, 18], [12, 15, 18]]);
    expect(hierarchicalAllReduce([[1, 2, 3], [4, 5, 6], [7, 8, 9]], 1).result).toEqual([[12, 15, 18], [12, 15, 18], [12, 15, 18]]);
    expect(hierarchicalAllReduce([[1], [2], [3], [4]], 2).result).toEqual([[10], [10], [10], [10]]);
    expect(hierarchicalAllReduce([[], []], 1)).toEqual({ result: [[], []], messages: [] });
    expect(hierarchicalAllReduce([[5, 6]], 1)).toEqual({ result: [[5, 6]], messages: [] });
    expect(() => hierarchicalAllReduce([[1], [2], [3]], 2)).toThrow(/^gpusPerNode must be an integer that divides the 3 ranks, got 2$/);
    expect(() => hierarchicalAllReduce([], 1)).toThrow(/got 0 buffers/);
    expect(() => hierarchicalAllReduce([[1, 2], [3]], 1)).toThrow(/^buffers\[1\] has length 1, expected 2/);
    expect(() => replayMessages([[1], [2]], [{ step: 0, from: 0, to: 1, offset: 1, length: 1, op: "add" }])).toThrow(/not a message of 2 ranks' buffers of 1 numbers/);
  });
  it("property: every rank ends with the elementwise sum, within the traffic bounds, for random nodes, GPUs and lengths", () => {
    const arb = fc.record({ N: fc.integer({ min: 1, max: 4 }), G: fc.integer({ min: 1, max: 4 }), n: fc.integer({ min: 0, max: 40 }), seed: fc.integer() });
    fc.assert(fc.property(arb, ({ N, G, n, seed }) => {
      const P = N * G;
      const bufs = Array.from({ length: P }, (_, r) => Array.from({ length: n }, (_, i) => Math.abs((seed ^ (r * 31 + i * 7)) % 100)));
      const h = hierarchicalAllReduce(bufs, G);
      for (const row of h.result) expect(row).toEqual(sum(bufs.length ? bufs : [[]]));
      const { inter, intra } = traffic(P, G, h.messages);
      const share = Math.ceil(n / G);
      expect(Math.max(0, ...inter)).toBeLessThanOrEqual(2 * (N - 1) * Math.ceil(share / N));
      expect(Math.max(0, ...intra)).toBeLessThanOrEqual(2 * (G - 1) * share);
    }), { numRuns: 300, seed: 23 });
  });
});
