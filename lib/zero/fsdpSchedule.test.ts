import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { fsdpSchedule } from "./fsdpSchedule.js";
import { fsdpTimeline } from "./fsdpTimeline.js";
import { fullyShard, type LayerSpec } from "./fullyShard.js";
import { allGatherGroup, reduceScatterGroup } from "./fsdpCollectives.js";
import { fsdpStepCommunication } from "./fsdpStepCommunication.js";
import { trainFsdp, fsdpModel } from "./trainFsdp.js";
import { World } from "../collectives/index.js";
import { AMP_LIVE_MODEL } from "../amp/index.js";
import { DEFAULT_MODEL } from "../nn/index.js";

const show = (ops: ReturnType<typeof fsdpSchedule>, names: string[]) => ops.map((o) => o.op === "step" ? "step" : "layer" in o ? `${o.op === "forward" ? "F" : "B"} ${names[o.layer]}` : `${o.op}${o.op === "reshard" && o.to === "post-forward" ? "→pf" : ""} g${o.group}`);
const { layers } = fsdpModel(DEFAULT_MODEL);
const names = layers.map((l) => l.name);

describe("the worked example: a 2-layer model on P = 4, by hand", () => {
  // layer a: W [5, 2], b [3] (fully_shard(a)); layer b: W [2, 4], b [4] (the root)
  const two: LayerSpec[] = [{ name: "a", params: [{ name: "a.W", shape: [5, 2] }, { name: "a.b", shape: [3] }] }, { name: "b", params: [{ name: "b.W", shape: [2, 4] }, { name: "b.b", shape: [4] }] }];
  const plan = fullyShard(two, [{ modules: ["a"] }, { modules: "root" }], { shard: 4 });

  it("groups, padded shards and offsets", () => {
    expect(plan.groups.map((g) => [g.name, g.paddedShardElements, g.tensors.map((t) => t.offset)])).toEqual([["root", 5, [0, 4]], ["a", 5, [0, 4]]]);
  });

  it("the all-gather of a: copy-in at k·5, 3 ring steps of 4 messages of 5 elements, copy-out = the first numel of the padded tensors", () => {
    const aW = Float32Array.from({ length: 10 }, (_, i) => i + 1), ab = Float32Array.of(100, 200, 300);
    // rank k's padded chunks: W rows [2k, 2k + 2) (rank 2: row 4 and a zero row; rank 3: zeros), b row k
    const inputs = [0, 1, 2, 3].map((k) => [Float32Array.from({ length: 4 }, (_, i) => aW[4 * k + i] ?? 0), Float32Array.of(ab[k] ?? 0)]);
    const world = new World([0, 1, 2, 3].map(() => new Float32Array(20)), { alphaS: 0, bandwidthBytesPerS: 1 });
    const out = allGatherGroup(world, [[0, 1, 2, 3]], { base: 0, chunks: [4, 1] }, inputs, 2);
    for (let r = 0; r < 4; r++) {
      expect(out[r][0].subarray(0, 10)).toEqual(aW);
      expect(out[r][1].subarray(0, 3)).toEqual(ab);
      expect(out[r][0].length).toBe(16); // 4 chunks of 4: 6 elements of padding
    }
    expect(world.events.map((e) => [e.step, e.sender, e.receiver, e.offset, e.length])).toEqual([
      [0, 0, 1, 0, 5], [0, 1, 2, 5, 5], [0, 2, 3, 10, 5], [0, 3, 0, 15, 5],
      [1, 0, 1, 15, 5], [1, 1, 2, 0, 5], [1, 2, 3, 5, 5], [1, 3, 0, 10, 5],
      [2, 0, 1, 10, 5], [2, 1, 2, 15, 5], [2, 2, 3, 0, 5], [2, 3, 0, 5, 5],
    ]);
    expect(world.bytesSent).toEqual([30, 30, 30, 30]); // 3 × 5 elements × 2 bytes (bf16)
  });

  it("the reduce-scatter of a's gradients: each rank keeps the sum of its padded chunks", () => {
    const grad = [Float32Array.from({ length: 16 }, (_, i) => (i < 10 ? i + 1 : 0)), Float32Array.of(1, 2, 3, 0)]; // padded to 4 chunks
    const world = new World([0, 1, 2, 3].map(() => new Float32Array(20)), { alphaS: 0, bandwidthBytesPerS: 1 });
    const out = reduceScatterGroup(world, [[0, 1, 2, 3]], [[0], [1], [2], [3]], { base: 0, chunks: [4, 1] }, [0, 1, 2, 3].map(() => grad), 4);
    expect(out.map((x) => [...x])).toEqual([[4, 8, 12, 16, 4], [20, 24, 28, 32, 8], [36, 40, 0, 0, 12], [0, 0, 0, 0, 0]]);
  });

  it("the schedule: the root (layer b) is gathered first and kept; a is freed after forward and gathered again", () => {
    // the root's pre-backward prefetches a (the group whose backward comes next) before b's backward
    expect(show(fsdpSchedule(plan), ["a", "b"])).toEqual(["unshard g0", "unshard g1", "F a", "reshard g1", "F b", "unshard g1", "B b", "reshard g0", "reduce-scatter g0", "B a", "reshard g1", "reduce-scatter g1", "step"]);
  });
});

