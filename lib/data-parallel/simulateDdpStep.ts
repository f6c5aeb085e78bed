import { checkNumRanks, collectiveCost, type CostModel } from "../collectives/index.js";
import { assignBuckets, type Bucket } from "./assignBuckets.js";
import { allReduceSchedule, checkMs } from "./ddpStepTimeMs.js";
import { checkLayers, rankMemory, sumOf, type LayerSpec, type RankMemory, type TimelineEvent } from "./layers.js";

/**
 * Configuration of one simulated DDP step.
 * @see the sources of {@link simulateDdpStep}: Li et al. 2020, "PyTorch Distributed: Experiences on Accelerating Data Parallel Training", VLDB, Sec. 3 (bucketing, overlap, find_unused_parameters);
 *   DistributedDataParallel docs; reducer.cpp ("Expected to have finished reduction in the prior iteration")
 */
export interface DdpConfig {
  /** Layers in forward order. */
  layers: LayerSpec[];
  numRanks: number;
  cost: CostModel;
  /** `bucket_cap_mb · 2^20` (default 25 MiB). */
  bucketCapBytes?: number;
  /** Default 1 MiB (`dist._DEFAULT_FIRST_BUCKET_BYTES`). */
  firstBucketCapBytes?: number;
  /** Overlap each bucket's all-reduce with the rest of backward (DDP does; false shows what it saves). */
  overlap: boolean;
  optimizerMs: number;
  /** DDP's `find_unused_parameters` (default false). */
  findUnusedParameters?: boolean;
  /** Cost of the autograd-graph traversal that find_unused_parameters adds after forward, ms (default 0). */
  findUnusedTraversalMs?: number;
  /** Optimizer-state bytes per parameter byte (default 2: Adam's m and v in the parameters' precision). */
  optimizerStateFactor?: number;
}

/**
 * Result of {@link simulateDdpStep}.
 * @see the sources of {@link simulateDdpStep}: Li et al. 2020, "PyTorch Distributed: Experiences on Accelerating Data Parallel Training", VLDB, Sec. 3 (bucketing, overlap, find_unused_parameters);
 *   DistributedDataParallel docs; reducer.cpp ("Expected to have finished reduction in the prior iteration")
 */
export interface DdpStepResult {
  /** Step time in ms, or null when the step cannot finish (see `error`). */
  stepTimeMs: number | null;
  /** Forward + backward + optimizer on one rank, ms. */
  computeMs: number;
  /** Sum of the all-reduce durations, ms. */
  commMs: number;
  /** Communication not hidden behind backward: step time − compute, ms. */
  exposedCommMs: number | null;
  /** Buckets in all-reduce order with their timing (ms from the step start; readyMs from the start of backward, Infinity if never; start/end null if never launched). */
  buckets: (Bucket & { readyMs: number; startMs: number | null; endMs: number | null; allReduceMs: number })[];
  /** Every rank's memory (identical across ranks). */
  memoryPerRank: RankMemory;
  /** What PyTorch reports when a used=false layer's bucket never becomes ready. */
  error?: string;
}

/**
 * Simulates one DDP training step on P identical ranks: forward; backward in
 * reverse layer order, where a layer's gradient is ready when its backward
 * ends; gradients grouped in buckets (assignBuckets); each bucket ring
 * all-reduced on a communication stream once all its gradients are ready
 * (overlap) or after backward (no overlap), in bucket order; then every rank
 * steps its own optimizer. A layer with used=false runs neither forward nor backward and never produces a gradient:
 * without find_unused_parameters its bucket, and every later one, never
 * launches, and PyTorch raises at the next forward; with it, DDP traverses the
 * autograd graph after forward and marks those parameters ready at once (their
 * gradients all-reduced as zeros).
 *
 * @param config layers, P, cost model, bucket caps, overlap, optimizer time
 * @returns `{result, events}`: step time and breakdown, and the timeline (two streams per rank)
 * @throws RangeError `numRanks must be an integer >= 1, got 0`; layer and cost-model errors
 * @example simulateDdpStep({ layers: exampleLayers(4, 4e6, 20), numRanks: 4, cost: DEFAULT_COST_MODEL, overlap: true, optimizerMs: 0.1 }).result.stepTimeMs // 2.41 (ms)
 * @see Li et al. 2020, "PyTorch Distributed: Experiences on Accelerating Data Parallel Training", VLDB, Sec. 3 (bucketing, overlap, find_unused_parameters);
 *   DistributedDataParallel docs; reducer.cpp ("Expected to have finished reduction in the prior iteration")
 */
