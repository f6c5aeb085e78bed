/**
 * FSDP2 (`fully_shard`) and FSDP1 (FlatParameter) training of lib/nn's model on P simulated ranks.
 */
import { corpus, createModel, flatData, type ModelConfig } from "../nn/index.js";
import { AMP_LIVE_MODEL } from "../amp/charLmSetup.js";
import { TRAIN_PRECISIONS } from "../amp/castArray.js";
import type { CommEvent, Topology } from "../collectives/index.js";
import { fullyShard, type FullyShardCall, type FullyShardPlan, type LayerSpec, type ShardFn, type ShardingLayout } from "./fullyShard.js";
import type { ReshardAfterForward } from "./deviceMesh.js";
import { fsdpSchedule, type FsdpScheduleOptions } from "./fsdpSchedule.js";
import { FsdpWorld, type FsdpOp, type FsdpOpRecord, type MixedPrecisionPolicy } from "./FsdpWorld.js";
import { zeroMicroBatches, type TrainingRunOptions } from "./trainZero.js";
import type { MemoryEvent } from "./MemoryLedger.js";

/** An FSDP run; omitted fields take the defaults named (the model, batches and optimizer as {@link TrainingRunOptions}). */
export interface FsdpConfig extends TrainingRunOptions {
  /** The data-parallel mesh: `{shard: G}` (FSDP over G ranks) or `{replicate: R, shard: G}` (HSDP over R·G ranks). */
  mesh: { replicate?: number; shard: number };
  /** The `fully_shard` calls, bottom-up, the root last (default: one per residual block, then the root). */
  calls?: FullyShardCall[];
  /** With the default calls: every block's `reshard_after_forward` (default null: true), and the root's (default null: false). */
  reshardAfterForward?: ReshardAfterForward;
  rootReshardAfterForward?: ReshardAfterForward;
  /** "per-parameter" (FSDP2, default) or "flat-parameter" (FSDP1's FlatParameter per unit). */
  layout?: ShardingLayout;
  /** Mixed precision (default: none, everything in fp32, as PyTorch's default `MixedPrecisionPolicy()`). */
  mp?: MixedPrecisionPolicy;
  /** false: `set_requires_gradient_sync(False)` on every micro-batch but the last (FSDP1's `no_sync`); default true. */
  requiresGradientSync?: boolean;
  /** `set_modules_to_forward_prefetch` with the next n groups (default 0) and the default backward prefetch (default true). */
  forwardPrefetch?: number;
  backwardPrefetch?: boolean;
  /** Per-parameter layouts (default FSDP2's {@link shardDim0}; exercise 8.5 plugs a student's in). */
  shard?: ShardFn;
  /** Nodes of the cluster: the World's links inside and between nodes (default: one flat network). */
  topology?: Topology;
  /** Replaces the schedule of a micro-batch (the build-it exercise plugs its schedule in here). */
  schedule?: (plan: FullyShardPlan, o: Required<Pick<FsdpScheduleOptions, "sync" | "last">>) => FsdpOp[];
}

/** One optimizer step's record. */
export interface FsdpStepRecord {
  loss: number;
  peakBytes: number[];
  /** Elements and bytes each rank sent (the World's message log). */
  elementsSent: number[];
  bytesSent: number[];
  /** Kept for the first `keepEventsFor` steps (default 1). */
  memory: MemoryEvent[];
  /** The operations as issued; `events` index `commEvents`. */
  ops: FsdpOpRecord[];
  commEvents: CommEvent[];
}

/** What {@link trainFsdp} returns. */
export interface FsdpRun {
  master: Float32Array;
  numParams: number;
  plan: FullyShardPlan;
  records: FsdpStepRecord[];
  losses: number[];
}

/**
 * The course model's layers as `fully_shard` sees them, and the default calls: one per residual block (the
 * transformer block of a real model), then the root (embedding, projection and head, as torchtitan wraps them).
 * @param cfg the model's sizes
 * @returns the layers and the default calls
 * @example fsdpModel(AMP_LIVE_MODEL).calls // [{ modules: ["blocks.0"] }, { modules: "root" }]
 * @see torchtitan `apply_fsdp` (fully_shard each transformer block, then the model); PyTorch `fully_shard` docstring (bottom-up)
 */
export function fsdpModel(cfg: Omit<ModelConfig, "vocabSize">, reshard: ReshardAfterForward = null, rootReshard: ReshardAfterForward = null): { layers: LayerSpec[]; calls: FullyShardCall[] } {
  const model = createModel({ ...cfg, vocabSize: corpus().vocab.size });
  const layers = model.layers.map((l) => ({ name: l.name, params: l.params.map((p) => ({ name: p.name, shape: p.shape })) }));
  const blocks = layers.filter((l) => l.name.startsWith("blocks."));
  return { layers, calls: [...blocks.map((b) => ({ modules: [b.name], reshardAfterForward: reshard })), { modules: "root", reshardAfterForward: rootReshard }] };
}

