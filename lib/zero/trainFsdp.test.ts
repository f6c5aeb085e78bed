import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { trainFsdp, fsdpModel, type FsdpConfig } from "./trainFsdp.js";
import { fsdpOracle } from "./fsdpOracle.js";
import type { MixedPrecisionPolicy } from "./FsdpWorld.js";
import { fsdpStepCommunication } from "./fsdpStepCommunication.js";
import { fullyShard, checkShard0Layout } from "./fullyShard.js";
import { shardDim0 } from "./shardDim0.js";
import { trainZero } from "./trainZero.js";
import { zeroStepCommunication } from "./zeroStepCommunication.js";
import { fsdpCommPerRank } from "./fsdpStrategy.js";
import { DEFAULT_MODEL } from "../nn/index.js";
import { trainOneDevice } from "./trainOneDevice.js";

const sum = (a: number[]) => a.reduce((s, x) => s + x, 0);
const firstDiff = (a: Float32Array, b: Float32Array) => a.findIndex((x, i) => !Object.is(x, b[i]));
const DEEP = { ...DEFAULT_MODEL, numBlocks: 4 };
const BF16 = { paramDtype: "bf16", reduceDtype: "fp32" } as const;

describe("trainFsdp: FSDP2 on the simulated World", () => {
  it("equals the independent oracle bit for bit: any mesh, K, reshard_after_forward, gradient sync, layout and dtypes (property)", () => {
    const arb = fc.record({
      R: fc.integer({ min: 1, max: 2 }), G: fc.integer({ min: 1, max: 7 }), K: fc.integer({ min: 1, max: 3 }),
      reshard: fc.constantFrom<"true" | "false" | "null" | "int">("true", "false", "null", "int"), sync: fc.boolean(),
      layout: fc.constantFrom("per-parameter" as const, "flat-parameter" as const), mp: fc.constantFrom<MixedPrecisionPolicy>({}, { paramDtype: "bf16" }, BF16),
    });
    fc.assert(fc.property(arb, ({ R, G, K, reshard, sync, layout, mp }) => {
      const divisors = [...Array(G).keys()].map((d) => d + 1).filter((d) => G % d === 0);
      const r = reshard === "int" ? divisors[Math.floor(divisors.length / 2)] : reshard === "null" ? null : reshard === "true";
      const c: FsdpConfig = { mesh: { replicate: R, shard: G }, gradAccumSteps: K, reshardAfterForward: r, requiresGradientSync: sync, layout, mp, steps: 2 };
      const run = trainFsdp(c), want = fsdpOracle(c);
      expect(firstDiff(run.master, want), JSON.stringify(c)).toBe(-1);
      // the message log adds up to the closed form, elements and bytes
      const closed = fsdpStepCommunication(run.plan, { gradAccumSteps: K, requiresGradientSync: sync, paramDtype: mp.paramDtype ?? undefined, reduceDtype: mp.reduceDtype ?? mp.paramDtype ?? undefined });
      expect(sum(run.records[0].elementsSent)).toBe(closed.elementsSent);
      expect(sum(run.records[0].bytesSent)).toBe(closed.bytesSent);
    }), { numRuns: 24, seed: 24 });
  });

  it("P ≤ 2 equals the course's DDP (trainZero stage 0) bit for bit: two addends sum alike in any order", () => {
    for (const P of [1, 2]) {
      const ddp = trainZero({ numRanks: P, stage: 0, steps: 3 }).master;
      expect(firstDiff(trainFsdp({ mesh: { shard: P }, steps: 3, mp: { paramDtype: "bf16" } }).master, ddp)).toBe(-1);
      expect(firstDiff(trainFsdp({ mesh: { shard: P }, steps: 3, mp: { paramDtype: "bf16" }, layout: "flat-parameter" }).master, ddp)).toBe(-1);
    }
  });

  it("in fp32, within 1e-5 of one process on the whole global batch after 3 steps (P = 7: empty chunks; HSDP 2 × 3; K = 2 without sync)", () => {
    for (const c of [{ mesh: { shard: 7 } }, { mesh: { replicate: 2, shard: 3 }, reshardAfterForward: 3 }, { mesh: { shard: 4 }, gradAccumSteps: 2, requiresGradientSync: false, reshardAfterForward: 2 }] as FsdpConfig[]) {
      const run = trainFsdp({ ...c, steps: 3 });
      const w = trainOneDevice({ ...c, numRanks: run.plan.mesh.numRanks, steps: 3 });
      expect(Math.max(...w.map((x, i) => Math.abs(x - run.master[i])))).toBeLessThan(1e-5);
    }
  });

  it("P = 1: no message, the same weights as one rank of DDP", () => {
    const run = trainFsdp({ mesh: { shard: 1 }, steps: 2, mp: { paramDtype: "bf16" } });
    expect(run.records[0].commEvents).toHaveLength(0);
    expect(firstDiff(run.master, trainZero({ numRanks: 1, stage: 0, steps: 2 }).master)).toBe(-1);
  });

  it("with no padding and every group resharded, the message log is ZeRO-3's: 3K(P−1)Ψ, or (2K + 1)(P−1)Ψ reducing once", () => {
    // G = 2 divides every dim 0 of the live model (59 rows do not: the embedding and head bias pad) → use the flat layout, N even per unit
    for (const sync of [true, false]) {
      const run = trainFsdp({ mesh: { shard: 3 }, layout: "flat-parameter", reshardAfterForward: true, rootReshardAfterForward: true, gradAccumSteps: 2, requiresGradientSync: sync, steps: 1 });
      const padded = run.plan.groups.every((g) => g.paddedShardElements * 3 === g.numel);
      expect(padded).toBe(true); // 3,555 = 3 · 1,185: both units divide by 3 (2,355 and 1,200)
      expect(sum(run.records[0].elementsSent)).toBe(zeroStepCommunication({ stage: 3, dataParallel: 3, numParams: 3555, gradAccumSteps: 2, coalesceGradReduction: !sync }).elementsSent);
    }
  });

  it("HSDP matches the FSDP paper's traffic per rank: 3Ψ(G−1)/G inside the group plus 2(Ψ/G)(R−1)/R across groups", () => {
    const run = trainFsdp({ mesh: { replicate: 2, shard: 3 }, layout: "flat-parameter", reshardAfterForward: true, rootReshardAfterForward: true, steps: 1 });
    const perRank = sum(run.records[0].elementsSent) / 6;
    expect(perRank).toBeCloseTo(fsdpCommPerRank("HYBRID_SHARD", 3555, 6, 3), 9);
    // the replicas' all-reduce messages go between the same shard position of different nodes
    const across = run.records[0].commEvents.filter((e) => Math.floor(e.sender / 3) !== Math.floor(e.receiver / 3));
    expect(across.every((e) => e.sender % 3 === e.receiver % 3)).toBe(true);
    expect(sum(across.map((e) => e.length))).toBe(2 * (2 - 1) * 3555 / 3 * 3); // 2(R−1)·S per replicate group, G groups
  });
});

