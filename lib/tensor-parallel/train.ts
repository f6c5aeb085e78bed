import { AdamW, createModel, forward, backward, sampleBatch, mulberry32, corpus, type Layer, type ModelConfig, type Param, type Activation, type Ops } from "../nn/index.js";
import { TpComm } from "./comm.js";
import { TensorParallelMlp } from "./TensorParallelMlp.js";
import { concatColumns, concatRows } from "./shard.js";

/**
 * Wraps lib/nn's residual MLP block as a tensor-parallel layer on T simulated
 * ranks ({@link TensorParallelMlp}): the same Layer interface, so it drops into
 * a lib/nn model; its params are the per-rank shards (`blocks.0.W1@2` is rank 2's
 * block of W1; b2 has one copy per rank, as in Megatron), and an optimizer that
 * works elementwise (AdamW, SGD) updates them exactly as it would the full tensors.
 * The layer receives the replicated activation and hands rank 0's (identical) output on.
 * @param block a lib/nn `residualMlp` layer (its weights are copied and split)
 * @param comm the group
 * @returns the tensor-parallel layer; `fullParams()` gathers the shards back into lib/nn's [W1, b1, W2, b2]
 * @throws RangeError `block must be a residual-mlp layer, got linear`; `outFeatures (64) must be divisible by T (3)`
 * @example const tp = tensorParallelBlock(model.layers[2], new TpComm(2)); tp.params.length // 8: W1, b1, W2, b2 on each of 2 ranks
 * @see Shoeybi et al. 2019 §3; lib/nn/residualMlp.ts
 */
export function tensorParallelBlock(block: Layer, comm: TpComm): Layer & { mlp: TensorParallelMlp; fullParams(): Float32Array[] } {
  if (block.kind !== "residual-mlp") throw new RangeError(`block must be a residual-mlp layer, got ${block.kind}`);
  const [W1, b1, W2, b2] = block.params;
  const h = block.inFeatures, H = W1.shape[1];
  const mlp = new TensorParallelMlp(comm, { W1: W1.data, b1: b1.data, W2: W2.data, b2: b2.data }, h, H);
  const T = comm.T;
  const params: Param[] = [];
  for (let r = 0; r < T; r++) {
    params.push({ name: `${block.name}.W1@${r}`, shape: [h, H / T], data: mlp.col.weights[r], grad: mlp.col.weightGrads[r] });
    params.push({ name: `${block.name}.b1@${r}`, shape: [H / T], data: mlp.col.biases![r], grad: mlp.col.biasGrads![r] });
    params.push({ name: `${block.name}.W2@${r}`, shape: [H / T, h], data: mlp.row.weights[r], grad: mlp.row.weightGrads[r] });
    params.push({ name: `${block.name}.b2@${r}`, shape: [h], data: mlp.row.biases![r], grad: mlp.row.biasGrads![r] });
  }
  return {
    name: block.name, kind: "residual-mlp", params, inFeatures: h, outFeatures: h, mlp,
    forward(x: Activation, _ops: Ops) {
      const ys = mlp.forward(Array.from({ length: T }, () => x.data), x.rows);
      return { y: { data: ys[0], rows: x.rows, cols: h }, saved: { x, extra: [], bytes: 0 } };
    },
    backward(saved, dy: Activation) {
      const dxs = mlp.backward(Array.from({ length: T }, () => dy.data));
      return { data: dxs[0], rows: saved.x.rows, cols: h };
    },
    flops: block.flops,
    savedBytes: block.savedBytes,
    fullParams: () => [concatColumns(mlp.col.weights, h), concatColumns(mlp.col.biases!, 1), concatRows(mlp.row.weights), mlp.row.biases![0].slice()],
  };
}

/**
 * Options of {@link trainTensorParallel}.
 * @see {@link trainTensorParallel}
 */
