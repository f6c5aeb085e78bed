import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { trainZero } from "./trainZero.js";
import { zeroStepCommunication } from "./zeroStepCommunication.js";

/** The paper's design (reduce-scatter volume), one micro-batch per step: what the simulation runs. */
const paperSent = (stage: number, numParams: number, P: number, persistentParams = 0) => zeroStepCommunication({ stage, dataParallel: P, numParams, multiRankBucketAllreduce: false, persistentParams }).elementsSent;
import { zeroSchedule } from "./zeroSchedule.js";
import { validateZeroKnobs } from "./validateZeroOptions.js";

const sum = (a: number[]) => a.reduce((s, x) => s + x, 0);

describe("communication from the event log", () => {
  it("a step sends 2(P−1)Ψ elements at stages 0–2 and 3(P−1)Ψ at stage 3 (ZeRO §7.2), for P not dividing Ψ", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.constantFrom(0, 1, 2, 3), fc.integer({ min: 50, max: 5000 }), (P, stage, bucket) => {
      const run = trainZero({ numRanks: P, stage, steps: 1, knobs: { reduce_bucket_size: bucket, allgather_bucket_size: bucket, stage3_param_persistence_threshold: 0 } });
      const sent = sum(run.records[0].elementsSent);
      expect(sent).toBe(paperSent(stage, run.numParams, P));
      expect(sent).toBe((stage === 3 ? 3 : 2) * (P - 1) * 3555); // the closed form, written out
    }), { numRuns: 12, seed: 3 });
  });

  it("per rank, stage 3 sends 1.5× what stage 2 sends (P = 5 divides Ψ = 3,555: exactly 3Ψ(P−1)/P vs 2Ψ(P−1)/P)", () => {
    const s2 = trainZero({ numRanks: 5, stage: 2, steps: 1 }).records[0].elementsSent;
    const s3 = trainZero({ numRanks: 5, stage: 3, steps: 1, knobs: { stage3_param_persistence_threshold: 0 } }).records[0].elementsSent;
    expect(s2).toEqual(new Array(5).fill(2 * 3555 * 4 / 5));
    expect(s3).toEqual(new Array(5).fill(3 * 3555 * 4 / 5));
  });

  it("persistent tensors (stage3_param_persistence_threshold) are not gathered per unit: 2(P−1) per element instead of 3(P−1)", () => {
    const run = trainZero({ numRanks: 4, stage: 3, steps: 1, knobs: { stage3_param_persistence_threshold: 100 } });
    const persistent = run.units.flatMap((u) => u.params).filter((p) => p.persistent).reduce((n, p) => n + p.end - p.start, 0);
    expect(persistent).toBeGreaterThan(0);
    expect(sum(run.records[0].elementsSent)).toBe(paperSent(3, 3555, 4, persistent));
  });
});

describe("memory from the event log", () => {
  const peak = (stage: number, extra = {}) => Math.max(...trainZero({ numRanks: 4, stage, steps: 1, knobs: { reduce_bucket_size: 200, stage3_param_persistence_threshold: 0, contiguous_gradients: false }, ...extra }).records[0].peakBytes);

  it("the peak per rank falls with every stage (P = 4, bf16)", () => {
    const p = [0, 1, 2, 3].map((s) => peak(s));
    expect(p[1]).toBeLessThan(p[0]);
    expect(p[2]).toBeLessThan(p[1]);
    expect(p[3]).toBeLessThan(p[2]);
  });

  it("stage 0's resident model states are 2 + 2 + 12 bytes per parameter, as the ZeRO paper's K = 12 count (16Ψ)", () => {
    const run = trainZero({ numRanks: 2, stage: 0, steps: 1 });
    const resident = run.records[0].memory.filter((e) => e.t === 0 && e.rank === 0).reduce((n, e) => n + e.bytes, 0);
    expect(resident).toBe(14 * 3555); // 2 (bf16 params) + 12 (fp32 master, m, v); the gradients come with backward
    const grads = run.records[0].memory.filter((e) => e.rank === 0 && e.kind === "grads" && e.op === "alloc").reduce((n, e) => n + e.bytes, 0);
    expect(grads).toBe(2 * 3555);
  });

  it("wrapping only the root gathers every parameter at once: stage 3's peak rises above wrapping each layer", () => {
    expect(peak(3, { wrap: "root" })).toBeGreaterThan(peak(3, { wrap: "layer" }));
  });

  it("every alloc is freed except the resident states, and no rank frees what it does not hold", () => {
    const run = trainZero({ numRanks: 3, stage: 3, steps: 1 });
    for (let r = 0; r < 3; r++) {
      const ev = run.records[0].memory.filter((e) => e.rank === r);
      const live = ev.at(-1)!.live;
      const resident = ev.filter((e) => e.t === 0).reduce((n, e) => n + e.bytes, 0);
      expect(live).toBe(resident);
    }
  });
});

