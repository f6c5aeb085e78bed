/**
 * An independent oracle for the FSDP simulation's weights: full replicas of lib/nn's
 * model, each element's gradient summed over the ranks in the order its owner's ring
 * sums it, without the World, the plan or the buffers.
 */
import { caster, castArray, type TrainPrecision } from "../amp/castArray.js";
import { chunkBounds } from "../collectives/index.js";
import { corpus, createModel, forward, backward, cpuOps, flatData, flatGrad, zeroGrad, optimizerStep, initOptimizerState } from "../nn/index.js";
import { AMP_LIVE_MODEL } from "../amp/charLmSetup.js";
import { zeroMicroBatches } from "./trainZero.js";
import type { FsdpConfig } from "./trainFsdp.js";

/**
 * The weights FSDP must reach, computed the plain way: every rank runs the whole model in `param_dtype` on its
 * micro-batches, accumulates its gradients (in `param_dtype`, or `reduce_dtype` after the first micro-batch when they
 * differ, as `to_accumulated_grad_if_needed`), and on a synchronising micro-batch each element is summed over its shard
 * group starting after its owner (the rank of its dim-0 chunk, j: ranks j + 1, j + 2, …, j in a ring), rounded to
 * `reduce_dtype` at every addition, then (HSDP) over the replicas in the ring order of its position in the owner's
 * shard; the sums accumulate in fp32 and AdamW runs elementwise. Only the default `fully_shard` calls (one per block,
 * then the root) and 1-D or 2-D meshes are modelled.
 *
 * @param c the run (mesh, layout, mp, K, requiresGradientSync, model, steps, seed, lossScale, optimizer)
 * @returns the fp32 weights in `model.params` order
 * @example fsdpOracle({ mesh: { shard: 3 }, steps: 1 }) // equals trainFsdp({ mesh: { shard: 3 }, steps: 1 }).master bit for bit
 * @see Patarasuk & Yuan 2009 (the ring's order of additions); PyTorch `_fsdp_collectives.py` at 010ae4a (`foreach_reduce`)
 */
export function fsdpOracle(c: FsdpConfig): Float32Array {
  const cfg = c.model ?? AMP_LIVE_MODEL, G = c.mesh.shard, R = c.mesh.replicate ?? 1, P = R * G;
  const pd: TrainPrecision = c.mp?.paramDtype ?? "fp32", rd: TrainPrecision = c.mp?.reduceDtype ?? pd;
  const models = Array.from({ length: P }, () => createModel({ ...cfg, vocabSize: corpus().vocab.size }));
  const layers = models[0].layers;
  // Owner (dim-0 chunk j) and position q in the owner's reduce-scatter row, for every flat element.
  const owner: number[] = [], pos: number[] = [], rowLen: number[] = [];
  const groups = [layers.map((_, i) => i).filter((i) => !layers[i].name.startsWith("blocks.")), ...layers.map((_, i) => i).filter((i) => layers[i].name.startsWith("blocks.")).map((i) => [i])];
  const flatOf = new Map<string, number>();
  let o = 0;
  for (const p of models[0].params) { flatOf.set(p.name, o); o += p.data.length; }
  for (const g of groups) {
    const ps = g.flatMap((i) => layers[i].params);
    if (c.layout === "flat-parameter") {
      const N = ps.reduce((n, p) => n + p.data.length, 0), ch = Math.ceil(N / G);
      let e = 0;
      for (const p of ps) for (let i = 0; i < p.data.length; i++, e++) { const f = flatOf.get(p.name)! + i; owner[f] = Math.floor(e / ch); pos[f] = e - owner[f] * ch; rowLen[f] = ch; }
    } else {
      const S = ps.reduce((n, p) => n + Math.ceil(p.shape[0] / G) * (p.data.length / p.shape[0]), 0);
      let off = 0;
      for (const p of ps) {
        const cols = p.data.length / p.shape[0], ch = Math.ceil(p.shape[0] / G);
        for (let i = 0; i < p.data.length; i++) { const f = flatOf.get(p.name)! + i, j = Math.floor(Math.floor(i / cols) / ch); owner[f] = j; pos[f] = off + i - j * ch * cols; rowLen[f] = S; }
        off += ch * cols;
      }
    }
  }
  const rRound = caster(rd), K = c.gradAccumSteps ?? 1, S0 = c.lossScale ?? 1, n = o;
  let w: Float32Array = Float32Array.from(flatData(models[0].params)), state = initOptimizerState([w]);
  const ops = cpuOps({ compute: pd, accumulate: "fp32" });
  for (const step of zeroMicroBatches({ numRanks: P, stage: 0, model: cfg, batchSize: c.batchSize, seqLen: c.seqLen, steps: c.steps ?? 3, seed: c.seed, gradAccumSteps: K })) {
    const tokens = step.flat().reduce((s, b) => s + b.rows, 0), half = castArray(pd, w);
    let acc = null as Float32Array[] | null, accDtype: TrainPrecision = pd, sharded = null as Float32Array | null;
    step.forEach((mb, m) => {
      accDtype = acc && rd !== pd ? rd : pd; // gradients kept from the last micro-batch were moved to reduce_dtype
      const round = caster(accDtype);
      const local = models.map((model, r) => {
        let k = 0;
        for (const p of model.params) { p.data.set(half.subarray(k, k + p.data.length)); k += p.data.length; }
        zeroGrad(model.params);
        backward(model, forward(model, mb[r], ops), S0 / tokens, ops);
        return castArray(pd, Float32Array.from(flatGrad(model.params)));
      });
      acc = acc ? acc.map((a, r) => a.map((x, i) => round(x + local[r][i]))) : local;
      if (!(c.requiresGradientSync !== false || m === K - 1)) return;
      const x = acc.map((a) => castArray(rd, a)), y = new Float32Array(n);
      for (let f = 0; f < n; f++) {
        const perReplica = Array.from({ length: R }, (_, i) => {
          let s = x[i * G + ((owner[f] + 1) % G)][f];
          for (let k = 2; k <= G; k++) s = rRound(Math.fround(x[i * G + ((owner[f] + k) % G)][f] + s));
          return s;
        });
        const cR = chunkBounds(rowLen[f], R).findIndex((b) => pos[f] >= b.start && pos[f] < b.end);
        let s = perReplica[(cR + 1) % R];
        for (let k = 2; k <= R; k++) s = rRound(Math.fround(perReplica[(cR + k) % R] + s));
        y[f] = s;
      }
      sharded = sharded ? sharded.map((v, f) => v + y[f]) : y;
      acc = null;
    });
    const inv = Math.fround(1 / S0);
    const next = optimizerStep([w], [sharded!.map((v) => v * inv)], state, c.optimizer ?? { kind: "adamw", lr: 1e-2 });
    w = next.params[0]; state = next.state;
  }
  return w;
}