export function simulateDdpStep(config: DdpConfig): { result: DdpStepResult; events: TimelineEvent[] } {
  // a layer that takes no part in this step's forward runs neither forward nor backward
  const layers = checkLayers(config.layers).map((l) => (l.used === false ? { ...l, forwardMs: 0, backwardMs: 0 } : l));
  const P = checkNumRanks(config.numRanks);
  checkMs("optimizerMs", config.optimizerMs);
  const traversalMs = config.findUnusedParameters ? checkMs("findUnusedTraversalMs", config.findUnusedTraversalMs ?? 0) : 0;
  const buckets = assignBuckets(layers.map((l) => l.paramBytes), config);
  const forwardMs = sumOf(layers, (l) => l.forwardMs) + traversalMs;
  const backwardMs = sumOf(layers, (l) => l.backwardMs);
  // gradient-ready time of each layer, ms from the start of backward (reverse order)
  const readyOf: number[] = new Array(layers.length);
  let t = 0;
  for (let i = layers.length - 1; i >= 0; i--) {
    t += layers[i].backwardMs;
    const used = layers[i].used !== false;
    readyOf[i] = used ? t : config.findUnusedParameters ? 0 : Number.POSITIVE_INFINITY;
  }
  const timed = buckets.map((b) => ({
    ...b,
    readyMs: Math.max(...b.paramIndices.map((i) => readyOf[i])),
    allReduceMs: 1000 * collectiveCost("ring-all-reduce", Math.ceil(b.bytes / 4), P, config.cost).timeS,
  }));
  const stuck = timed.findIndex((b) => !Number.isFinite(b.readyMs));
  const launchable = stuck < 0 ? timed : timed.slice(0, stuck);
  const sched = allReduceSchedule(launchable, backwardMs, config.overlap);
  const bucketsOut = timed.map((b, i) => ({ ...b, startMs: i < launchable.length ? forwardMs + sched.startMs[i] : null, endMs: i < launchable.length ? forwardMs + sched.endMs[i] : null }));
  const computeMs = forwardMs + backwardMs + config.optimizerMs;
  const optStart = forwardMs + Math.max(backwardMs, sched.commEndMs);
  const stepTimeMs = stuck < 0 ? optStart + config.optimizerMs : null;
  const paramBytes = sumOf(layers, (l) => l.paramBytes);
  const memoryPerRank = rankMemory({
    parameters: paramBytes,
    gradients: paramBytes,
    bucketBuffers: paramBytes,
    optimizerStates: (config.optimizerStateFactor ?? 2) * paramBytes,
    activations: sumOf(layers, (l) => l.activationBytes ?? 0),
    gatheredOutputs: 0,
  });
  const events: TimelineEvent[] = [];
  for (let r = 0; r < P; r++) {
    let c = 0;
    for (const l of layers) if (l.used !== false) events.push({ rank: r, stream: "compute", kind: "forward", label: `forward ${l.name}`, t: c, tEnd: (c += l.forwardMs), bytes: 0 });
    if (traversalMs > 0) events.push({ rank: r, stream: "compute", kind: "find-unused", label: "find unused parameters (graph traversal)", t: c, tEnd: (c += traversalMs), bytes: 0 });
    for (let i = layers.length - 1; i >= 0; i--) if (layers[i].used !== false) events.push({ rank: r, stream: "compute", kind: "backward", label: `backward ${layers[i].name}`, t: c, tEnd: (c += layers[i].backwardMs), bytes: 0 });
    bucketsOut.forEach((b, i) => {
      if (b.startMs !== null && b.endMs !== null) events.push({ rank: r, stream: "comm", kind: "all-reduce", label: `all-reduce bucket ${i} (${b.paramIndices.map((j) => layers[j].name).join(", ")})`, t: b.startMs, tEnd: b.endMs, bytes: b.bytes });
    });
    if (stepTimeMs !== null) events.push({ rank: r, stream: "compute", kind: "optimizer", label: "optimizer step", t: optStart, tEnd: stepTimeMs, bytes: 0 });
  }
  const error = stuck < 0 ? undefined
    : `bucket ${stuck} never becomes ready: ${timed[stuck].paramIndices.filter((i) => !Number.isFinite(readyOf[i])).map((i) => layers[i].name).join(", ")} received no gradient, so buckets ${stuck}..${timed.length - 1} are never all-reduced; PyTorch raises at the next forward: "Expected to have finished reduction in the prior iteration before starting a new one … You can enable unused parameter detection by passing the keyword argument find_unused_parameters=True"`;
  return {
    result: { stepTimeMs, computeMs, commMs: launchable.reduce((s, b) => s + b.allReduceMs, 0), exposedCommMs: stepTimeMs === null ? null : stepTimeMs - computeMs, buckets: bucketsOut, memoryPerRank, ...(error ? { error } : {}) },
    events,
  };
}