describe("DeepSpeed's knobs change the events", () => {
  const count = (knobs: object, stage = 3, kind?: string) => trainZero({ numRanks: 4, stage, steps: 1, knobs }).records[0].collectives.filter((c) => !kind || c.kind === kind).length;

  it("reduce_bucket_size: smaller buckets, more reduce-scatters", () => {
    expect(count({ reduce_bucket_size: 100 }, 2, "reduce-scatter")).toBeGreaterThan(count({ reduce_bucket_size: 5e8 }, 2, "reduce-scatter"));
    expect(count({ reduce_bucket_size: 5e8 }, 2, "reduce-scatter")).toBe(1);
  });

  it("allgather_bucket_size: stage 2 all-gathers the updated parameters in ⌈Ψ/size⌉ collectives", () => {
    expect(count({ allgather_bucket_size: 1000 }, 2, "all-gather")).toBe(4);
  });

  it("stage3_prefetch_bucket_size and stage3_max_live_parameters: prefetch raises the gathered peak; the live cap lowers it", () => {
    const gathered = (knobs: object) => {
      const mem = trainZero({ numRanks: 4, stage: 3, steps: 1, knobs: { stage3_param_persistence_threshold: 0, ...knobs } }).records[0].memory.filter((e) => e.rank === 0 && e.kind === "gathered");
      let live = 0, max = 0;
      for (const e of mem) { live += e.op === "alloc" ? e.bytes : -e.bytes; max = Math.max(max, live); }
      return max;
    };
    expect(gathered({ stage3_prefetch_bucket_size: 1e6 })).toBeGreaterThan(gathered({ stage3_prefetch_bucket_size: 1 }));
    expect(gathered({ stage3_prefetch_bucket_size: 1e6, stage3_max_live_parameters: 1 })).toBe(gathered({ stage3_prefetch_bucket_size: 1 }));
  });

  it("overlap_comm and contiguous_gradients: a bucket buffer, doubled with overlap_comm", () => {
    const bucket = (knobs: object) => Math.max(0, ...trainZero({ numRanks: 2, stage: 2, steps: 1, knobs: { reduce_bucket_size: 500, ...knobs } }).records[0].memory.filter((e) => e.kind === "bucket" && e.rank === 0 && e.op === "alloc").map((e) => e.bytes));
    expect(bucket({ contiguous_gradients: false })).toBe(0);
    expect(bucket({ contiguous_gradients: true, overlap_comm: false })).toBe(1000);
    expect(bucket({ contiguous_gradients: true, overlap_comm: true })).toBe(2000);
  });
});