describe("reshard_after_forward: memory against traffic", () => {
  const run = (r: boolean | number, extra: Partial<FsdpConfig> = {}) => trainFsdp({ mesh: { shard: 4 }, model: DEEP, steps: 1, mp: BF16, reshardAfterForward: r, ...extra }).records[0];

  it("true frees after forward and gathers again (≈ FULL_SHARD); false keeps until backward (≈ SHARD_GRAD_OP); an int keeps 1/g", () => {
    const t = run(true), f = run(false), g = run(2);
    expect(Math.max(...t.peakBytes)).toBeLessThan(Math.max(...g.peakBytes));
    expect(Math.max(...g.peakBytes)).toBeLessThan(Math.max(...f.peakBytes));
    expect(sum(f.bytesSent)).toBeLessThan(sum(g.bytesSent));
    expect(sum(g.bytesSent)).toBeLessThan(sum(t.bytesSent));
  });

  it("an int g = the node size keeps the backward all-gather inside nodes of g ranks: no byte crosses a node, and it is faster", () => {
    const topology = { ranksPerNode: 2, interNodeBandwidthBytesPerS: 1e9 }; // NVLink-like inside a node (25 GB/s), 1 GB/s between
    const rec = run(2, { topology }), full = run(true, { topology });
    const backwardGathers = rec.ops.filter((o) => o.op.op === "unshard" && o.label.includes("post-forward"));
    expect(backwardGathers.length).toBe(DEEP.numBlocks);
    for (const o of backwardGathers) {
      const ev = rec.commEvents.slice(...o.events);
      expect(ev.length).toBeGreaterThan(0);
      expect(ev.every((e) => !e.interNode && Math.floor(e.sender / 2) === Math.floor(e.receiver / 2))).toBe(true);
    }
    const backwardAllGatherS = (r: typeof rec) => sum(r.ops.filter((o, i) => o.op.op === "unshard" && i > r.ops.findIndex((x) => x.op.op === "backward")).map((o) => o.commS));
    expect(backwardAllGatherS(rec)).toBeLessThan(backwardAllGatherS(full) / 2);
    const interBytes = (r: typeof rec) => sum(r.commEvents.filter((e) => e.interNode).map((e) => e.bytes));
    expect(interBytes(rec)).toBeLessThan(interBytes(full));
  });

  it("the root keeps its parameters from forward to backward by default (null → false), so it is gathered once a micro-batch", () => {
    const rec = run(true);
    expect(rec.ops.filter((o) => o.op.op === "unshard" && o.op.group === 0)).toHaveLength(1);
    expect(rec.ops.filter((o) => o.op.op === "unshard" && o.op.group === 1)).toHaveLength(2);
  });

  it("MixedPrecisionPolicy(bf16, fp32): all-gathers carry 2 bytes an element, reduce-scatters 4; bf16 reduction changes the weights", () => {
    const rec = run(true);
    for (const o of rec.ops) {
      const ev = rec.commEvents.slice(...o.events);
      if (o.op.op === "unshard") expect(ev.every((e) => e.bytes === 2 * e.length)).toBe(true);
      if (o.op.op === "reduce-scatter") expect(ev.every((e) => e.bytes === 4 * e.length)).toBe(true);
    }
    const a = trainFsdp({ mesh: { shard: 4 }, steps: 2, mp: { paramDtype: "bf16", reduceDtype: "fp32" } }).master;
    const b = trainFsdp({ mesh: { shard: 4 }, steps: 2, mp: { paramDtype: "bf16" } }).master;
    expect(firstDiff(a, b)).toBeGreaterThanOrEqual(0);
  });

  it("FSDP1's FlatParameter pads each unit to a multiple of P, FSDP2 each parameter's rows: the sharded parameters of FSDP2 are never smaller", () => {
    for (const P of [3, 4, 8]) {
      const f1 = trainFsdp({ mesh: { shard: P }, model: DEEP, steps: 1, mp: BF16, layout: "flat-parameter" }).records[0];
      const f2 = trainFsdp({ mesh: { shard: P }, model: DEEP, steps: 1, mp: BF16 }).records[0];
      const params = (r: typeof f1) => r.memory.filter((e) => e.rank === 0 && e.kind === "params").reduce((n, e) => n + e.bytes, 0);
      expect(params(f2)).toBeGreaterThanOrEqual(params(f1));
      expect(Math.max(...f2.peakBytes)).toBeGreaterThanOrEqual(Math.max(...f1.peakBytes));
    }
  });

  it("set_requires_gradient_sync(False) keeps unsharded fp32 gradients: memory up, traffic down (K = 4)", () => {
    const every = run(true, { gradAccumSteps: 4 }), once = run(true, { gradAccumSteps: 4, requiresGradientSync: false });
    expect(Math.max(...once.peakBytes)).toBeGreaterThan(Math.max(...every.peakBytes));
    expect(sum(once.bytesSent)).toBeLessThan(sum(every.bytesSent));
  });

  it("every allocation is freed by the end of the step but the sharded parameters and the AdamW states", () => {
    const rec = run(2, { gradAccumSteps: 2, requiresGradientSync: false });
    for (let r = 0; r < 4; r++) {
      const ev = rec.memory.filter((e) => e.rank === r);
      expect(ev.at(-1)!.live).toBe(ev.filter((e) => e.t === 0).reduce((n, e) => n + e.bytes, 0));
    }
  });
});

