import { checkMs } from "./ddpStepTimeMs.js";

/**
 * One layer of the model being trained (one parameter tensor per layer, for simplicity).
 * @see Li et al. 2020, "PyTorch Distributed", VLDB, Sec. 3 (what a DDP step runs and keeps); DistributedDataParallel and DataParallel docs
 */
export interface LayerSpec {
  name: string;
  /** Bytes of the layer's parameters (= of its gradient). */
  paramBytes: number;
  /** Forward time of the layer on one rank's micro-batch, ms. */
  forwardMs: number;
  /** Backward time of the layer, ms (often ≈ 2× forward). */
  backwardMs: number;
  /** Activation bytes kept for backward on one rank (default 0). */
  activationBytes?: number;
  /** False when the layer takes no part in this step's forward (its gradient never arrives); default true. */
  used?: boolean;
}

/**
 * One bar of a timeline: what a rank's stream does from t to tEnd (ms).
 * @see Li et al. 2020, "PyTorch Distributed", VLDB, Sec. 3 (what a DDP step runs and keeps); DistributedDataParallel and DataParallel docs
 */
export interface TimelineEvent {
  rank: number;
  stream: "compute" | "comm";
  kind: "forward" | "backward" | "all-reduce" | "optimizer" | "scatter" | "replicate" | "gather" | "loss" | "reduce-grads" | "find-unused";
  label: string;
  /** Start, ms. */
  t: number;
  /** End, ms. */
  tEnd: number;
  /** Bytes moved (communication), 0 for compute. */
  bytes: number;
}

/**
 * Memory of one rank, in bytes, in a fixed order.
 * @see Li et al. 2020, "PyTorch Distributed", VLDB, Sec. 3 (what a DDP step runs and keeps); DistributedDataParallel and DataParallel docs
 */
export interface RankMemory {
  parameters: number;
  gradients: number;
  /** DDP's flat bucket buffers (one copy of the gradients unless gradient_as_bucket_view=True). */
  bucketBuffers: number;
  optimizerStates: number;
  activations: number;
  /** DataParallel: the whole batch's outputs gathered on the first device. */
  gatheredOutputs: number;
  total: number;
}

/**
 * Checks a model's layer list.
 * @throws RangeError `layers must be a non-empty array`; `layers[1].paramBytes must be a finite number >= 0, got -4`
 *   (likewise forwardMs, backwardMs, activationBytes)
 * @param layers the model's layers in forward order
 * @returns layers, unchanged
 * @example checkLayers(exampleLayers(2, 8e6, 10)).length // 4
 * @see the house rule on bad input (shared design.md)
 */
export function checkLayers(layers: readonly LayerSpec[]): readonly LayerSpec[] {
  if (!Array.isArray(layers) || layers.length === 0) throw new RangeError("layers must be a non-empty array");
  layers.forEach((l, i) => {
    checkMs(`layers[${i}].paramBytes`, l.paramBytes);
    checkMs(`layers[${i}].forwardMs`, l.forwardMs);
    checkMs(`layers[${i}].backwardMs`, l.backwardMs);
    checkMs(`layers[${i}].activationBytes`, l.activationBytes ?? 0);
  });
  return layers;
}

/**
 * Sums a field over layers.
 * @param layers the layers
 * @param f the field to sum, e.g. `(l) => l.paramBytes`
 * @returns Σ f(layer), in the field's unit (0 for no layer)
 * @example sumOf(exampleLayers(2, 8e6, 10), (l) => l.paramBytes) // 24000000
 * @see the page's section "DataParallel versus DistributedDataParallel" (src/data-parallel.md)
 */
export function sumOf(layers: readonly LayerSpec[], f: (l: LayerSpec) => number): number {
  return layers.reduce((s, l) => s + f(l), 0);
}

/**
 * Builds a {@link RankMemory} with its total.
 * @param m the per-rank byte counts of each part
 * @returns the same parts plus `total`, their sum in bytes
 * @example rankMemory({ parameters: 4, gradients: 4, bucketBuffers: 4, optimizerStates: 8, activations: 2, gatheredOutputs: 0 }).total // 22
 * @see DistributedDataParallel docs (gradient_as_bucket_view: otherwise the buckets hold a copy of the gradients); Rajbhandari et al. 2019, *ZeRO*, §3.1 (model states)
 */
export function rankMemory(m: Omit<RankMemory, "total">): RankMemory {
  return { ...m, total: m.parameters + m.gradients + m.bucketBuffers + m.optimizerStates + m.activations + m.gatheredOutputs };
}

/**
 * A toy transformer-like model of `numLayers` equal blocks plus an embedding
 * and a head, for the page's timelines; times scale with parameters.
 * @param numLayers blocks (integer ≥ 1)
 * @param blockParamBytes bytes of one block's parameters
 * @param msPerGB forward ms per GB of parameters (backward = 2× forward)
 * @example exampleLayers(2, 8e6, 10).map((l) => l.name) // ["embedding", "block 1", "block 2", "head"]
 * @returns numLayers + 2 layers: embedding and head of half a block each
 * @throws RangeError `numLayers must be an integer >= 1, got 0`
 * @see the page's section "DataParallel versus DistributedDataParallel" (src/data-parallel.md); the 2× backward cost follows Kaplan et al. 2020, *Scaling Laws for Neural Language Models*, §2.1 (backward ≈ twice forward)
 */
export function exampleLayers(numLayers: number, blockParamBytes: number, msPerGB: number): LayerSpec[] {
  if (!Number.isInteger(numLayers) || numLayers < 1) throw new RangeError(`numLayers must be an integer >= 1, got ${numLayers}`);
  const layer = (name: string, bytes: number): LayerSpec => ({
    name,
    paramBytes: bytes,
    forwardMs: (bytes / 1e9) * msPerGB,
    backwardMs: (2 * bytes / 1e9) * msPerGB,
    activationBytes: bytes / 2,
  });
  return [layer("embedding", blockParamBytes / 2), ...Array.from({ length: numLayers }, (_, i) => layer(`block ${i + 1}`, blockParamBytes)), layer("head", blockParamBytes / 2)];
}
