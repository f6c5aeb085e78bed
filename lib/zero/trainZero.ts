/**
 * ZeRO-DP training of lib/nn's model on P simulated ranks, step by step.
 */
import { corpus, createModel, sampleBatch, mulberry32, flatData, type Batch, type ModelConfig, type AdamWConfig } from "../nn/index.js";
import { AMP_LIVE_MODEL } from "../amp/charLmSetup.js";
import { TRAIN_PRECISIONS, type TrainPrecision } from "../amp/castArray.js";
import { checkNumRanks, type CommEvent, type CostModel } from "../collectives/index.js";
import { checkStage, validateZeroKnobs, type ZeroKnobs, type ZeroStage } from "./validateZeroOptions.js";
import { wrapUnits, type Unit, type WrapPolicy } from "./wrapUnits.js";
import { zeroSchedule, type MicroBatchPart, type ZeroOp } from "./zeroSchedule.js";
import { ZeroWorld, type CollectiveRecord } from "./ZeroWorld.js";
import type { MemoryEvent } from "./MemoryLedger.js";

/**
 * What every simulated data-parallel run of this chapter takes (ZeRO and FSDP): the model, its batches, the optimizer
 * and the links. Omitted fields take the defaults named.
 * @see nanoGPT train.py (batch_size, block_size); PyTorch torch.optim.AdamW
 */
export interface TrainingRunOptions {
  /** lib/nn model sizes (default lib/amp's AMP_LIVE_MODEL). */
  model?: Omit<ModelConfig, "vocabSize">;
  /** Sequences per rank per step (default 2). */
  batchSize?: number;
  /** Predictions per sequence (default 8). */
  seqLen?: number;
  /** Optimizer steps (default 3). */
  steps?: number;
  /** Seed of the batches (default 0). */
  seed?: number;
  /** Static loss scale S (default 1; fp16 usually needs more). */
  lossScale?: number;
  /** AdamW (default lr 1e-2, PyTorch's other defaults). */
  optimizer?: AdamWConfig;
  /** K, micro-batches per optimizer step (default 1); the loss is normalised by the tokens of the whole step. */
  gradAccumSteps?: number;
  /** Keep memory events and collectives of the first k steps (default 1). */
  keepEventsFor?: number;
  /** α-β cost of the links (default lib/collectives' 5 µs, 25 GB/s). */
  cost?: CostModel;
}

/** A ZeRO run. Omitted fields take the defaults named. */
export interface ZeroConfig extends TrainingRunOptions {
  /** P, data-parallel ranks (integer ≥ 1). */
  numRanks: number;
  /** 0 (DDP), 1, 2 or 3. */
  stage: number;
  /** Compute copy: "bf16" (default), "fp16" or "fp32" (then there is no separate master copy). */
  precision?: TrainPrecision;
  /** Precision of the gradient reduction (default: `precision`, as DeepSpeed and FSDP's reduce_dtype=None). */
  reduceDtype?: TrainPrecision;
  /**
   * DeepSpeed's zero_optimization knobs (DeepSpeed's defaults), except `stage3_param_persistence_threshold`, which
   * defaults to 10 × the model's width, the Hugging Face integration's "auto" value: DeepSpeed's 1e5 exceeds every
   * tensor of the course's models, so stage 3 would shard nothing. Set it to 0 to shard every tensor.
   */
  knobs?: Partial<ZeroKnobs>;
  /** Wrapping units (default "layer"). */
  wrap?: WrapPolicy;
  /** Stage 3: free after forward and gather again in backward (default true; false is FSDP's SHARD_GRAD_OP). */
  reshardAfterForward?: boolean;
  /** Replaces the schedule of a micro-batch (the build-it exercise plugs its schedule in here). */
  schedule?: (stage: ZeroStage, units: readonly Unit[], knobs: Required<ZeroKnobs>, part: MicroBatchPart) => ZeroOp[];
  /** Stage 0: DDP under `no_sync`, gradients all-reduced on the last micro-batch only (default true); false all-reduces every micro-batch. */
  noSync?: boolean;
  /** Stages 2–3: DeepSpeed's `engine.coalesce_grad_reduction()`: gradients accumulate unsharded and are reduced once, on the last micro-batch (default false). */
  coalesceGradReduction?: boolean;
  /** Stages 1–2: all-reduce each bucket and keep the owned slice, DeepSpeed's default `use_multi_rank_bucket_allreduce` (default false: the paper's reduce-scatter). */
  multiRankBucketAllreduce?: boolean;
}

/** One step's record. */
export interface ZeroStepRecord {
  step: number;
  loss: number;
  /** Peak bytes per rank during the step. */
  peakBytes: number[];
  /** Elements sent per rank (from the World's message log). */
  elementsSent: number[];
  /** Memory and collectives (empty after the first `keepEventsFor` steps). */
  memory: MemoryEvent[];
  collectives: CollectiveRecord[];
  commEvents: CommEvent[];
  ops: ZeroOp[];
}

