import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { mulberry32, gaussian } from "../nn/index.js";
import { TpComm } from "./comm.js";
import { fForward, fBackward, gForward, gBackward, spAllGather, spReduceScatter } from "./mappings.js";

const F = (...v: number[]) => new Float32Array(v);

describe("f and g (conjugate operators)", () => {
  it("f is the identity forward and an all-reduce backward; g the reverse (worked example)", () => {
    const comm = new TpComm(2);
    expect(fForward([F(1), F(1)]).map((x) => [...x])).toEqual([[1], [1]]);
    expect(fBackward(comm, [F(1), F(2)]).map((x) => [...x])).toEqual([[3], [3]]);
    expect(gForward(comm, [F(1), F(2)]).map((x) => [...x])).toEqual([[3], [3]]);
    expect(gBackward([F(5), F(5)]).map((x) => [...x])).toEqual([[5], [5]]);
    expect(comm.log.map((l) => `${l.pass} ${l.op} ${l.bytes}`)).toEqual(["backward f 8", "forward g 8"]);
  });
  it("all-gather then reduce-scatter: the sequence-parallel pair equals one all-reduce, split by rows (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 5 }), fc.integer(), (T, k, cols, seed) => {
      const rng = mulberry32(seed), n = k * T * cols;
      const bufs = Array.from({ length: T }, () => Float32Array.from({ length: n }, () => gaussian(rng)));
      const comm = new TpComm(T);
      const summed = gForward(comm, bufs);
      const blocks = spReduceScatter(comm, bufs);
      const gathered = spAllGather(comm, blocks);
      for (const g of gathered) for (let i = 0; i < n; i++) expect(Math.abs(g[i] - summed[0][i])).toBeLessThanOrEqual(T * 2 ** -22 * bufs.reduce((s, b) => s + Math.abs(b[i]), 0));
      if (T > 1) {
        const [ar, rs, ag] = comm.log;
        expect(rs.bytes + ag.bytes).toBe(ar.bytes); // same bytes
      }
    }));
  });
  it("TpComm names its bad inputs", () => {
    expect(() => new TpComm(0)).toThrow("T must be an integer >= 1, got 0");
    expect(() => new TpComm(2).allReduce([F(1)], "forward", "g")).toThrow("buffers must hold one buffer per rank (T = 2), got 1");
    expect(() => spReduceScatter(new TpComm(2), [F(1, 2, 3), F(1, 2, 3)])).toThrow("reduce-scatter needs a length divisible by T = 2, got 3");
  });
});
