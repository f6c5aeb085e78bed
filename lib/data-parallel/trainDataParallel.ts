import { ringAllReduce, type CollectiveOptions, checkNumRanks } from "../collectives/index.js";
import { mlpLossAndGrad, type Mlp } from "./mlp.js";

/**
 * Options of {@link trainSingleProcess} and {@link trainDdp}.
 * @see the sources of {@link trainSingleProcess}: PyTorch torch.optim.SGD docs (θ ← θ − lr·g without momentum); Li et al. 2020, "PyTorch Distributed", VLDB (DDP's mathematical equivalence with local training)
 */
export interface TrainOptions {
  /** SGD learning rate (> 0). */
  lr: number;
  /** Number of full-batch SGD steps (integer ≥ 0). */
  steps: number;
}

function checkTrain(o: TrainOptions): void {
  if (!(typeof o.lr === "number" && Number.isFinite(o.lr) && o.lr > 0)) throw new RangeError(`lr must be a finite number > 0, got ${o.lr}`);
  if (!Number.isInteger(o.steps) || o.steps < 0) throw new RangeError(`steps must be an integer >= 0, got ${o.steps}`);
}

/**
 * Full-batch SGD on one process: θ ← θ − lr·∇L(θ; whole batch).
 * @returns the final model and the loss before each step
 * @throws RangeError `lr must be a finite number > 0, got 0`
 * @example trainSingleProcess(mlpInit(dims, 1), X, Y, { lr: 0.1, steps: 10 }).losses.length // 10
 * @param model initial model (not modified)
 * @param X (B, D) inputs
 * @param Y (B, O) targets
 * @param o learning rate and number of steps
 * @see PyTorch torch.optim.SGD docs (θ ← θ − lr·g without momentum); Li et al. 2020, "PyTorch Distributed", VLDB (DDP's mathematical equivalence with local training)
 */
export function trainSingleProcess(model: Mlp, X: number[][], Y: number[][], o: TrainOptions): { model: Mlp; losses: number[] } {
  checkTrain(o);
  const params = model.params.slice();
  const losses: number[] = [];
  for (let s = 0; s < o.steps; s++) {
    const { loss, grad } = mlpLossAndGrad({ dims: model.dims, params }, X, Y);
    losses.push(loss);
    for (let i = 0; i < params.length; i++) params[i] -= o.lr * grad[i];
  }
  return { model: { dims: model.dims, params }, losses };
}

/**
 * The samples rank r trains on, as DistributedSampler without shuffling
 * deals them: indices r, r + P, r + 2P, … (no padding here).
 * @example shardIndices(5, 2, 1) // [1, 3]
 * @param numSamples B, samples in the data set
 * @param numRanks P (≥ 1)
 * @param rank r in [0, P)
 * @returns the indices of rank r's samples, ascending
 * @see PyTorch torch.utils.data.DistributedSampler source (`indices[self.rank:self.total_size:self.num_replicas]`)
 */
export function shardIndices(numSamples: number, numRanks: number, rank: number): number[] {
  const out: number[] = [];
  for (let i = rank; i < numSamples; i += numRanks) out.push(i);
  return out;
}

/**
 * DDP on P simulated ranks: every rank starts from the same parameters (the
 * broadcast from rank 0), computes the mean gradient of its own shard, the
 * gradients (as float32) are summed by ring all-reduce and divided by P, and
 * every rank applies the same SGD step. With equal shards (P divides B) the
 * average of the local means is the global mean, so the parameters match
 * single-process training on the whole batch up to float32 rounding of the
 * gradients; with unequal shards the samples of smaller shards weigh more.
 *
 * @param model initial model (copied)
 * @param X (B, D) global batch; Y (B, O)
 * @param o learning rate, steps, `numRanks`, collective options
 * @returns the model of rank 0, every rank's final parameters, the mean of the ranks' local losses per step
 * @throws RangeError `numRanks must be an integer >= 1, got 0`; `lr must be a finite number > 0, got -1`
 * @example trainDdp(mlpInit(dims, 1), X, Y, { lr: 0.1, steps: 10, numRanks: 4 }).losses.length // 10 (one mean loss per step)
 * @see DistributedDataParallel docs ("gradients … averaged"); Li et al. 2020, Sec. 3.1 (mathematical equivalence)
 */
export function trainDdp(model: Mlp, X: number[][], Y: number[][], o: TrainOptions & { numRanks: number; collective?: CollectiveOptions }): { model: Mlp; rankParams: Float64Array[]; losses: number[] } {
  checkTrain(o);
  const P = checkNumRanks(o.numRanks);
  const rankParams = Array.from({ length: P }, () => model.params.slice());
  const shards = Array.from({ length: P }, (_, r) => shardIndices(X.length, P, r));
  const losses: number[] = [];
  for (let s = 0; s < o.steps; s++) {
    const local = rankParams.map((params, r) => mlpLossAndGrad({ dims: model.dims, params }, shards[r].map((i) => X[i]), shards[r].map((i) => Y[i])));
    losses.push(local.reduce((a, l) => a + l.loss, 0) / P);
    const { result } = ringAllReduce(local.map((l) => Float32Array.from(l.grad)), o.collective);
    rankParams.forEach((params, r) => {
      for (let i = 0; i < params.length; i++) params[i] -= o.lr * (result[r][i] / P);
    });
  }
  return { model: { dims: model.dims, params: rankParams[0] }, rankParams, losses };
}
