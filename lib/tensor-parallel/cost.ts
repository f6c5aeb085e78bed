import { achievedLink, collectiveCost, groupCostModel, NCCL_BUS_EFFICIENCY, type CostModel } from "../collectives/index.js";
import { gpuPreset, gpuRoofline, transformerLayerTime, type Roofline } from "../perf/index.js";
import { tpCollectiveTime } from "./tpCollectiveTime.js";
import { checkT, type TpCollective } from "./comm.js";

/**
 * One kind of collective in one pass of one transformer layer.
 * @see {@link tpCommPerLayer}
 */
export interface TpCommRow {
  pass: "forward" | "backward";
  collective: TpCollective;
  /** How many of them per layer per step. */
  count: number;
  /** Elements of the full tensor each one moves: (N, h) activations (N = tokens = s·b), or the (N, (a + 2G)·d) QKV activation when `tensor` is "qkv". */
  elements: number;
  /** Bytes sent by all T ranks together, all `count` collectives (ring algorithms). */
  bytesTotal: number;
  /** Bytes each rank sends, all `count` collectives. */
  bytesPerRank: number;
  /** Set to "qkv" on the rows of Megatron's QKV all-gather when T exceeds the KV heads (absent on the (N, h) rows). */
  tensor?: "qkv";
}

/**
 * Options of {@link tpCommPerLayer}.
 * @see {@link tpCommPerLayer}
 */
export interface TpCommOptions {
  /** N = s·b, tokens of the micro-batch. */
  tokens: number;
  /** h. */
  hiddenSize: number;
  /** T. */
  T: number;
  sequenceParallel?: boolean;
  /** Default 2 (bf16 activations, the papers' setting). */
  bytesPerElement?: number;
  /** Tensor-parallel regions per layer: 2 for a transformer layer (attention and MLP), 1 for an MLP alone (default 2). */
  regions?: number;
  /**
   * The attention's heads (a, G, d). When T > G, Megatron all-gathers the (N, (a + 2G)·d) QKV activation
   * in forward and reduce-scatters its gradient in backward (attention.py since f7dfb99): two more rows.
   * Omitted: those rows are left out.
   */
  attention?: { numHeads: number; numKvHeads: number; headDim: number };
}

/**
 * Tensor-parallel communication of one layer per training step, as closed
 * forms for ring collectives on T ranks with an (N, h) activation of n = N·h elements:
 * - without sequence parallelism, each region does one all-reduce forward (g) and one backward (f):
 *   4 all-reduces per transformer layer (Shoeybi et al. 2019 §3), each 2(T−1)/T·n·bytes per rank;
 * - with sequence parallelism each all-reduce becomes an all-gather plus a reduce-scatter,
 *   (T−1)/T·n·bytes per rank each, so the same bytes (Korthikanti et al. 2022 §4.2.2); and
 *   Megatron keeps the column layer's input sharded and all-gathers it again in backward
 *   for the weight gradient: one extra all-gather per region, overlapped with the dX product;
 * - with `attention` and T > G (grouped-query attention with more ranks than KV heads), one more
 *   all-gather forward and one reduce-scatter backward of the (N, (a + 2G)·d) QKV activation, (T−1)/T of it per rank each.
 *
 * @param o see {@link TpCommOptions}
 * @returns one row per (pass, collective) with count > 0; none when T = 1
 * @throws RangeError `tokens must be an integer >= 1, got 0`; `T must be an integer >= 1, got 0`; `tokens (3) must be divisible by T (2) with sequence parallelism`; `attention.numKvHeads must be an integer >= 1, got 0`
 * @example tpCommPerLayer({ tokens: 4, hiddenSize: 2, T: 2, bytesPerElement: 4 })
 *   // [{pass: "forward", collective: "all-reduce", count: 2, elements: 8, bytesTotal: 128, bytesPerRank: 64}, {pass: "backward", … same}]
 * @see Shoeybi et al. 2019, *Megatron-LM*, §3 (two all-reduces forward, two backward); Korthikanti et al. 2022 §4.2.2; Megatron-LM layers.py `LinearWithGradAccumulationAndAsyncCommunication` (the backward all-gather);
 *   Megatron-LM attention.py `all_gather_last_dim_from_tensor_parallel_region` when num_query_groups < T (d98e8a6; since f7dfb99)
 */
