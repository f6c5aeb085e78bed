import { checkNumRanks, type CommEvent, type CostModel } from "../collectives/index.js";
import { mlpLossAndGrad, type Mlp } from "./mlp.js";
import { shardIndices, type TrainOptions } from "./trainDataParallel.js";
import { createGradCluster, type GradCluster } from "./createGradCluster.js";
import type { BucketCaps, DdpReducer } from "./createDdpReducer.js";

/**
 * A reducer factory: what {@link trainDdpBucketed} calls once per step, with a fresh cluster.
 * @see {@link createDdpReducer} (the course's reducer)
 */
export type CreateReducer = (cluster: GradCluster, paramSizes: number[], caps: BucketCaps) => DdpReducer;

/**
 * Options of {@link trainDdpBucketed}.
 * @see {@link trainDdpBucketed}
 */
export interface BucketedTrainOptions extends TrainOptions {
  numRanks: number;
  caps: BucketCaps;
  createReducer: CreateReducer;
  /** Link of every rank (default {@link TOY_LINK}). */
  cost?: CostModel;
  /** Order in which the parameters' gradients become ready, a permutation of 0…3 (default [3, 2, 1, 0]: reverse forward order). */
  readyOrder?: number[];
  /** Backward time per gradient value in ms (default 0.002): parameter i is ready this much × its size after the previous one. */
  backwardMsPerValue?: number;
}

/**
 * What happened in one step's backward: when each parameter's gradient became
 * ready, when backward ended, and every message of the reducer.
 * @see {@link trainDdpBucketed}
 */
export interface BucketedStepLog {
  /** readyMs[i]: when parameter i's gradient was written, ms from the start of backward. */
  readyMs: number[];
  backwardMs: number;
  /** The reducer's messages, times in seconds from the start of backward (lib/collectives' CommEvent). */
  events: CommEvent[];
}

/**
 * A slow link for the toy model, so that its all-reduces last about as long as
 * its backward: α = 10 µs, 1 MB/s. Not a real link: the figures of the page
 * use {@link LINK_PRESETS}.
 * @example TOY_LINK.bandwidthBytesPerS // 1e6
 * @see lib/collectives/linkPresets.ts for real links
 */
export const TOY_LINK: Readonly<CostModel> = Object.freeze({ alphaS: 10e-6, bandwidthBytesPerS: 1e6 });

/**
 * DDP training of the chapter's MLP on P simulated ranks, with a pluggable
 * reducer. Each step: every rank computes the mean gradient of its shard
 * (DistributedSampler's dealing); backward delivers the four parameters'
 * gradients (W1, b1, W2, b2 in forward order, one flat float32 buffer per
 * rank) in `readyOrder`, writing each into every rank's buffer and calling
 * `reducer.gradReady(i)` at its ready time; then `reducer.finish()`; then every
 * rank steps SGD with the gradient left in its own buffer. With a correct
 * reducer (mean over ranks) and equal shards, the weights equal single-process
 * training up to float32 rounding of the gradients.
 *
 * @param model initial model (copied)
 * @param X (B, D) global batch; Y (B, O)
 * @param o lr, steps, P, bucket caps, the reducer factory, link, ready order, backward speed
 * @returns every rank's final parameters, rank 0's model, the mean loss per step and each step's log
 * @throws RangeError `readyOrder must be a permutation of 0…3, got [3,3,1,0]`; `numRanks must be an integer >= 1, got 0`;
 *   whatever the reducer throws
 * @example trainDdpBucketed(mlpInit(dims, 5), X, Y, { lr: 0.2, steps: 10, numRanks: 4, caps: { bucketCapBytes: 64, firstBucketCapBytes: 32 }, createReducer: createDdpReducer }).losses.length // 10
 * @see Li et al. 2020, VLDB, §3 (DDP: hooks, buckets, overlap); PyTorch DistributedSampler (sharding)
 */
export function trainDdpBucketed(model: Mlp, X: number[][], Y: number[][], o: BucketedTrainOptions): { model: Mlp; rankParams: Float64Array[]; losses: number[]; log: BucketedStepLog[] } {
  if (!(typeof o.lr === "number" && Number.isFinite(o.lr) && o.lr > 0)) throw new RangeError(`lr must be a finite number > 0, got ${o.lr}`);
  if (!Number.isInteger(o.steps) || o.steps < 0) throw new RangeError(`steps must be an integer >= 0, got ${o.steps}`);
  const P = checkNumRanks(o.numRanks);
  const { inputDim: D, hiddenDim: H, outputDim: O } = model.dims;
  const sizes = [H * D, H, O * H, O]; // W1 (H, D), b1 (H), W2 (O, H), b2 (O)
  const offsets = [0, H * D, H * D + H, H * D + H + O * H];
  const order = o.readyOrder ?? [3, 2, 1, 0];
  if (order.length !== 4 || [...order].sort().join() !== "0,1,2,3") throw new RangeError(`readyOrder must be a permutation of 0…3, got [${order.join(",")}]`);
  const msPerValue = o.backwardMsPerValue ?? 0.002;
  const n = model.params.length;
  const rankParams = Array.from({ length: P }, () => model.params.slice());
  const shards = Array.from({ length: P }, (_, r) => shardIndices(X.length, P, r));
  const losses: number[] = [];
  const log: BucketedStepLog[] = [];
  for (let s = 0; s < o.steps; s++) {
    const local = rankParams.map((params, r) => mlpLossAndGrad({ dims: model.dims, params }, shards[r].map((i) => X[i]), shards[r].map((i) => Y[i])));
    losses.push(local.reduce((a, l) => a + l.loss, 0) / P);
    const ctl = createGradCluster(P, n, o.cost ?? TOY_LINK);
    const reducer = o.createReducer(ctl.cluster, sizes.slice(), { ...o.caps });
    const readyMs = new Array<number>(4).fill(0);
    let t = 0;
    for (const i of order) {
      t += sizes[i] * msPerValue;
      readyMs[i] = t;
      ctl.setNowMs(t);
      for (let r = 0; r < P; r++) ctl.cluster.grads[r].set(local[r].grad.subarray(offsets[i], offsets[i] + sizes[i]), offsets[i]);
      reducer.gradReady(i);
    }
    ctl.setNowMs(t);
    reducer.finish();
    rankParams.forEach((params, r) => {
      const g = ctl.cluster.grads[r];
      for (let i = 0; i < n; i++) params[i] -= o.lr * g[i];
    });
    log.push({ readyMs, backwardMs: t, events: ctl.events.slice() });
  }
  return { model: { dims: model.dims, params: rankParams[0] }, rankParams, losses, log };
}
