import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { planDispatch } from "./planDispatch.js";
import type { RankRouting } from "./types.js";
import { expertOwner, localExpertCount } from "./expertPlacement.js";
import { allToAll } from "../collectives/index.js";
import { mulberry32 } from "../random.js";

const base = { capacityFactor: null, dropPolicy: "position" as const, hiddenSize: 1 };

/** Random routings: P ranks, N_r tokens each, k distinct experts per token. */
function randomRoutings(seed: number) {
  const rng = mulberry32(seed), P = 1 + Math.floor(rng() * 4), L = 1 + Math.floor(rng() * 3), E = P * L, k = 1 + Math.floor(rng() * E);
  const routings: RankRouting[] = Array.from({ length: P }, () => {
    const N = Math.floor(rng() * 7), experts: number[] = [], gates: number[] = [];
    for (let t = 0; t < N; t++) {
      const pool = Array.from({ length: E }, (_, e) => e).sort(() => rng() - 0.5).slice(0, k);
      pool.forEach((e) => { experts.push(e); gates.push(Math.round(rng() * 4) / 4); });
    }
    return { experts, gates };
  });
  return { P, E, k, routings, cf: rng() < 0.5 ? null : 0.25 + Math.round(rng() * 8) / 4 };
}

describe("planDispatch", () => {
  it("planDispatch worked example: 2 ranks, 4 experts (2 per rank), top-1, no capacity", () => {
    // rank 0 tokens → experts [3, 0, 2, 0]; rank 1 tokens → [1, 1, 3]
    const plan = planDispatch([{ experts: [3, 0, 2, 0], gates: [1, 1, 1, 1] }, { experts: [1, 1, 3], gates: [1, 1, 1] }], { ...base, numExperts: 4, topK: 1, epSize: 2, hiddenSize: 2 });
    expect(plan.sendOrder).toEqual([[1, 3, 2, 0], [0, 1, 2]]); // by expert, then token
    expect(plan.splits).toEqual([[2, 2], [2, 1]]);
    expect(plan.received).toEqual([[[2, 0], [0, 2]], [[1, 1], [0, 1]]]); // rank d: from each source, per local expert
    expect(plan.messages).toEqual([
      { sender: 0, receiver: 1, offset: 4, length: 4, receiverOffset: 0 },
      { sender: 1, receiver: 0, offset: 0, length: 4, receiverOffset: 4 },
    ]);
  });

  it("planDispatch applies each rank's own capacity ⌈N_r·k/E·CF⌉ with the drop policy", () => {
    // rank 0: 4 tokens, all to expert 0, gates rising; capacity ⌈4·1/2·1⌉ = 2
    const r = [{ experts: [0, 0, 0, 0], gates: [0.1, 0.2, 0.3, 0.4] }, { experts: [0, 1], gates: [1, 1] }];
    const pos = planDispatch(r, { ...base, numExperts: 2, topK: 1, epSize: 2, capacityFactor: 1 });
    expect(Array.from(pos.kept[0])).toEqual([1, 1, 0, 0]);
    const probs = planDispatch(r, { ...base, numExperts: 2, topK: 1, epSize: 2, capacityFactor: 1, dropPolicy: "probs" });
    expect(Array.from(probs.kept[0])).toEqual([0, 0, 1, 1]);
    expect(Array.from(probs.kept[1])).toEqual([1, 1]); // rank 1: capacity ⌈2·1/2⌉ = 1 per expert, exactly full
  });

  it("planDispatch's messages, run by allToAll, bring each token to its expert's rank in (source, local expert) chunks (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), (seed) => {
      const { P, E, k, routings, cf } = randomRoutings(seed);
      const plan = planDispatch(routings, { numExperts: E, topK: k, epSize: P, capacityFactor: cf, dropPolicy: "probs", hiddenSize: 1 });
      // each rank sends the global id (rank·100 + slot) of each kept pair, in its send order
      const sent = plan.sendOrder.map((o, r) => o.map((s) => r * 1000 + s));
      const got = allToAll(sent, plan.splits).result;
      const L = localExpertCount(E, P);
      got.forEach((buf, d) => {
        let at = 0;
        plan.received[d].forEach((perLocal, s) => perLocal.forEach((n, i) => {
          for (let c = 0; c < n; c++, at++) {
            const id = buf[at], src = Math.floor(id / 1000), slot = id % 1000;
            expect(src).toBe(s);
            expect(routings[src].experts[slot]).toBe(d * L + i);
            expect(expertOwner(routings[src].experts[slot], E, P)).toBe(d);
          }
        }));
        expect(at).toBe(buf.length);
      });
      // the messages are the all-to-all's: offsets and lengths of every off-rank segment
      const events = allToAll(sent, plan.splits).events.map((e) => ({ sender: e.sender, receiver: e.receiver, offset: e.offset, length: e.length, receiverOffset: e.receiverOffset }));
      expect(plan.messages).toEqual(events);
    }), { numRuns: 80 });
  });

  it("planDispatch edge cases: k = E, a rank with no token, an expert with no token", () => {
    const plan = planDispatch([{ experts: [1, 0], gates: [0.5, 0.5] }, { experts: [], gates: [] }], { ...base, numExperts: 2, topK: 2, epSize: 2 });
    expect(plan.sendOrder).toEqual([[1, 0], []]);
    expect(plan.splits).toEqual([[1, 1], [0, 0]]);
    const none = planDispatch([{ experts: [0, 0], gates: [1, 1] }], { ...base, numExperts: 3, topK: 1, epSize: 1 });
    expect(none.received).toEqual([[[2, 0, 0]]]);
    expect(none.messages).toEqual([]);
  });

  it("planDispatch rejects mismatched ranks, shapes and experts", () => {
    const o = { ...base, numExperts: 2, topK: 1, epSize: 2 };
    expect(() => planDispatch([{ experts: [0], gates: [1] }], o)).toThrow("routings must hold one routing per rank (epSize = 2), got 1");
    expect(() => planDispatch([{ experts: [0, 1], gates: [1] }, { experts: [], gates: [] }], o)).toThrow("routings[0]: experts and gates must have the same length, a multiple of topK = 1, got 2 and 1");
    expect(() => planDispatch([{ experts: [2], gates: [1] }, { experts: [], gates: [] }], o)).toThrow("experts[0] must be an integer in [0, 2), got 2");
    expect(() => planDispatch([{ experts: [0], gates: [1] }], { ...o, numExperts: 3, epSize: 2 })).toThrow("numExperts (3) must be divisible by epSize (2)");
  });
});