export function tpCommPerLayer(o: TpCommOptions): TpCommRow[] {
  for (const k of ["tokens", "hiddenSize"] as const) if (!Number.isInteger(o[k]) || o[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${o[k]}`);
  const T = checkT(o.T);
  const b = o.bytesPerElement ?? 2;
  if (!(b > 0)) throw new RangeError(`bytesPerElement must be a number > 0, got ${b}`);
  const regions = o.regions ?? 2;
  if (!Number.isInteger(regions) || regions < 1) throw new RangeError(`regions must be an integer >= 1, got ${regions}`);
  const sp = o.sequenceParallel ?? false;
  if (sp && o.tokens % T !== 0) throw new RangeError(`tokens (${o.tokens}) must be divisible by T (${T}) with sequence parallelism`);
  const at = o.attention;
  if (at) for (const k of ["numHeads", "numKvHeads", "headDim"] as const) if (!Number.isInteger(at[k]) || at[k] < 1) throw new RangeError(`attention.${k} must be an integer >= 1, got ${at[k]}`);
  if (T === 1) return [];
  const row = (pass: "forward" | "backward", collective: TpCollective, count: number, n = o.tokens * o.hiddenSize): TpCommRow => {
    const total = (collective === "all-reduce" ? 2 : 1) * (T - 1) * n * b * count;
    return { pass, collective, count, elements: n, bytesTotal: total, bytesPerRank: total / T };
  };
  const qkv = at && at.numKvHeads < T ? (() => {
    const n = o.tokens * (at.numHeads + 2 * at.numKvHeads) * at.headDim;
    return [{ ...row("forward", "all-gather", 1, n), tensor: "qkv" as const }, { ...row("backward", "reduce-scatter", 1, n), tensor: "qkv" as const }];
  })() : [];
  if (!sp) return [row("forward", "all-reduce", regions), row("backward", "all-reduce", regions), ...qkv];
  return [row("forward", "all-gather", regions), row("forward", "reduce-scatter", regions), row("backward", "all-gather", 2 * regions), row("backward", "reduce-scatter", regions), ...qkv];
}

/**
 * Intra-node link of one A100 in a DGX A100: NVLink 3, 600 GB/s bidirectional, 300 GB/s each way.
 * @see NVIDIA A100 Tensor Core GPU datasheet (NVLink: 600 GB/s); α = 5 µs as lib/collectives' default
 */
export const NVLINK_A100: Readonly<CostModel> = Object.freeze({ alphaS: 5e-6, bandwidthBytesPerS: 300e9 });

/**
 * Inter-node link of one A100 in a DGX A100: one HDR InfiniBand adapter per GPU, 200 Gb/s = 25 GB/s each way.
 * @see NVIDIA DGX A100 datasheet (8 × single-port ConnectX-6 200 Gb/s HDR InfiniBand for compute)
 */
export const INFINIBAND_HDR: Readonly<CostModel> = Object.freeze({ alphaS: 5e-6, bandwidthBytesPerS: 25e9 });

/**
 * A100 dense bf16 peak, 312 TFLOP/s.
 * @example A100_BF16_FLOPS / 1e12 // 312
 * @see NVIDIA A100 datasheet (BF16 tensor core 312 TFLOPS dense)
 */
export const A100_BF16_FLOPS = 312e12;

/**
 * Options of {@link tpTimePerLayer}.
 * @see {@link tpTimePerLayer}
 */
export interface TpTimeOptions {
  /** s, tokens per sequence. */
  seqLen: number;
  /** b, sequences per micro-batch. */
  microBatch: number;
  hiddenSize: number;
  T: number;
  /** The rest of the layer's shape (default: a heads of 128, a GPT-style 4h MLP): heads, KV heads, MLP width, gated. */
  numHeads?: number;
  numKvHeads?: number;
  intermediateSize?: number;
  gated?: boolean;
  /** G, GPUs per node (default 8): a group with T above G spans nodes, with G members in each. */
  gpusPerNode?: number;
  /** One GPU's link inside a node, line rate (default {@link NVLINK_A100}). */
  intraNode?: CostModel;
  /** One GPU's network adapter, line rate (default {@link INFINIBAND_HDR}). */
  interNode?: CostModel;
  /** The GPU's roofline (default: the A100 80GB in bf16, lib/perf's preset). */
  roofline?: Roofline;
  /** Default 2. */
  bytesPerElement?: number;
  /** Megatron's backward overlap (default true); false times the collectives as Megatron did before 2021-08. */
  tpBackwardOverlap?: boolean;
}

/**
 * Time of one transformer layer's forward and backward on T ranks (no recomputation),
 * flash attention, without sequence parallelism: compute on the GPU's roofline
 * (lib/perf's `transformerLayerTime`: GEMMs by shape at the measured MAMF fraction with
 * tile and wave quantization, attention, elementwise kernels by bytes), plus the
 * tensor-parallel collectives ({@link tpCollectiveTime}: two forward all-reduces exposed,
 * the two backward ones hidden behind the weight-gradient GEMMs) on the group's link at
 * NCCL's bus efficiency: NVLink when T fits a node, else lib/collectives' multi-adapter
 * rule, min(NVLink, G × one adapter) for G members per node, not one adapter's rate.
 * @param o see {@link TpTimeOptions}
 * @returns seconds `{computeS, commS (exposed), hiddenS, totalS}`, `crossesNodes`, and
 *   `perGpuEfficiency` = T = 1's time / (T × this time): the share of a GPU's work that still goes to the model
 * @throws RangeError `seqLen must be an integer >= 1, got 0`; `gpusPerNode must be an integer >= 1, got 0`;
 *   `numHeads (64) must be divisible by tensorParallel (3)`; and those of collectiveCost
 * @example tpTimePerLayer({ seqLen: 2048, microBatch: 1, hiddenSize: 8192, numHeads: 64, T: 1 }).commS // 0
 * @see Narayanan et al. 2021, §3, Takeaway #1 (tensor parallelism within a server) and Fig. 14 (throughput falls with t across servers);
 *   Megatron-LM d98e8a6 `core/tensor_parallel/layers.py`; NVIDIA/nccl-tests issues #100 and #175 (multi-node busbw)
 */
export function tpTimePerLayer(o: TpTimeOptions): { computeS: number; commS: number; hiddenS: number; totalS: number; crossesNodes: boolean; perGpuEfficiency: number } {
  for (const k of ["seqLen", "microBatch", "hiddenSize"] as const) if (!Number.isInteger(o[k]) || o[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${o[k]}`);
  const T = checkT(o.T);
  const G = o.gpusPerNode ?? 8;
  if (!Number.isInteger(G) || G < 1) throw new RangeError(`gpusPerNode must be an integer >= 1, got ${G}`);
  const { seqLen: s, microBatch: b, hiddenSize: h } = o;
  const a = o.numHeads ?? Math.max(1, Math.round(h / 128));
  const shape = { hiddenSize: h, numHeads: a, numKvHeads: o.numKvHeads ?? a, headDim: h / a, intermediateSize: o.intermediateSize ?? 4 * h, gated: o.gated ?? false, rotary: false, dropout: false };
  const r = o.roofline ?? gpuRoofline(gpuPreset("a100-80gb"), "bf16");
  const e = o.bytesPerElement ?? 2;
  const time = (t: number) => transformerLayerTime(shape, { microBatch: b, seqLen: s, tensorParallel: t, sequenceParallel: false, attention: "flash", bytesPerElement: e }, r);
  const layer = time(T);
  const computeS = layer.forward.totalS + layer.backward.totalS;
  const crossesNodes = T > G;
  const topology = {
    gpusPerNode: G,
    intraNode: achievedLink(o.intraNode ?? NVLINK_A100, NCCL_BUS_EFFICIENCY.nvlink),
    interNodePerGpu: achievedLink(o.interNode ?? INFINIBAND_HDR, NCCL_BUS_EFFICIENCY.network),
  };
  const link = groupCostModel(topology, T, Math.min(T, G));
  const comm = tpCollectiveTime(layer.linears, {
    tokens: b * s, hiddenSize: h, T, sequenceParallel: false, fullRecompute: false, link, bytesPerElement: e,
    qkvElements: T > shape.numKvHeads ? b * s * (a + 2 * shape.numKvHeads) * shape.headDim : 0,
    tpBackwardOverlap: o.tpBackwardOverlap ?? true, tpCommOverlap: false,
  });
  const totalS = computeS + comm.exposedS;
  const one = time(1);
  return { computeS, commS: comm.exposedS, hiddenS: comm.hiddenS, totalS, crossesNodes, perGpuEfficiency: (one.forward.totalS + one.backward.totalS) / (T * totalS) };
}