/** What {@link trainZero} returns. */
export interface ZeroRun {
  /** Final fp32 master weights, Ψ elements in `model.params` order (concatenated from the owners). */
  master: Float32Array;
  /** Ψ. */
  numParams: number;
  units: Unit[];
  records: ZeroStepRecord[];
  losses: number[];
}

/**
 * The Hugging Face Trainer's "auto" value of `stage3_param_persistence_threshold`: 10 × hidden size. On the course's
 * models it keeps the biases whole on every rank and shards every matrix, as DeepSpeed's default 1e5 does on a
 * model of hidden size 4096 (biases and norms of 4,096 elements persistent, matrices of 16.7 M sharded).
 * @param hiddenSize the model's width (integer ≥ 1)
 * @returns the threshold in elements
 * @example autoPersistenceThreshold(32) // 320
 * @see Hugging Face transformers `integrations/deepspeed.py` (`HfTrainerDeepSpeedConfig.trainer_config_finalize`: `10 * hidden_size`)
 */
export function autoPersistenceThreshold(hiddenSize: number): number {
  return 10 * hiddenSize;
}

/**
 * The batches of a ZeRO or DDP run: step s, rank r gets the (s·P + r)-th batch of one seeded sampler.
 * @param c the run's config (numRanks, model, batchSize, seqLen, steps, seed)
 * @returns batches[step][rank]
 * @example zeroBatches({ numRanks: 2, stage: 0, steps: 1 })[0].length // 2
 * @see nanoGPT train.py get_batch (random windows); PyTorch DistributedSampler (each rank its own samples)
 */
export function zeroBatches(c: ZeroConfig): Batch[][] {
  return zeroMicroBatches({ ...c, gradAccumSteps: 1 }).map((step) => step[0]);
}

/**
 * The batches of a run with K micro-batches per step: step s, micro-batch m, rank r gets the ((s·K + m)·P + r)-th
 * batch of one seeded sampler (K = 1: {@link zeroBatches}).
 * @param c the run's config (numRanks, model, batchSize, seqLen, steps, seed, gradAccumSteps)
 * @returns batches[step][microBatch][rank]
 * @throws RangeError `gradAccumSteps must be an integer >= 1, got 0`
 * @example zeroMicroBatches({ numRanks: 2, stage: 0, steps: 1, gradAccumSteps: 3 })[0].length // 3
 * @see PyTorch DistributedSampler; Hugging Face Trainer `gradient_accumulation_steps` (K micro-batches per optimizer step)
 */
export function zeroMicroBatches(c: ZeroConfig): Batch[][][] {
  const K = c.gradAccumSteps ?? 1;
  if (!(Number.isInteger(K) && K >= 1)) throw new RangeError(`gradAccumSteps must be an integer >= 1, got ${String(K)}`);
  const { tokens } = corpus();
  const rng = mulberry32(c.seed ?? 0);
  const cfg = c.model ?? AMP_LIVE_MODEL;
  const one = () => sampleBatch(tokens, { batchSize: c.batchSize ?? 2, seqLen: c.seqLen ?? 8, contextLength: cfg.contextLength }, rng);
  return Array.from({ length: c.steps ?? 3 }, () => Array.from({ length: K }, () => Array.from({ length: c.numRanks }, one)));
}

/**
 * Which micro-batches reduce their gradients, as DDP and DeepSpeed do under accumulation: stage 0 under `no_sync` and
 * stage 1 only the last; stage 0 without `no_sync` and stages 2–3 every one (DeepSpeed engine.py: "ZeRO stage >= 2
 * communicates during non gradient accumulation boundaries as well"), unless `coalesceGradReduction`.
 * @param stage 0–3
 * @param c noSync (stage 0, default true), coalesceGradReduction (stages 2–3, default false)
 * @returns true when every micro-batch reduces
 * @example reducesEveryMicroBatch(2, {}) // true
 * @see DeepSpeed edaa722 `runtime/engine.py` (`allreduce_gradients`, `no_sync`, `coalesce_grad_reduction`); PyTorch `DistributedDataParallel.no_sync`
 */
export function reducesEveryMicroBatch(stage: ZeroStage, c: Pick<ZeroConfig, "noSync" | "coalesceGradReduction">): boolean {
  if (c.noSync !== undefined && stage !== 0) throw new RangeError(`noSync applies to stage 0, got stage ${stage} (stage 1 reduces at the boundary; DeepSpeed's no_sync refuses stages 2 and 3)`);
  if (c.coalesceGradReduction && stage === 0) throw new RangeError("coalesceGradReduction needs stage 1, 2 or 3, got stage 0");
  return stage === 0 ? c.noSync === false : stage >= 2 && !c.coalesceGradReduction;
}

