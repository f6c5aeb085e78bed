import {
  AdamW, backward, batchInput, corpus, createModel, crossEntropy, crossEntropyBackward, cpuOps, forward, groupBounds, mulberry32, sampleBatch, topKRouting,
  DEFAULT_MODEL, type Activation, type Batch, type Layer, type Model, type ModelConfig, type MoeLayer, type MoeOptions, type Param, type Saved,
} from "../nn/index.js";
import { ringAllReduce, type CostModel, type Topology } from "../collectives/index.js";
import { EpComm, type EpCommRecord } from "./EpComm.js";
import { expertParallelMoe } from "./expertParallelMoe.js";
import type { EpGroup, EpMoeOptions, EpMoeStep, EpRank } from "./types.js";
import { localExpertCount } from "./expertPlacement.js";

/**
 * Options of {@link trainExpertParallel}.
 * @see the sources of {@link trainExpertParallel}
 */
export interface TrainExpertParallelOptions {
  /** P, ranks of the expert-parallel (and data-parallel) group. */
  epSize: number;
  steps: number;
  /** The MoE blocks (numGroups is set to P for the one-device run). */
  moe: MoeOptions;
  /** Model sizes (default lib/nn's DEFAULT_MODEL). */
  model?: Partial<Omit<ModelConfig, "vocabSize" | "moe">>;
  /** Sequences and positions per step (default 8 × 16) and the sampler's seed (default 0). */
  batchSize?: number;
  seqLen?: number;
  dataSeed?: number;
  /** AdamW learning rate (default 1e-2). */
  lr?: number;
  cost?: CostModel;
  topology?: Topology;
  /** The expert-parallel block to run (default {@link expertParallelMoe}); a student's implementation plugs in here. */
  moeStep?: EpMoeStep;
}

/**
 * What {@link trainExpertParallel} measured.
 * @see the sources of {@link trainExpertParallel}
 */
export interface TrainExpertParallelResult {
  lossSingle: number[];
  lossEp: number[];
  /** Largest |Δ| between the one-device weights and the expert-parallel ones after the last step. */
  maxWeightDiff: number;
  /** Tokens each expert was routed, per step, per MoE block (summed over ranks). */
  routedPerExpert: number[][][];
  /** The expert-parallel group's all-to-alls of the last step. */
  lastStepLog: EpCommRecord[];
  /** Bytes each rank sent in the last step's gradient all-reduce of the replicated (dense) parameters. */
  denseAllReduceBytesPerRank: number;
}

/**
 * Trains lib/nn's model with MoE blocks twice on the same batches: on one device (MoE blocks with numGroups = P:
 * capacity and auxiliary losses per group of rows) and on P simulated ranks, each with 1/P of every batch's rows,
 * the dense layers and the router replicated (their gradients summed by a ring all-reduce, as DDP does) and the
 * experts spread E/P per rank (expert parallelism: each expert's gradient lives on one rank; the expert-data-parallel
 * group has size 1, so nothing reduces it). Loss: the mean cross-entropy over all ranks' tokens. AdamW on both.
 *
 * @param o P, steps, MoE options, sizes, link and nodes, and optionally the expert-parallel block to test
 * @returns both loss curves, the largest weight difference after the last step, router counts, and the last step's all-to-alls
 * @throws {RangeError} `epSize must be an integer >= 1, got 0`; `numExperts (6) must be divisible by epSize (4)`; `steps must be an integer >= 1, got 0`
 * @example trainExpertParallel({ epSize: 2, steps: 5, moe: { numExperts: 4, topK: 2 } }).maxWeightDiff // ≤ 1e-5
 * @see Lepikhin et al. 2020, *GShard* §3 (experts sharded, everything else replicated); Rajbhandari et al. 2022, *DeepSpeed-MoE* (expert parallelism with data parallelism); DeepSpeed `deepspeed/moe/layer.py` (`MoE(ep_size=…)`);
 *   Megatron-LM `megatron/core/parallel_state.py` at d98e8a6 (the expert-data-parallel group: world / (ETP·EP·PP) ranks)
 */