describe("fsdpSchedule", () => {
  it("reshard_after_forward true, the default: every block freed after forward, prefetched in backward one group ahead", () => {
    const plan = fullyShard(layers, fsdpModel(DEFAULT_MODEL).calls, { shard: 4 });
    expect(show(fsdpSchedule(plan), names)).toEqual([
      "unshard g0", "F emb", "F proj", "unshard g1", "F blocks.0", "reshard g1", "unshard g2", "F blocks.1", "reshard g2", "F head",
      "unshard g2", "B head", "unshard g1", "B blocks.1", "reshard g2", "reduce-scatter g2", "B blocks.0", "reshard g1", "reduce-scatter g1",
      "B proj", "B emb", "reshard g0", "reduce-scatter g0", "step",
    ]);
  });

  it("an int reshards to the post-forward mesh; false keeps the block; without sync no reduce-scatter; not last: no step", () => {
    const pf = fullyShard(layers, fsdpModel(DEFAULT_MODEL, 2).calls, { shard: 4 });
    const ops = show(fsdpSchedule(pf, { sync: false, last: false, backwardPrefetch: false }), names);
    expect(ops).toEqual(["unshard g0", "F emb", "F proj", "unshard g1", "F blocks.0", "reshard→pf g1", "unshard g2", "F blocks.1", "reshard→pf g2", "F head",
      "B head", "unshard g2", "B blocks.1", "reshard g2", "unshard g1", "B blocks.0", "reshard g1", "B proj", "B emb", "reshard g0"]);
    const keep = fullyShard(layers, fsdpModel(DEFAULT_MODEL, false).calls, { shard: 4 });
    expect(fsdpSchedule(keep).filter((o) => o.op === "unshard")).toHaveLength(3);
  });

  it("set_modules_to_forward_prefetch(n): a group's pre-forward unshards the next n groups", () => {
    const plan = fullyShard(layers, fsdpModel(DEFAULT_MODEL).calls, { shard: 4 });
    expect(show(fsdpSchedule(plan, { forwardPrefetch: 2 }), names).slice(0, 5)).toEqual(["unshard g0", "unshard g1", "unshard g2", "F emb", "F proj"]);
    expect(() => fsdpSchedule(plan, { forwardPrefetch: -1 })).toThrow("forwardPrefetch must be an integer >= 0, got -1");
  });

  it("property: every layer runs forward then backward with its group unshared, each group reduce-scattered once after its backward", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.constantFrom<boolean | number | null>(true, false, null, 2), fc.integer({ min: 0, max: 3 }), fc.boolean(), (blocks, r, fp, bp) => {
      const model = { ...AMP_LIVE_MODEL, numBlocks: blocks };
      const run = trainFsdp({ mesh: { shard: 4 }, model, reshardAfterForward: r, forwardPrefetch: fp, backwardPrefetch: bp, steps: 1 }); // the World refuses any misuse
      const ops = run.records[0].ops.map((o) => o.op);
      expect(ops.filter((o) => o.op === "reduce-scatter")).toHaveLength(blocks + 1);
      expect(ops.filter((o) => o.op === "forward")).toHaveLength(blocks + 3);
    }), { numRuns: 15, seed: 9 });
  });
});

