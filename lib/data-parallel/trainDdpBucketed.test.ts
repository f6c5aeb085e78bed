import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { mlpInit, regressionData } from "./mlp.js";
import { trainSingleProcess } from "./trainDataParallel.js";
import { trainDdpBucketed, TOY_LINK } from "./trainDdpBucketed.js";
import { createDdpReducer } from "./createDdpReducer.js";
import { createGradCluster } from "./createGradCluster.js";
import { assignBuckets } from "./assignBuckets.js";
import { allReduceSchedule } from "./ddpStepTimeMs.js";
import { collectiveCost, DEFAULT_COST_MODEL } from "../collectives/index.js";

const dims = { inputDim: 3, hiddenDim: 8, outputDim: 2 };
const { X, Y } = regressionData(48, 3, 2, 9);
const init = mlpInit(dims, 5);
const sizes = [24, 8, 16, 2];
const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => Math.max(...Array.from(a, (v, i) => Math.abs(v - b[i])));

describe("createGradCluster", () => {
  it("step(messages) adds or copies like the World, starts no earlier than the backward clock, and reports its end in ms (worked example)", () => {
    const c = createGradCluster(2, 1, { alphaS: 0, bandwidthBytesPerS: 4000 });
    c.cluster.grads[0][0] = 1;
    c.cluster.grads[1][0] = 2;
    expect(c.cluster.step([{ sender: 0, receiver: 1, offset: 0, length: 1, op: "reduce" }])).toBeCloseTo(1, 12);
    expect(Array.from(c.cluster.grads[1])).toEqual([3]);
    c.setNowMs(5);
    expect(c.cluster.step([{ sender: 1, receiver: 0, offset: 0, length: 1, op: "copy" }])).toBeCloseTo(6, 12);
    expect(Array.from(c.cluster.grads[0])).toEqual([3]);
    expect(c.events.map((e) => e.t * 1e3)).toEqual([0, 5]);
    expect(c.commEndMs()).toBeCloseTo(6, 12);
  });
  it("buffers start as NaN (no gradient yet) and bad messages throw a RangeError naming the field", () => {
    const c = createGradCluster(4, 10, DEFAULT_COST_MODEL);
    expect(Number.isNaN(c.cluster.grads[3][9])).toBe(true);
    expect(() => c.cluster.step([{ sender: 0, receiver: 4, offset: 0, length: 1, op: "reduce" }])).toThrow("message 0: receiver must be an integer rank in [0, 4), got 4");
    expect(() => c.cluster.step([{ sender: 0, receiver: 1, offset: 0, length: 1, op: "copy" }, { sender: 0, receiver: 1, offset: 8, length: 5, op: "copy" }])).toThrow("message 1: offset + length must lie in [0, 10], got offset 8, length 5");
    expect(() => c.cluster.step([{ sender: 0, receiver: 1, offset: 0, length: 1, op: "add" as "copy" }])).toThrow(RangeError);
  });
});

describe("createDdpReducer", () => {
  it("leaves the mean on every rank (the TSDoc example)", () => {
    const c = createGradCluster(2, 2, DEFAULT_COST_MODEL);
    c.cluster.grads[0].set([1, 2]);
    c.cluster.grads[1].set([3, 6]);
    const red = createDdpReducer(c.cluster, [2], { bucketCapBytes: 8, firstBucketCapBytes: 8 });
    red.gradReady(0);
    red.finish();
    expect(c.cluster.grads.map((g) => Array.from(g))).toEqual([[2, 4], [2, 4]]);
  });
  it("rejects bad indices, a parameter reported twice, and a finish with buckets left", () => {
    const c = createGradCluster(2, 4, DEFAULT_COST_MODEL);
    const red = createDdpReducer(c.cluster, [2, 2], { bucketCapBytes: 8, firstBucketCapBytes: 8 });
    expect(() => red.gradReady(7)).toThrow("paramIndex must be an integer in [0, 2), got 7");
    red.gradReady(1);
    expect(() => red.gradReady(1)).toThrow("parameter 1 was reported ready twice");
    expect(() => red.finish()).toThrow("buckets 1..1 were never all-reduced: parameters 0 never became ready");
    expect(() => createDdpReducer(c.cluster, [2, 2.5], { bucketCapBytes: 8, firstBucketCapBytes: 8 })).toThrow("paramSizes[1] must be an integer >= 0, got 2.5");
  });
});