describe("bad input and impossible schedules", () => {
  it("errors name the field", () => {
    expect(() => trainZero({ numRanks: 0, stage: 1 })).toThrow(/numRanks must be an integer >= 1, got 0/);
    expect(() => trainZero({ numRanks: 2, stage: 4 })).toThrow(/stage must be 0, 1, 2 or 3, got 4/);
    expect(() => trainZero({ numRanks: 2, stage: 2, knobs: { reduce_bucket_size: 0 } })).toThrow(/reduce_bucket_size must be an integer >= 1 element, got 0/);
    expect(() => trainZero({ numRanks: 2, stage: 2, knobs: { allgather_bucket_size: 0.5 } })).toThrow(/allgather_bucket_size/);
    expect(() => trainZero({ numRanks: 2, stage: 2, lossScale: 0 })).toThrow(/lossScale must be a finite number > 0, got 0/);
  });

  it("a stage-3 schedule without the gather before backward stops with the unit and rank named", () => {
    const schedule = (s: 0 | 1 | 2 | 3, u: never[], k: never) => zeroSchedule(s, u, k).filter((o, i, all) => !(o.op === "gather" && all.slice(0, i).some((p) => p.op === "backward")));
    expect(() => trainZero({ numRanks: 2, stage: 3, steps: 1, knobs: { stage3_param_persistence_threshold: 0, stage3_prefetch_bucket_size: 1 }, schedule: schedule as never })).toThrow(/backward of unit blocks\.0 on rank 0: parameter blocks\.0\.[Wb]\d is not gathered/);
  });

  it("zeroSchedule(3) gathers every unit twice (forward and backward) when nothing persists", () => {
    const units = trainZero({ numRanks: 2, stage: 3, steps: 1, knobs: { stage3_param_persistence_threshold: 0 } }).units;
    const ops = zeroSchedule(3, units, validateZeroKnobs({ stage3_prefetch_bucket_size: 1 }, 3));
    expect(ops.filter((o) => o.op === "gather").length).toBe(2 * units.length);
  });
});

describe("FSDP strategies in the simulation", () => {
  it("SHARD_GRAD_OP (stage 3 without reshard after forward) trains to DDP's weights with 2(P−1)Ψ of traffic and a higher peak than FULL_SHARD", () => {
    const knobs = { stage3_param_persistence_threshold: 0, reduce_bucket_size: 900, stage3_prefetch_bucket_size: 1 }; // no prefetch (the default would gather this small model whole)
    const ddp = trainZero({ numRanks: 6, stage: 0, steps: 2 });
    const sgo = trainZero({ numRanks: 6, stage: 3, steps: 2, reshardAfterForward: false, knobs });
    const full = trainZero({ numRanks: 6, stage: 3, steps: 2, knobs });
    expect(sgo.master).toEqual(ddp.master);
    expect(sum(sgo.records[0].elementsSent)).toBe(paperSent(2, 3555, 6));
    expect(Math.max(...sgo.records[0].peakBytes)).toBeGreaterThan(Math.max(...full.records[0].peakBytes));
  });

  it("SHARD_GRAD_OP is ZeRO-2-like at its peak: at the forward/backward turn every unit is gathered, the whole model's 16-bit parameters resident", () => {
    const knobs = { stage3_param_persistence_threshold: 0, stage3_prefetch_bucket_size: 1 };
    const gatheredPeak = (reshardAfterForward: boolean) => {
      const r = trainZero({ numRanks: 6, stage: 3, steps: 1, reshardAfterForward, knobs });
      let live = 0, max = 0;
      for (const e of r.records[0].memory.filter((x) => x.rank === 0 && x.kind === "gathered")) { live += e.op === "alloc" ? e.bytes : -e.bytes; max = Math.max(max, live); }
      return max;
    };
    const ownShardBytes = 2 * Math.ceil(3555 / 6), modelBytes = 2 * 3555; // bf16
    expect(gatheredPeak(false) + ownShardBytes).toBeGreaterThanOrEqual(modelBytes);
    expect(gatheredPeak(true)).toBeLessThan(modelBytes / 2);
  });

  it("MixedPrecision(param_dtype=bf16, reduce_dtype=fp32): the same run with fp32 sums differs from the bf16-reduced one", () => {
    const a = trainZero({ numRanks: 8, stage: 3, steps: 2, reduceDtype: "fp32" });
    const b = trainZero({ numRanks: 8, stage: 3, steps: 2, reduceDtype: "bf16" });
    expect(a.master).not.toEqual(b.master);
    expect(a.master).toEqual(trainZero({ numRanks: 8, stage: 0, steps: 2, reduceDtype: "fp32" }).master);
  });
});
