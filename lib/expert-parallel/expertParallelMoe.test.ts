import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { expertParallelMoe } from "./expertParallelMoe.js";
import type { EpRank } from "./types.js";
import { EpComm } from "./EpComm.js";
import { trainExpertParallel } from "./trainExpertParallel.js";
import { cpuOps, gaussian, groupBounds, moeLayer, mulberry32, type MoeLayer, type MoeOptions } from "../nn/index.js";

interface Case { P: number; L: number; k: number; N: number; h: number; seed: number; moe?: Partial<MoeOptions> }

/** One device (moeLayer, numGroups = P) and P ranks on copies of the same weights, forward and backward. */
function runCase(c: Case) {
  const E = c.P * c.L, rng = mulberry32(c.seed);
  const opts: MoeOptions = { numExperts: E, topK: c.k, expertHiddenDim: 3, auxLossCoeff: 0.1, zLossCoeff: 0.01, ...c.moe, numGroups: c.P };
  const one = moeLayer("m", c.h, mulberry32(c.seed), opts);
  const copies = Array.from({ length: c.P }, () => moeLayer("m", c.h, mulberry32(c.seed), opts));
  const x = Float32Array.from({ length: c.N * c.h }, () => gaussian(rng)), dy = Float32Array.from({ length: c.N * c.h }, () => gaussian(rng));
  const fw = one.forward({ data: x, rows: c.N, cols: c.h }, cpuOps());
  const dx = one.backward(fw.saved, { data: dy, rows: c.N, cols: c.h }, cpuOps())!.data;
  const ranks: EpRank[] = copies.map((m, r) => ({ router: m.router, experts: m.experts.slice(r * c.L, (r + 1) * c.L), expertBias: m.expertBias }));
  const bounds = groupBounds(c.N, c.P), comm = new EpComm(c.P);
  const out = expertParallelMoe(comm, ranks, bounds.map(([a, b]) => x.slice(a * c.h, b * c.h)), bounds.map(([a, b]) => dy.slice(a * c.h, b * c.h)), { ...one.options, hiddenSize: c.h });
  return { one, copies, fw, dx, out, comm, bounds, ranks };
}

function expectClose(got: ArrayLike<number>, want: ArrayLike<number>, tol: number, what: string) {
  expect(got.length, what).toBe(want.length);
  for (let i = 0; i < want.length; i++) expect(Math.abs(got[i] - want[i]), `${what}[${i}]: ${got[i]} vs ${want[i]}`).toBeLessThanOrEqual(tol);
}

function checkAgainstOneDevice(c: Case) {
  const { one, copies, fw, dx, out, bounds } = runCase(c);
  bounds.forEach(([a, b], r) => {
    expectClose(out.ys[r], fw.y.data.subarray(a * c.h, b * c.h), 1e-6, `y on rank ${r}`);
    expectClose(out.dxs![r], dx.subarray(a * c.h, b * c.h), 1e-6, `dx on rank ${r}`);
  });
  // the router replicas' gradients sum to one device's; expert e's gradient is on its owner only
  const routerSum = new Float32Array(one.router.grad.length);
  copies.forEach((m) => m.router.grad.forEach((g, i) => { routerSum[i] += g; }));
  expectClose(routerSum, one.router.grad, 1e-6, "router grad summed over ranks");
  one.experts.forEach((e, idx) => {
    const owner = copies[Math.floor(idx / c.L)].experts[idx];
    (["W1", "b1", "W2", "b2"] as const).forEach((n) => expectClose(owner[n].grad, e[n].grad, 1e-6, `expert ${idx} ${n}`));
  });
}