export interface TpTrainOptions {
  /** Tensor-parallel size of the blocks. */
  T: number;
  steps: number;
  /** lib/nn model sizes except the vocabulary (default: contextLength 8, embedDim 8, width 16, hiddenDim 32, numBlocks 2, seed 1). */
  model?: Omit<ModelConfig, "vocabSize">;
  batchSize?: number;
  seqLen?: number;
  lr?: number;
  /** Seed of the batches. */
  seed?: number;
}

/**
 * Trains lib/nn's character model twice on the same batches with AdamW: once
 * on one device, once with every residual MLP block tensor-parallel on T
 * simulated ranks ({@link tensorParallelBlock}). Returns both loss curves, the
 * largest weight difference at the end (the TP shards gathered back) and the
 * collectives of the last step.
 * Tolerance: the runs differ only by float32 re-association in the row-parallel
 * sums and the all-reduces (≈ 2⁻²³ relative per step); over 20 AdamW steps the
 * tests require |Δloss| ≤ 1e-4 and max |Δw| ≤ 1e-4.
 * @param o see {@link TpTrainOptions}
 * @returns loss curves, weight difference, last step's communication log
 * @throws RangeError `T must be an integer >= 1, got 0`; `steps must be an integer >= 1, got 0`; `outFeatures (32) must be divisible by T (3)`
 * @example trainTensorParallel({ T: 2, steps: 5 }).maxWeightDiff // < 1e-5
 * @see Shoeybi et al. 2019 §3 (the split is exact algebra, so training matches one device)
 */
export function trainTensorParallel(o: TpTrainOptions): { lossSingle: number[]; lossTp: number[]; maxWeightDiff: number; lastStepLog: TpComm["log"] } {
  if (!Number.isInteger(o.steps) || o.steps < 1) throw new RangeError(`steps must be an integer >= 1, got ${o.steps}`);
  const comm = new TpComm(o.T);
  const { vocab, tokens } = corpus();
  const config: ModelConfig = { vocabSize: vocab.size, ...(o.model ?? { contextLength: 8, embedDim: 8, width: 16, hiddenDim: 32, numBlocks: 2, seed: 1 }) };
  const single = createModel(config);
  const tp = createModel(config);
  const tpBlocks: ReturnType<typeof tensorParallelBlock>[] = [];
  tp.layers = tp.layers.map((l) => (l.kind === "residual-mlp" ? (tpBlocks.push(tensorParallelBlock(l, comm)), tpBlocks[tpBlocks.length - 1]) : l));
  tp.params = tp.layers.flatMap((l) => l.params);
  const lr = o.lr ?? 1e-2;
  const opts = [new AdamW(single.params, { lr }), new AdamW(tp.params, { lr })];
  const rng = mulberry32(o.seed ?? 7);
  const lossSingle: number[] = [], lossTp: number[] = [];
  for (let step = 0; step < o.steps; step++) {
    const batch = sampleBatch(tokens, { batchSize: o.batchSize ?? 4, seqLen: o.seqLen ?? 8, contextLength: config.contextLength }, rng);
    comm.clear();
    [single, tp].forEach((m, i) => {
      const f = forward(m, batch);
      backward(m, f);
      opts[i].step();
      opts[i].zeroGrad();
      (i === 0 ? lossSingle : lossTp).push(f.loss);
    });
  }
  let maxWeightDiff = 0;
  const diff = (a: Float32Array, b: Float32Array) => { for (let i = 0; i < a.length; i++) maxWeightDiff = Math.max(maxWeightDiff, Math.abs(a[i] - b[i])); };
  single.layers.forEach((l, i) => {
    const t = tp.layers[i];
    if (l.kind === "residual-mlp") (t as ReturnType<typeof tensorParallelBlock>).fullParams().forEach((p, j) => diff(l.params[j].data, p));
    else l.params.forEach((p, j) => diff(p.data, t.params[j].data));
  });
  return { lossSingle, lossTp, maxWeightDiff, lastStepLog: comm.log.slice() };
}
