/**
 * Gemini's warm-up iteration: walk one training step of a lib/nn model
 * operator by operator and record which parameters each operator uses and
 * how much non-model memory (activations, their gradients) is live while it runs.
 */
import type { Model } from "../nn/index.js";

/** One operator of a training step. */
export interface OperatorStat {
  /** e.g. "forward blocks.0". */
  name: string;
  phase: "forward" | "backward";
  /** Index into model.layers. */
  layer: number;
  /** Indices into model.params of the parameters this operator reads. */
  params: number[];
  /** Non-model bytes live during the operator (saved activations, its input and output, their gradients). */
  nonModelBytes: number;
}

/**
 * The warm-up statistics of one step: forward over the layers in order, then
 * backward in reverse. During forward of layer i, the live non-model memory
 * is what layers 0…i saved plus layer i's output; during backward of layer i,
 * what layers 0…i saved plus the incoming and outgoing activation gradients.
 * Everything is counted in float32 (4 bytes), as lib/nn computes.
 *
 * @param model a lib/nn model (only its layers' sizes are read)
 * @param rows tokens per batch (integer ≥ 1): batch × sequence length
 * @returns 2L operators, new objects
 * @throws RangeError `rows must be an integer >= 1, got 0`
 * @example recordMemStats(createModel({ ...DEFAULT_MODEL, vocabSize: 59 }), 128).length // 10 (5 layers, forward and backward)
 * @see Colossal-AI `colossalai/zero/gemini/memory_tracer/memstats_collector.py` and `memory_stats.py` (non-model data per sampling period during warm-up),
 *   commit 4f9953be335ef371b3848719ddafe596c01ecd37; Fang et al. 2022, *PatrickStar*, §5 (warm-up iteration, runtime memory tracer)
 */
export function recordMemStats(model: Model, rows: number): OperatorStat[] {
  if (!Number.isSafeInteger(rows) || rows < 1) throw new RangeError(`rows must be an integer >= 1, got ${rows}`);
  const index = new Map(model.params.map((p, i) => [p, i]));
  const saved = model.layers.map((l) => l.savedBytes(rows, "fp32"));
  const out = model.layers.map((l) => rows * l.outFeatures * 4);
  const inp = model.layers.map((l) => rows * l.inFeatures * 4);
  const prefix = saved.map((_, i) => saved.slice(0, i + 1).reduce((a, b) => a + b, 0));
  const ops: OperatorStat[] = [];
  model.layers.forEach((l, i) => ops.push({ name: `forward ${l.name}`, phase: "forward", layer: i, params: l.params.map((p) => index.get(p)!), nonModelBytes: prefix[i] + out[i] }));
  for (let i = model.layers.length - 1; i >= 0; i--) {
    const l = model.layers[i];
    ops.push({ name: `backward ${l.name}`, phase: "backward", layer: i, params: l.params.map((p) => index.get(p)!), nonModelBytes: prefix[i] + out[i] + inp[i] });
  }
  return ops;
}