describe("expertParallelMoe", () => {
  it("expertParallelMoe equals one device (moeLayer with numGroups = P) in output, input gradient and every weight gradient", () => {
    checkAgainstOneDevice({ P: 2, L: 2, k: 2, N: 10, h: 4, seed: 1 });
    checkAgainstOneDevice({ P: 4, L: 1, k: 1, N: 9, h: 3, seed: 2, moe: { order: "softmax-topk", capacityFactor: 1 } });
    checkAgainstOneDevice({ P: 3, L: 2, k: 6, N: 7, h: 2, seed: 3, moe: { order: "sigmoid" } }); // k = E
  });

  it("expertParallelMoe equals one device for random P, experts per rank, k, tokens and capacity (property)", () => {
    fc.assert(fc.property(fc.record({ P: fc.integer({ min: 1, max: 4 }), L: fc.integer({ min: 1, max: 3 }), k0: fc.integer({ min: 1, max: 12 }), N: fc.integer({ min: 0, max: 12 }), h: fc.integer({ min: 1, max: 4 }), seed: fc.integer({ min: 0, max: 1e6 }), cf: fc.constantFrom(null, 0.5, 1, 1.5), order: fc.constantFrom("softmax-topk", "topk-softmax", "sigmoid") as fc.Arbitrary<"softmax-topk" | "topk-softmax" | "sigmoid"> }),
      ({ P, L, k0, N, h, seed, cf, order }) => checkAgainstOneDevice({ P, L, k: 1 + (k0 % (P * L)), N, h, seed, moe: { capacityFactor: cf, order, dropPolicy: seed % 2 ? "probs" : "position" } })), { numRuns: 40 });
  });

  it("expertParallelMoe runs two all-to-alls forward (dispatch, combine) and two backward, each moving k·N_r·h values out of rank r when nothing is dropped", () => {
    const c = { P: 2, L: 2, k: 2, N: 10, h: 4, seed: 1 };
    const { comm, out } = runCase(c);
    expect(comm.log.map((l) => l.label)).toEqual(["dispatch", "combine", "combine backward", "dispatch backward"]);
    // every element a rank dispatches comes back in combine: the splits transpose
    const [d, cb] = comm.log;
    expect(cb.splits).toEqual(d.splits[0].map((_, j) => d.splits.map((row) => row[j])));
    d.splits.forEach((row, r) => expect(row.reduce((a, b) => a + b, 0)).toBe(c.k * (out.ys[r].length / c.h) * c.h));
  });

  it("expertParallelMoe without dys touches no gradient and runs only the two forward all-to-alls", () => {
    const rng = mulberry32(4), h = 3;
    const layer = moeLayer("m", h, mulberry32(4), { numExperts: 2, topK: 1, auxLossCoeff: 1 }) as MoeLayer;
    const comm = new EpComm(2), ranks: EpRank[] = [0, 1].map((r) => ({ router: layer.router, experts: [layer.experts[r]] }));
    const xs = [0, 1].map(() => Float32Array.from({ length: 4 * h }, () => gaussian(rng)));
    const out = expertParallelMoe(comm, ranks, xs, null, { ...layer.options, hiddenSize: h });
    expect(out.dxs).toBeNull();
    expect(comm.log).toHaveLength(2);
    expect(layer.params.every((p) => p.grad.every((g) => g === 0))).toBe(true);
  });

  it("expertParallelMoe rejects mismatched ranks and shapes", () => {
    const layer = moeLayer("m", 2, mulberry32(1), { numExperts: 4, topK: 1 });
    const opts = { ...layer.options, hiddenSize: 2 };
    const ranks = [0, 1].map((r) => ({ router: layer.router, experts: layer.experts.slice(2 * r, 2 * r + 2) }));
    expect(() => expertParallelMoe(new EpComm(2), ranks.slice(0, 1), [new Float32Array(2)], null, opts)).toThrow("ranks must hold one entry per rank (P = 2), got 1");
    expect(() => expertParallelMoe(new EpComm(2), [ranks[0], { ...ranks[1], experts: [layer.experts[3]] }], [new Float32Array(2), new Float32Array(2)], null, opts)).toThrow("ranks[1] must hold numExperts / P = 2 experts, got 1");
    expect(() => expertParallelMoe(new EpComm(2), ranks, [new Float32Array(2), new Float32Array(3)], null, opts)).toThrow("xs[1] must have a multiple of hiddenSize = 2 elements, got 3");
  });
});

describe("trainExpertParallel", () => {
  it("trainExpertParallel: lib/nn's MoE model on P = 2 and 4 ranks trains to the one-device weights (20 AdamW steps, within 1e-5)", () => {
    for (const [P, moe] of [[2, { numExperts: 4, topK: 2 }], [4, { numExperts: 8, topK: 2, capacityFactor: 1 }]] as const) {
      const r = trainExpertParallel({ epSize: P, steps: 20, moe, model: { hiddenDim: 16 } });
      expect(r.maxWeightDiff, `P = ${P}`).toBeLessThanOrEqual(1e-5);
      r.lossSingle.forEach((l, i) => expect(Math.abs(l - r.lossEp[i])).toBeLessThanOrEqual(1e-5));
      expect(r.lossEp.at(-1)!).toBeLessThan(r.lossEp[0]);
      expect(r.denseAllReduceBytesPerRank).toBeGreaterThan(0);
    }
  });
  it("trainExpertParallel rejects steps < 1 and experts that do not divide over the ranks", () => {
    expect(() => trainExpertParallel({ epSize: 2, steps: 0, moe: { numExperts: 4, topK: 1 } })).toThrow("steps must be an integer >= 1, got 0");
    expect(() => trainExpertParallel({ epSize: 4, steps: 1, moe: { numExperts: 6, topK: 1 } })).toThrow("numExperts (6) must be divisible by epSize (4)");
  });
});