describe("plan and errors", () => {
  it("fully_shard bottom-up: the root takes what the blocks leave; a layer cannot be in two groups", () => {
    const { layers } = fsdpModel(DEFAULT_MODEL);
    const plan = fullyShard(layers, [{ modules: ["blocks.0"] }, { modules: ["blocks.1"] }, { modules: "root" }], { shard: 4 });
    expect(plan.groups.map((g) => [g.name, g.layers])).toEqual([["root", [0, 1, 4]], ["blocks.0", [2]], ["blocks.1", [3]]]);
    expect(plan.groups.map((g) => g.reshardAfterForward)).toEqual([false, true, true]);
    expect(() => fullyShard(layers, [{ modules: ["blocks.0"] }, { modules: ["blocks.0"] }, { modules: "root" }], { shard: 4 })).toThrow("layer blocks.0 is already in the group of fully_shard call 0");
    expect(() => fullyShard(layers, [{ modules: ["blocks.0"] }], { shard: 4 })).toThrow('the last fully_shard call must be on "root" (the whole model)');
    expect(() => fullyShard(layers, [{ modules: ["emb", "head"] }, { modules: "root" }], { shard: 4 })).toThrow("fully_shard call 0 must name consecutive layers, got emb, head");
    expect(() => fullyShard(layers, [{ modules: ["blocks.9"] }, { modules: "root" }], { shard: 4 })).toThrow('fully_shard call 0 names no layer "blocks.9"');
  });

  it("a parameter layout from outside (exercise 8.5) is checked before the World uses it", () => {
    expect(checkShard0Layout("w", [5, 2], 4, shardDim0([5, 2], 4)).paddedShardElements).toBe(4);
    expect(() => checkShard0Layout("w", [5, 2], 4, { rows: shardDim0([5, 2], 3).rows, paddedRows: 2 })).toThrow("w: 3 chunks for 4 shard ranks");
    expect(() => checkShard0Layout("w", [5, 2], 4, { rows: shardDim0([5, 2], 4).rows, paddedRows: 1 })).toThrow("w: chunk 0 has 2 rows, more than paddedRows 1");
    expect(() => checkShard0Layout("w", [5, 2], 2, { rows: [{ start: 0, end: 3 }, { start: 2, end: 5 }], paddedRows: 3 })).toThrow("w: chunk 1 covers rows 2..5, expected to start at 3 (chunks in order, covering every row once)");
    expect(() => checkShard0Layout("w", [5, 2], 2, { rows: [{ start: 0, end: 2 }, { start: 2, end: 4 }], paddedRows: 3 })).toThrow("w: the chunks cover rows 0..4, not all 5");
  });

  it("a reshard int that does not divide P stops the run before it starts; so does a bad dtype", () => {
    expect(() => trainFsdp({ mesh: { shard: 4 }, reshardAfterForward: 3, steps: 1 })).toThrow("reshard_after_forward as an int must be a factor of 4 (the shard group size), not 3");
    expect(() => trainFsdp({ mesh: { shard: 2 }, mp: { paramDtype: "fp8" as never }, steps: 1 })).toThrow('mp.paramDtype must be one of fp32, fp16, bf16, got "fp8"');
  });

  it("a schedule that computes with sharded parameters, or steps with gradients not reduced, stops with the layer and group named", () => {
    expect(() => trainFsdp({ mesh: { shard: 2 }, steps: 1, schedule: () => [{ op: "forward", layer: 0 }] })).toThrow("forward of layer emb on every rank: its group root is sharded (unshard it first)");
    expect(() => trainFsdp({ mesh: { shard: 2 }, steps: 1, schedule: () => [{ op: "unshard", group: 0 }, { op: "unshard", group: 0 }] })).toThrow("unshard of group root: it is already unsharded");
    expect(() => trainFsdp({ mesh: { shard: 2 }, steps: 1, schedule: () => [{ op: "unshard", group: 0 }, { op: "reshard", group: 0, to: "post-forward" }] })).toThrow("reshard of group root to the post-forward mesh: its reshard_after_forward is false, not an int");
    expect(() => trainFsdp({ mesh: { shard: 2 }, steps: 1, schedule: () => [{ op: "reduce-scatter", group: 1 }] })).toThrow("reduce-scatter of group blocks.0: it has no gradients");
    expect(() => trainFsdp({ mesh: { shard: 2 }, steps: 1, schedule: () => [{ op: "step" }] })).toThrow("optimizer step with gradients of group root not reduced");
  });
});