export function trainExpertParallel(o: TrainExpertParallelOptions): TrainExpertParallelResult {
  const P = o.epSize;
  if (!Number.isInteger(o.steps) || o.steps < 1) throw new RangeError(`steps must be an integer >= 1, got ${o.steps}`);
  const L = localExpertCount(o.moe.numExperts, P);
  const { vocab, tokens } = corpus();
  const cfg: ModelConfig = { ...DEFAULT_MODEL, ...o.model, vocabSize: vocab.size, moe: { ...o.moe, numGroups: P } };
  const single = createModel(cfg), replicas = Array.from({ length: P }, () => createModel(cfg));
  const moeIdx = single.layers.flatMap((l, i) => (l.kind === "moe" ? [i] : []));
  const epRanks = moeIdx.map((li) => replicas.map((m, r): EpRank => { const l = m.layers[li] as MoeLayer; return { router: l.router, experts: l.experts.slice(r * L, (r + 1) * L), expertBias: l.expertBias }; }));
  const dense = (m: Model) => m.layers.flatMap((l) => (l.kind === "moe" ? [(l as MoeLayer).router] : l.params));
  const owned = (r: number) => moeIdx.flatMap((_, b) => epRanks[b][r].experts.flatMap((e) => [e.W1, e.b1, e.W2, e.b2]));
  const lr = o.lr ?? 1e-2;
  const optSingle = new AdamW(single.params, { lr });
  const opts = replicas.map((m, r) => new AdamW([...dense(m), ...owned(r)], { lr }));
  const layerOptions = (single.layers[moeIdx[0]] as MoeLayer | undefined)?.options;
  const epOptions: EpMoeOptions | undefined = layerOptions && { ...layerOptions, hiddenSize: single.config.width };
  const step: EpMoeStep = o.moeStep ?? expertParallelMoe;
  const rng = mulberry32(o.dataSeed ?? 0);
  const res: TrainExpertParallelResult = { lossSingle: [], lossEp: [], maxWeightDiff: 0, routedPerExpert: [], lastStepLog: [], denseAllReduceBytesPerRank: 0 };
  for (let s = 0; s < o.steps; s++) {
    const batch = sampleBatch(tokens, { batchSize: o.batchSize ?? 8, seqLen: o.seqLen ?? 16, contextLength: cfg.contextLength }, rng);
    // one device
    const f = forward(single, batch);
    backward(single, f);
    optSingle.step(); optSingle.zeroGrad();
    res.lossSingle.push(f.loss);
    // P ranks
    const comm = new EpComm(P, o.cost, 4, o.topology);
    const shards = groupBounds(batch.rows, P).map(([a, b]): Batch => ({ contexts: batch.contexts.slice(a * batch.contextLength, b * batch.contextLength), targets: batch.targets.slice(a, b), rows: b - a, contextLength: batch.contextLength }));
    const { loss, routed } = epStep(replicas, moeIdx, epRanks, shards, comm, step, epOptions);
    res.lossEp.push(loss);
    res.routedPerExpert.push(routed);
    const ar = ringAllReduce(replicas.map((m) => concatGrads(dense(m))), { cost: o.cost });
    replicas.forEach((m, r) => scatterGrads(dense(m), ar.result[r]));
    res.denseAllReduceBytesPerRank = ar.bytesSentPerRank[0] ?? 0;
    opts.forEach((op) => { op.step(); op.zeroGrad(); });
    moeIdx.forEach((li, b) => {
      (single.layers[li] as MoeLayer).updateExpertBias(f.cache.saved[li].moe!.stats.routedPerExpert);
      replicas.forEach((m) => (m.layers[li] as MoeLayer).updateExpertBias(routed[b]));
    });
    res.lastStepLog = comm.log;
  }
  // the one-device weights against the ranks': dense ones from rank 0, expert e from its owner
  const diff = (a: Param, b: Param) => a.data.forEach((v, i) => { res.maxWeightDiff = Math.max(res.maxWeightDiff, Math.abs(v - b.data[i])); });
  single.layers.forEach((l, li) => {
    if (l.kind !== "moe") return l.params.forEach((p, j) => diff(p, replicas[0].layers[li].params[j]));
    const ml = l as MoeLayer;
    diff(ml.router, (replicas[0].layers[li] as MoeLayer).router);
    ml.experts.forEach((e, idx) => { const r = Math.floor(idx / L), mine = (replicas[r].layers[li] as MoeLayer).experts[idx]; (["W1", "b1", "W2", "b2"] as const).forEach((n) => diff(e[n], mine[n])); });
  });
  return res;
}

