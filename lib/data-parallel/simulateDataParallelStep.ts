import { checkNumRanks, collectiveCost, messageTimeS, validateCostModel, type CostModel } from "../collectives/index.js";
import { checkMs } from "./ddpStepTimeMs.js";
import { checkLayers, rankMemory, sumOf, type LayerSpec, type RankMemory, type TimelineEvent } from "./layers.js";

/**
 * Configuration of one simulated `nn.DataParallel` step.
 * @see the sources of {@link simulateDataParallelStep}: torch.nn.DataParallel docs; torch/nn/parallel/data_parallel.py (scatter, replicate, parallel_apply, gather);
 *   torch/nn/parallel/_functions.py (Broadcast.backward = ReduceAddCoalesced); Li et al. 2020, Sec. 2
 */
export interface DataParallelConfig {
  layers: LayerSpec[];
  /** Number of GPUs driven by the single process. */
  numRanks: number;
  cost: CostModel;
  /** Bytes of the whole batch's inputs (scattered from device 0). */
  inputBytes: number;
  /** Bytes of the whole batch's outputs (gathered on device 0). */
  outputBytes: number;
  /** Loss computation on device 0, ms. */
  lossMs: number;
  optimizerMs: number;
  /** Per-replica launch overhead, serialised by the one Python process (GIL), ms (default 0). */
  launchOverheadMs?: number;
  /** Optimizer-state bytes per parameter byte (default 2: Adam). */
  optimizerStateFactor?: number;
}

/**
 * Result of {@link simulateDataParallelStep}.
 * @see the sources of {@link simulateDataParallelStep}: torch.nn.DataParallel docs; torch/nn/parallel/data_parallel.py (scatter, replicate, parallel_apply, gather);
 *   torch/nn/parallel/_functions.py (Broadcast.backward = ReduceAddCoalesced); Li et al. 2020, Sec. 2
 */
export interface DataParallelStepResult {
  stepTimeMs: number;
  /** Per device: time its compute stream is idle during the step, ms. */
  idleMsPerRank: number[];
  /** Per device memory; device 0 holds the optimizer, the gathered outputs, the summed gradients. */
  memoryPerRank: RankMemory[];
}

/**
 * Simulates one step of PyTorch `nn.DataParallel` (one process, P devices):
 * scatter the batch from device 0; replicate the module (broadcast the
 * parameters from device 0, every step); parallel_apply the replicas' forward
 * (threads, launched one after another); gather the outputs on device 0;
 * compute the loss there; backward through the replicas (the gather's backward
 * scatters the output gradients); the broadcast's backward sums every
 * replica's gradients into the module on device 0 (a reduce, after the whole
 * backward: no overlap); the optimizer steps on device 0 only.
 *
 * @param config layers, P, cost model, input/output bytes, loss and optimizer ms
 * @returns `{result: {stepTimeMs, idleMsPerRank, memoryPerRank}, events}` (compute and comm streams per device)
 * @throws RangeError `numRanks must be an integer >= 1, got 0`; `inputBytes must be a finite number >= 0, got -1`
 * @example simulateDataParallelStep({ layers: exampleLayers(4, 4e6, 20), numRanks: 4, cost: DEFAULT_COST_MODEL, inputBytes: 1e6, outputBytes: 1e6, lossMs: 0.1, optimizerMs: 0.1 }).result.stepTimeMs // 4.725 (ms)
 * @see torch.nn.DataParallel docs; torch/nn/parallel/data_parallel.py (scatter, replicate, parallel_apply, gather);
 *   torch/nn/parallel/_functions.py (Broadcast.backward = ReduceAddCoalesced); Li et al. 2020, Sec. 2
 */
export function simulateDataParallelStep(config: DataParallelConfig): { result: DataParallelStepResult; events: TimelineEvent[] } {
  const layers = checkLayers(config.layers);
  const P = checkNumRanks(config.numRanks);
  const cost = validateCostModel(config.cost);
  for (const k of ["inputBytes", "outputBytes", "lossMs", "optimizerMs"] as const) checkMs(k, config[k]);
  const launch = checkMs("launchOverheadMs", config.launchOverheadMs ?? 0);
  const paramBytes = sumOf(layers, (l) => l.paramBytes);
  const fwd = sumOf(layers, (l) => l.forwardMs);
  const bwd = sumOf(layers, (l) => l.backwardMs);
  // one copy out of device 0's link to each other device: (P−1)/P of the batch
  const scatterMs = (bytes: number) => (P === 1 ? 0 : 1000 * messageTimeS(((P - 1) / P) * bytes, cost));
  const events: TimelineEvent[] = [];
  const comm = (kind: TimelineEvent["kind"], label: string, t: number, ms: number, bytes: number) => {
    if (ms > 0) for (let r = 0; r < P; r++) events.push({ rank: r, stream: "comm", kind, label, t, tEnd: t + ms, bytes });
    return t + ms;
  };
  let t = comm("scatter", "scatter inputs from device 0", 0, scatterMs(config.inputBytes), config.inputBytes / P);
  t = comm("replicate", "replicate: broadcast parameters from device 0", t, 1000 * collectiveCost("broadcast", Math.ceil(paramBytes / 4), P, cost).timeS, paramBytes);
  const busy = new Array(P).fill(0);
  const run = (r: number, kind: TimelineEvent["kind"], label: string, start: number, ms: number) => {
    events.push({ rank: r, stream: "compute", kind, label, t: start, tEnd: start + ms, bytes: 0 });
    busy[r] += ms;
    return start + ms;
  };
  const fwdEnd = Math.max(...Array.from({ length: P }, (_, r) => run(r, "forward", `forward replica ${r}`, t + (r + 1) * launch, fwd)));
  t = comm("gather", "gather outputs on device 0", fwdEnd, scatterMs(config.outputBytes), config.outputBytes / P);
  t = run(0, "loss", "loss on device 0", t, config.lossMs);
  t = comm("scatter", "scatter output gradients from device 0", t, scatterMs(config.outputBytes), config.outputBytes / P);
  const bwdEnd = Math.max(...Array.from({ length: P }, (_, r) => run(r, "backward", `backward replica ${r}`, t + (r + 1) * launch, bwd)));
  t = comm("reduce-grads", "sum gradients on device 0 (reduce)", bwdEnd, 1000 * collectiveCost("reduce", Math.ceil(paramBytes / 4), P, cost).timeS, paramBytes);
  const stepTimeMs = run(0, "optimizer", "optimizer step on device 0", t, config.optimizerMs);
  const act = sumOf(layers, (l) => l.activationBytes ?? 0);
  const memoryPerRank = Array.from({ length: P }, (_, r) =>
    rankMemory({
      parameters: paramBytes,
      gradients: paramBytes,
      bucketBuffers: 0,
      optimizerStates: r === 0 ? (config.optimizerStateFactor ?? 2) * paramBytes : 0,
      activations: act,
      gatheredOutputs: r === 0 ? config.outputBytes : 0,
    }),
  );
  return { result: { stepTimeMs, idleMsPerRank: busy.map((b) => stepTimeMs - b), memoryPerRank }, events };
}