/**
 * Trains lib/nn's model with ZeRO-DP on P simulated ranks in mixed precision:
 * a 16-bit compute copy (bf16 or fp16), an fp32 master and AdamW moments
 * partitioned over the ranks (stage ≥ 1), gradients reduce-scattered in
 * buckets into their owners (freed elsewhere at stage ≥ 2), parameters
 * partitioned and gathered per unit (stage 3). Every collective runs on
 * lib/collectives' World; memory is an event log.
 *
 * The partition is the flat one of the ZeRO paper (rank r owns
 * chunkBounds(Ψ, P)[r]), the split of ring all-reduce: each element is summed
 * in the same order as DDP's ring all-reduce, so every stage gives DDP's
 * weights bit for bit. With K micro-batches per step (`gradAccumSteps`), each
 * micro-batch runs its part of the schedule ({@link reducesEveryMicroBatch});
 * the message log then equals `zeroStepCommunication`'s count for the stage.
 *
 * @param c {@link ZeroConfig}
 * @returns {@link ZeroRun}
 * @throws RangeError naming the field: `numRanks must be an integer >= 1, got 0`; `stage must be 0, 1, 2 or 3, got 4`;
 *   `reduce_bucket_size must be an integer >= 1 element, got 0`; `lossScale must be a finite number > 0, got 0`;
 *   `precision must be one of fp32, fp16, bf16, got "fp8"`; `gradAccumSteps must be an integer >= 1, got 0`;
 *   `noSync applies to stage 0, got stage 2 (…)`; and the schedule errors of {@link ZeroWorld}
 * @example trainZero({ numRanks: 4, stage: 3, steps: 2 }).losses.length // 2
 * @see Rajbhandari et al. 2020, ZeRO: Memory Optimizations Toward Training Trillion Parameter Models, §5 and §7; DeepSpeed stage_1_and_2.py, stage3.py
 */
export function trainZero(c: ZeroConfig): ZeroRun {
  const P = checkNumRanks(c.numRanks);
  const stage = checkStage(c.stage);
  const modelCfg = c.model ?? AMP_LIVE_MODEL;
  const knobs = validateZeroKnobs({ stage3_param_persistence_threshold: autoPersistenceThreshold(modelCfg.width), ...c.knobs }, stage);
  const precision = c.precision ?? "bf16", reduceDtype = c.reduceDtype ?? precision;
  for (const [k, v] of [["precision", precision], ["reduceDtype", reduceDtype]] as const) {
    if (!TRAIN_PRECISIONS.includes(v)) throw new RangeError(`${k} must be one of ${TRAIN_PRECISIONS.join(", ")}, got ${JSON.stringify(v)}`);
  }
  const lossScale = c.lossScale ?? 1;
  if (!(Number.isFinite(lossScale) && lossScale > 0)) throw new RangeError(`lossScale must be a finite number > 0, got ${lossScale}`);
  const steps = c.steps ?? 3;
  if (!(Number.isInteger(steps) && steps >= 1)) throw new RangeError(`steps must be an integer >= 1, got ${steps}`);
  const { vocab } = corpus();
  const cfg = { ...modelCfg, vocabSize: vocab.size };
  const models = Array.from({ length: P }, () => createModel(cfg));
  const threshold = stage === 3 ? knobs.stage3_param_persistence_threshold : 0;
  const units = wrapUnits(models[0].layers.map((l) => ({ name: l.name, params: l.params.map((p) => ({ name: p.name, numel: p.data.length })) })), c.wrap ?? "layer", threshold);
  const zw = new ZeroWorld({ stage, models, units, knobs, precision, reduceDtype, optimizer: c.optimizer ?? { kind: "adamw", lr: 1e-2 }, lossScale, cost: c.cost, multiRankBucketAllreduce: c.multiRankBucketAllreduce }, Float32Array.from(flatData(models[0].params)));
  const batches = zeroMicroBatches({ ...c, steps });
  const every = reducesEveryMicroBatch(stage, c);
  const records: ZeroStepRecord[] = [];
  const keep = c.keepEventsFor ?? 1;
  for (let s = 0; s < steps; s++) {
    const K = batches[s].length, ops: ZeroOp[] = [];
    zw.begin(batches[s]);
    for (let m = 0; m < K; m++) {
      const part = { reduce: every || m === K - 1, last: m === K - 1 };
      const mOps = c.schedule ? c.schedule(stage, units, knobs, part) : zeroSchedule(stage, units, knobs, c.reshardAfterForward ?? true, part);
      zw.microBatch(m);
      for (const o of mOps) zw.run(o);
      ops.push(...mOps);
    }
    const { loss, commEvents } = zw.end();
    const elementsSent = new Array(P).fill(0);
    for (const e of commEvents) elementsSent[e.sender] += e.length;
    const kept = s < keep;
    records.push({ step: s, loss, peakBytes: zw.ledger.peakBytes.slice(), elementsSent, memory: kept ? zw.ledger.events : [], collectives: kept ? zw.collectives : [], commEvents: kept ? commEvents : [], ops: kept ? ops : [] });
  }
  return { master: zw.masterWeights(), numParams: zw.numElements, units, records, losses: records.map((r) => r.loss) };
}
