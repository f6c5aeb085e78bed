import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { tpBytesByCollective, tpSetupsFromBytes, type TpLayer } from "./tpSetupsFromBytes.js";
import { tpCommPerLayer } from "./cost.js";

const tiny: TpLayer = { tokens: 4, hiddenSize: 2, ffnHiddenSize: 8, numHeads: 2, numKvHeads: 2, headDim: 1, bytesPerElement: 4 };
const mistral: TpLayer = { tokens: 4096, hiddenSize: 4096, ffnHiddenSize: 14336, numHeads: 32, numKvHeads: 8, headDim: 128, bytesPerElement: 2 };

describe("tpBytesByCollective and tpSetupsFromBytes", () => {
  it("worked example: T = 2 with full recomputation all-reduces twice as much in backward", () => {
    const b = tpBytesByCollective(tiny, { T: 2, sequenceParallel: false, recompute: "full" });
    expect(b).toEqual({ forward: { allReduce: 64, allGather: 0, reduceScatter: 0 }, backward: { allReduce: 128, allGather: 0, reduceScatter: 0 } });
    expect(tpSetupsFromBytes(b, tiny)).toEqual([{ T: 2, sequenceParallel: false, recompute: "full" }]);
  });
  it("agrees with tpCommPerLayer without recomputation; sequence parallelism re-gathers in backward; above G the QKV all-gather", () => {
    const rows = tpCommPerLayer({ tokens: 4096, hiddenSize: 4096, T: 16, sequenceParallel: true, attention: { numHeads: 32, numKvHeads: 8, headDim: 128 } });
    const b = tpBytesByCollective(mistral, { T: 16, sequenceParallel: true, recompute: "none" });
    expect(b.forward.allGather + b.forward.reduceScatter + b.backward.allGather + b.backward.reduceScatter).toBeCloseTo(rows.reduce((s, r) => s + r.bytesPerRank, 0), 6);
    expect(b.backward.allGather).toBeGreaterThan(b.forward.allGather); // the column layer's input gathered again
  });
  it("edge cases: T = 1 sends nothing; bytes no setup sends; bad input", () => {
    expect(tpSetupsFromBytes(tpBytesByCollective(tiny, { T: 1, sequenceParallel: false, recompute: "none" }), tiny)).toEqual([{ T: 1, sequenceParallel: false, recompute: "none" }]);
    expect(tpSetupsFromBytes({ forward: { allReduce: 1, allGather: 0, reduceScatter: 0 }, backward: { allReduce: 1, allGather: 0, reduceScatter: 0 } }, tiny)).toEqual([]);
    expect(() => tpSetupsFromBytes({ forward: { allReduce: -1, allGather: 0, reduceScatter: 0 }, backward: { allReduce: 0, allGather: 0, reduceScatter: 0 } }, tiny)).toThrow(/^measured\.forward\.allReduce must be a finite number >= 0, got -1$/);
    expect(() => tpSetupsFromBytes(tpBytesByCollective(tiny, { T: 1, sequenceParallel: false, recompute: "none" }), tiny, 0)).toThrow(/maxT/);
  });
  it("property: a setup's own bytes find it, and every setup found sends the same bytes", () => {
    const arb = fc.record({ kv: fc.integer({ min: 1, max: 8 }), group: fc.constantFrom(1, 2, 4), d: fc.constantFrom(16, 64), tok: fc.integer({ min: 1, max: 64 }).map((x) => 64 * x), ti: fc.nat(10), sp: fc.boolean(), full: fc.boolean() });
    fc.assert(fc.property(arb, (r) => {
      const layer: TpLayer = { tokens: r.tok, hiddenSize: r.kv * r.group * r.d, ffnHiddenSize: 4 * r.kv * r.group * r.d, numHeads: r.kv * r.group, numKvHeads: r.kv, headDim: r.d, bytesPerElement: 2 };
      const Ts = [1, 2, 4, 8, 16].filter((t) => layer.numHeads % t === 0 && (layer.numKvHeads % t === 0 || t % layer.numKvHeads === 0) && ((layer.numHeads + 2 * layer.numKvHeads) * r.d) % t === 0);
      const T = Ts[r.ti % Ts.length]!;
      const setup = { T, sequenceParallel: T > 1 && r.sp, recompute: T > 1 && r.full ? "full" as const : "none" as const };
      const b = tpBytesByCollective(layer, setup);
      const found = tpSetupsFromBytes(b, layer);
      expect(found).toContainEqual(setup);
      for (const s of found) expect(tpBytesByCollective(layer, s)).toEqual(b);
    }), { numRuns: 200, seed: 37 });
  });
});