/**
 * Trains lib/nn's model with FSDP on simulated ranks: parameters sharded per `fully_shard` group (FSDP2's per-parameter
 * Shard(0), or FSDP1's FlatParameter), gathered and freed as {@link fsdpSchedule} issues it, gradients reduce-scattered
 * per group in `reduce_dtype` (all-reduced across replicas in HSDP), AdamW on each rank's fp32 shards. The batches are
 * trainZero's (`zeroMicroBatches`), so the runs compare with DDP and ZeRO on the same data.
 *
 * @param c {@link FsdpConfig}
 * @returns {@link FsdpRun}
 * @throws RangeError naming the field: `mesh.shard must be an integer >= 1, got 0`; `mp.paramDtype must be one of fp32, fp16, bf16, got "fp8"`;
 *   `reshard_after_forward as an int must be a factor of 4 (the shard group size), not 3`; `steps must be an integer >= 1, got 0`; and the schedule errors of {@link FsdpWorld}
 * @example trainFsdp({ mesh: { shard: 4 }, reshardAfterForward: 2, steps: 1 }).records[0].peakBytes.length // 4
 * @see PyTorch `torch/distributed/fsdp/_fully_shard/` at 010ae4a (FSDP2); `_flat_param.py` at fe03cf6 (FSDP1); Zhao et al. 2023, PyTorch FSDP
 */
export function trainFsdp(c: FsdpConfig): FsdpRun {
  const cfg = c.model ?? AMP_LIVE_MODEL;
  const def = fsdpModel(cfg, c.reshardAfterForward ?? null, c.rootReshardAfterForward ?? null);
  const plan = fullyShard(def.layers, c.calls ?? def.calls, c.mesh, c.layout ?? "per-parameter", c.shard);
  const mp = c.mp ?? {};
  for (const k of ["paramDtype", "reduceDtype", "outputDtype"] as const) {
    const v = mp[k];
    if (v !== undefined && v !== null && !TRAIN_PRECISIONS.includes(v)) throw new RangeError(`mp.${k} must be one of ${TRAIN_PRECISIONS.join(", ")}, got ${JSON.stringify(v)}`);
  }
  const steps = c.steps ?? 3, K = c.gradAccumSteps ?? 1, P = plan.mesh.numRanks;
  if (!(Number.isInteger(steps) && steps >= 1)) throw new RangeError(`steps must be an integer >= 1, got ${steps}`);
  const lossScale = c.lossScale ?? 1;
  if (!(Number.isFinite(lossScale) && lossScale > 0)) throw new RangeError(`lossScale must be a finite number > 0, got ${lossScale}`);
  const models = Array.from({ length: P }, () => createModel({ ...cfg, vocabSize: corpus().vocab.size }));
  const fw = new FsdpWorld({ plan, models, mp, optimizer: c.optimizer ?? { kind: "adamw", lr: 1e-2 }, lossScale, cost: c.cost, topology: c.topology }, Float32Array.from(flatData(models[0].params)));
  const batches = zeroMicroBatches({ numRanks: P, stage: 0, model: cfg, batchSize: c.batchSize, seqLen: c.seqLen, steps, seed: c.seed, gradAccumSteps: K });
  const records: FsdpStepRecord[] = [], keep = c.keepEventsFor ?? 1;
  for (let s = 0; s < steps; s++) {
    const from = fw.world.events.length;
    fw.begin(batches[s]);
    for (let m = 0; m < K; m++) {
      const part = { sync: c.requiresGradientSync !== false || m === K - 1, last: m === K - 1 };
      fw.microBatch(m);
      for (const o of c.schedule ? c.schedule(plan, part) : fsdpSchedule(plan, { ...part, forwardPrefetch: c.forwardPrefetch, backwardPrefetch: c.backwardPrefetch })) fw.run(o);
    }
    const events = fw.world.events.slice(from), elementsSent = new Array(P).fill(0), bytesSent = new Array(P).fill(0);
    for (const e of events) { elementsSent[e.sender] += e.length; bytesSent[e.sender] += e.bytes; }
    const kept = s < keep;
    records.push({ loss: fw.end().loss, peakBytes: fw.ledger.peakBytes.slice(), elementsSent, bytesSent, memory: kept ? fw.ledger.events : [], ops: kept ? fw.records.map((o) => ({ ...o, events: [o.events[0] - from, o.events[1] - from] as [number, number] })) : [], commEvents: kept ? events : [] });
  }
  return { master: fw.masterWeights(), numParams: plan.numParams, plan, records, losses: records.map((r) => r.loss) };
}