/** One forward and backward on P ranks: dense layers per rank, MoE blocks through the expert-parallel step. */
function epStep(replicas: Model[], moeIdx: number[], epRanks: EpRank[][], shards: Batch[], group: EpGroup, step: EpMoeStep, o: EpMoeOptions | undefined): { loss: number; routed: number[][] } {
  const ops = cpuOps(), P = replicas.length, layers = replicas[0].layers;
  let acts: Activation[] = shards.map((b) => batchInput(b));
  const inputs: Activation[][] = [], saved: (Saved | null)[][] = [];
  const routed: number[][] = [];
  layers.forEach((layer, li) => {
    inputs.push(acts);
    const b = moeIdx.indexOf(li);
    if (b >= 0 && o) {
      routed.push(countRouted(epRanks[b], acts, o));
      const { ys } = step(group, epRanks[b], acts.map((a) => a.data), null, o);
      saved.push(acts.map(() => null));
      acts = ys.map((y, r) => ({ data: y, rows: acts[r].rows, cols: o.hiddenSize }));
    } else {
      const out = acts.map((a, r) => (replicas[r].layers[li] as Layer).forward(a, ops));
      saved.push(out.map((x) => x.saved));
      acts = out.map((x) => x.y);
    }
  });
  const ces = acts.map((y, r) => crossEntropy(y, shards[r].targets));
  const count = ces.reduce((s, c) => s + c.tokenCount, 0), V = replicas[0].config.vocabSize;
  let ds: Activation[] = ces.map((c, r) => crossEntropyBackward(c.probs, shards[r].targets, V, count > 0 ? 1 / count : 0, "fp32"));
  for (let li = layers.length - 1; li >= 0; li--) {
    const b = moeIdx.indexOf(li);
    if (b >= 0 && o) {
      const { dxs } = step(group, epRanks[b], inputs[li].map((a) => a.data), ds.map((d) => d.data), o);
      ds = dxs!.map((dx, r) => ({ data: dx, rows: ds[r].rows, cols: o.hiddenSize }));
    } else if (li > 0) {
      ds = ds.map((d, r) => (replicas[r].layers[li] as Layer).backward(saved[li][r]!, d, ops)!);
    } else {
      ds.forEach((d, r) => (replicas[r].layers[li] as Layer).backward(saved[li][r]!, d, ops));
    }
  }
  void P;
  return { loss: ces.reduce((s, c) => s + c.lossSum, 0) / Math.max(1, count), routed };
}

/** Tokens routed to each expert over all ranks (the counts DeepSeek-V3's bias update all-reduces). */
function countRouted(ranks: EpRank[], acts: Activation[], o: EpMoeOptions): number[] {
  const c = new Array<number>(o.numExperts).fill(0), ops = cpuOps();
  acts.forEach((a, r) => {
    if (a.rows === 0) return;
    const logits = ops.matmul(a.data, ranks[r].router.data, { M: a.rows, K: a.cols, N: o.numExperts }, "fp32");
    for (const e of topKRouting(logits, a.rows, o.numExperts, o.topK, o.order, o.order === "sigmoid" ? ranks[r].expertBias : undefined).experts) c[e]++;
  });
  return c;
}

const concatGrads = (ps: Param[]) => { const out = new Float32Array(ps.reduce((s, p) => s + p.grad.length, 0)); let at = 0; for (const p of ps) { out.set(p.grad, at); at += p.grad.length; } return out; };
const scatterGrads = (ps: Param[], flat: Float32Array) => { let at = 0; for (const p of ps) { p.grad.set(flat.subarray(at, at + p.grad.length)); at += p.grad.length; } };