describe("fsdpTimeline: prefetching as overlap", () => {
  const run = (o: object) => trainFsdp({ mesh: { shard: 4 }, model: { ...DEFAULT_MODEL, numBlocks: 4 }, steps: 1, mp: { paramDtype: "bf16", reduceDtype: "fp32" }, ...o }).records[0];

  it("each stream runs one operation at a time, in issue order; the step waits for every collective", () => {
    const { events, totalS } = fsdpTimeline(run({}).ops, 1e9);
    for (const s of ["compute", "communication"] as const) {
      const ev = events.filter((e) => e.stream === s);
      ev.forEach((e, i) => { expect(e.tEnd).toBeGreaterThanOrEqual(e.t); if (i > 0) expect(e.t).toBeGreaterThanOrEqual(ev[i - 1].tEnd); });
    }
    const step = events.find((e) => e.label.startsWith("AdamW"))!;
    expect(step.t).toBeGreaterThanOrEqual(Math.max(...events.filter((e) => e.stream === "communication").map((e) => e.tEnd)));
    expect(totalS).toBe(Math.max(...events.map((e) => e.tEnd)));
  });

  it("the default backward prefetch overlaps the next all-gather with this backward: the step is shorter", () => {
    const rate = 2e8; // compute of a block ≈ one all-gather here
    expect(fsdpTimeline(run({}).ops, rate).totalS).toBeLessThan(fsdpTimeline(run({ backwardPrefetch: false }).ops, rate).totalS);
  });

  it("explicit forward prefetch of one group gives the same overlap as the implicit one; of two, more gathered memory", () => {
    const rate = 2e8, imp = run({}), one = run({ forwardPrefetch: 1 }), two = run({ forwardPrefetch: 2 });
    expect(fsdpTimeline(one.ops, rate).totalS).toBeCloseTo(fsdpTimeline(imp.ops, rate).totalS, 12);
    const gathered = (rec: typeof imp) => { // during forward (the ledger ticks once per operation)
      let live = 0, max = 0;
      const firstBackward = rec.ops.findIndex((o) => o.op.op === "backward") + 1;
      for (const e of rec.memory.filter((x) => x.rank === 0 && x.kind === "gathered" && x.t < firstBackward)) { live += e.op === "alloc" ? e.bytes : -e.bytes; max = Math.max(max, live); }
      return max;
    };
    expect(gathered(one)).toBeGreaterThan(gathered(imp)); // the ledger follows issue order: the next block is allocated before this forward
    expect(gathered(two)).toBeGreaterThan(gathered(one));
    expect(() => fsdpTimeline(imp.ops, 0)).toThrow("computeFlopsPerS must be a finite number > 0, got 0");
  });
});

describe("fsdpStepCommunication", () => {
  it("the example: every parameter in the root, resharded, on 4 ranks: 3 collectives of 3 · 4S, S = 891", () => {
    const { layers: live } = fsdpModel(AMP_LIVE_MODEL);
    const plan = fullyShard(live, [{ modules: "root", reshardAfterForward: true }], { shard: 4 });
    expect(plan.groups[0].paddedShardElements).toBe(891); // 15·8 + 4·24 + 6 + 6·24 + 6 + 6·24 + 6 + 6·59 + 15
    expect(fsdpStepCommunication(plan).elementsSent).toBe(3 * 3 * 4 * 891);
    expect(() => fsdpStepCommunication(plan, { gradAccumSteps: 0 })).toThrow("gradAccumSteps must be an integer >= 1, got 0");
  });
});