describe("trainDdpBucketed", () => {
  const caps = { bucketCapBytes: 64, firstBucketCapBytes: 32 };
  it("with the course's reducer, equals single-process training within 1e-6 for P in {1, 2, 3, 4, 8, 16} (the page's tolerance)", () => {
    const single = trainSingleProcess(init, X, Y, { lr: 0.2, steps: 20 });
    for (const P of [1, 2, 3, 4, 8, 16]) {
      const d = trainDdpBucketed(init, X, Y, { lr: 0.2, steps: 20, numRanks: P, caps, createReducer: createDdpReducer });
      expect(maxDiff(d.model.params, single.model.params), `P = ${P}`).toBeLessThan(1e-6);
      for (const p of d.rankParams) expect(Array.from(p)).toEqual(Array.from(d.rankParams[0]));
    }
  });
  it("logs the ring's messages: to rank r+1, 2(P−1) steps per bucket, 2(P−1)·len values per bucket, buckets in order", () => {
    const P = 4;
    const d = trainDdpBucketed(init, X, Y, { lr: 0.2, steps: 1, numRanks: P, caps, createReducer: createDdpReducer });
    const { events } = d.log[0];
    const buckets = assignBuckets(sizes.map((s) => 4 * s), caps); // [[3, 2], [1, 0]]
    expect(buckets.map((b) => b.paramIndices)).toEqual([[3, 2], [1, 0]]);
    expect(events.every((e) => e.receiver === (e.sender + 1) % P)).toBe(true);
    const inBucket0 = (e: { offset: number }) => e.offset >= 32; // params 2, 3 occupy [32, 50)
    expect(new Set(events.filter(inBucket0).map((e) => e.step)).size).toBe(2 * (P - 1));
    expect(events.filter(inBucket0).reduce((s, e) => s + e.length, 0)).toBe(2 * (P - 1) * 18);
    const lastOf0 = Math.max(...events.filter(inBucket0).map((e) => e.step));
    expect(events.filter((e) => !inBucket0(e)).every((e) => e.step > lastOf0)).toBe(true);
  });
  it("overlaps: each bucket starts at max(its ready time, the previous bucket's end), as allReduceSchedule says (oracle)", () => {
    const P = 3;
    const d = trainDdpBucketed(init, X, Y, { lr: 0.2, steps: 1, numRanks: P, caps, createReducer: createDdpReducer });
    const { events, readyMs, backwardMs } = d.log[0];
    const ms = (bytes: number) => 1e3 * collectiveCost("ring-all-reduce", bytes / 4, P, TOY_LINK).timeS;
    const sched = allReduceSchedule([{ readyMs: Math.max(readyMs[3], readyMs[2]), allReduceMs: ms(72) }, { readyMs: Math.max(readyMs[1], readyMs[0]), allReduceMs: ms(128) }], backwardMs, true);
    const start0 = Math.min(...events.filter((e) => e.offset >= 32).map((e) => e.t)) * 1e3;
    const start1 = Math.min(...events.filter((e) => e.offset < 32).map((e) => e.t)) * 1e3;
    expect(start0).toBeCloseTo(sched.startMs[0], 9);
    expect(start1).toBeCloseTo(sched.startMs[1], 9);
    expect(start0).toBeLessThan(backwardMs); // the first all-reduce runs during backward
  });
  it("property: any caps, P ≤ 6 and ready order keep every rank equal to single-process training", () => {
    const single = trainSingleProcess(init, X, Y, { lr: 0.2, steps: 3 });
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }).filter((P) => 48 % P === 0), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 200 }), fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }), (P, cap, first, order) => {
      const d = trainDdpBucketed(init, X, Y, { lr: 0.2, steps: 3, numRanks: P, caps: { bucketCapBytes: cap, firstBucketCapBytes: first }, readyOrder: order, createReducer: createDdpReducer });
      return maxDiff(d.model.params, single.model.params) < 1e-6;
    }), { seed: 5, numRuns: 40 });
  });
  it("a reducer that never communicates leaves each rank with its own shard's gradient, and the weights drift", () => {
    const lazy = () => ({ gradReady() {}, finish() {} });
    const single = trainSingleProcess(init, X, Y, { lr: 0.2, steps: 5 });
    const d = trainDdpBucketed(init, X, Y, { lr: 0.2, steps: 5, numRanks: 4, caps, createReducer: lazy });
    expect(maxDiff(d.model.params, single.model.params)).toBeGreaterThan(1e-4);
    expect(() => trainDdpBucketed(init, X, Y, { lr: 0.2, steps: 1, numRanks: 2, caps, readyOrder: [3, 3, 1, 0], createReducer: lazy })).toThrow("readyOrder must be a permutation of 0…3, got [3,3,1,0]");
  });
});
