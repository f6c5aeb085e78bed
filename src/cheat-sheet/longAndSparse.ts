// The cheat sheet's formulas of the chapters on long sequences and sparse models (13 context
// parallelism, 14 expert parallelism), with examples computed by lib at build time.
import { mergeAttentionPartials, minTokensPerRank, ringWork, ringWorkSummary, sequenceShards, cpCommPerLayer, cpActivationBytes, LLAMA3_405B, LLAMA3_405B_LAYOUTS } from "../../lib/context-parallel/index.js";
import { LINK_PRESETS, allToAllLinks, linkCostModel } from "../../lib/collectives/index.js";
import { GPU_PRESETS } from "../../lib/perf/gpuPresets.js";
import { expertCapacity } from "../../lib/nn/index.js";
import { activeParameters, moeLayerCommTime, moeMemoryPerGpu, moeParameterSplit } from "../../lib/expert-parallel/index.js";
import { parseModelConfig } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";
import { bytes, int, num, type Formula } from "./format.js";

const merged = mergeAttentionPartials({ O: Float32Array.of(4), lse: Float32Array.of(0) }, { O: Float32Array.of(8), lse: Float32Array.of(Math.log(3)) });
const h100 = GPU_PRESETS.find((g) => g.id === "h100-80gb")!, net400 = LINK_PRESETS.find((p) => p.id === "net-400g")!;
const long = LLAMA3_405B_LAYOUTS[2], short = LLAMA3_405B_LAYOUTS[1];
// Llama 3 405B's attention with TP = 8 (16 query heads, 1 KV head per GPU), at FlashAttention's measured share of the peak
const minC = minTokensPerRank({ hiddenSize: 16 * 128, numHeads: 16, numKvHeads: 1, microBatch: 1, bytesPerElement: 2, deviceFlopsPerS: h100.peakFlops16 * h100.attentionEfficiency.fraction, cost: net400, cpSize: long.cp, layout: "zigzag", causal: true });
const imbalance = (layout: "contiguous" | "zigzag") => ringWorkSummary(ringWork(sequenceShards(4096, 8, layout), true)).imbalance.toFixed(3);
const llama = { seqLen: long.seqLen, microBatch: 1, hiddenSize: LLAMA3_405B.hiddenSize, numHeads: LLAMA3_405B.numHeads, numKvHeads: LLAMA3_405B.numKvHeads };
const mha = { ...llama, numKvHeads: LLAMA3_405B.numHeads, cpSize: 8, cost: net400 };
const stored = (seqLen: number, cpSize: number) => cpActivationBytes({ ...llama, seqLen, cpSize, tensorParallel: 8, sequenceParallel: true }).stored;

const split = (preset: string) => moeParameterSplit(parseModelConfig(JSON.parse(loadPresetText(preset))));
const mixtral = split("mixtral-8x7b"), deepseek = split("deepseek-v3");
const deepseekH = parseModelConfig(JSON.parse(loadPresetText("deepseek-v3"))).hiddenSize;
const links = allToAllLinks({ gpusPerNode: 8, intraNode: linkCostModel("h100-nvswitch"), interNodePerGpu: linkCostModel("net-400g") });
const a2aMs = (P: number) => (moeLayerCommTime({ tokens: 4096, hiddenSize: deepseekH, topK: deepseek.topK, epSize: P, bytesPerElement: 2, cost: links.cost, topology: links.topology }).stepS * 1e3).toFixed(2);
const mixtralGB = (ep: number) => (moeMemoryPerGpu(mixtral, { tp: 1, pp: 1, ep, etp: 1, dp: 64, distributedOptimizer: true }).totalBytes / 1e9).toFixed(1);
const billions = (n: number) => `${(n / 1e9).toFixed(1)}B`;

export const LONG_AND_SPARSE: Formula[] = [
  { slug: "context-parallel", anchor: "merging-two-partial-results", name: "Merging two attention partials (O, ℓ)",
    formula: "ℓ = m + log(e<sup>ℓ<sub>a</sub>−m</sup> + e<sup>ℓ<sub>b</sub>−m</sup>) with m = max(ℓ<sub>a</sub>, ℓ<sub>b</sub>); O = e<sup>ℓ<sub>a</sub>−ℓ</sup>·O<sub>a</sub> + e<sup>ℓ<sub>b</sub>−ℓ</sup>·O<sub>b</sub>; associative and commutative, an empty part (ℓ = −∞) changes nothing",
    example: `(O = 4, ℓ = 0) with (O = 8, ℓ = ln 3): O = ${num(merged.O[0])}, ℓ = ${num(merged.lse[0])} = ln 4` },
  { slug: "context-parallel", anchor: "overlapping-the-ring-with-compute", name: "The ring's traffic and when it is hidden",
    formula: "per rank and layer, forward C − 1 blocks of K and V (2·b·(s/C)·h<sub>kv</sub> elements each), backward C − 1 blocks and C of dK, dV; hidden when 4·w·h·b/F ≥ α + 2·c·h<sub>kv</sub>·b·e/B for the least work w of a step: without a mask c ≥ F/B tokens per rank (bf16, α = 0, multi-head)",
    example: `Llama 3 405B at 131,072 tokens, bf16: ${bytes(cpCommPerLayer("ring", { ...llama, cpSize: 8, cost: net400 }).forwardBytes)} per rank and layer forward at C = 8, ${bytes(cpCommPerLayer("ring", { ...llama, cpSize: 32, cost: net400 }).forwardBytes)} at C = 32; with TP = 8 on H100 at 400 Gb/s per GPU, causal zig-zag at C = ${long.cp}, hidden from c = ${int(minC)} tokens per rank` },
  { slug: "context-parallel", anchor: "causal-masks-and-load-balance", name: "Causal load balance",
    formula: "contiguous shards: critical path n(n+1)/2 + (C − 1)n² pairs against N(N+1)/(2C), a ratio that tends to 2 − 1/C; zig-zag (rank r holds chunks r and 2C − 1 − r of 2C) is exactly balanced",
    example: `s = 4,096, C = 8: ${imbalance("contiguous")} contiguous, ${imbalance("zigzag")} zig-zag` },
  { slug: "context-parallel", anchor: "deep-speed-ulysses-trading-the-sequence-split-for-a-head-split", name: "DeepSpeed-Ulysses",
    formula: "two all-to-alls per layer forward (Q, K, V to a head split; the output back): (C − 1)/C·b·(s/C)·(2h + 2h<sub>kv</sub>) elements per rank, 4(C − 1)/C²·s·h with multi-head attention; C must divide the query and the KV heads",
    example: `multi-head attention of Llama 3's widths, 131,072 tokens, C = 8: ${bytes(cpCommPerLayer("ulysses", mha).forwardBytes)} per rank and layer forward, the ring ${bytes(cpCommPerLayer("ring", mha).forwardBytes)}` },
  { slug: "context-parallel", anchor: "memory-per-rank", name: "Activations under context parallelism",
    formula: "a layer's stored activations for s/C tokens: chapter 2's count divided by C; plus K/V buffers while attention runs (the ring: the arriving block; the all-gather: the whole sequence's K and V)",
    example: `Llama 3 405B, TP = 8 with sequence parallelism: ${bytes(stored(long.seqLen, long.cp))} per layer at 131,072 tokens and CP = ${long.cp}, ${bytes(stored(short.seqLen, 1))} at 8,192 tokens without CP` },
  { slug: "expert-parallel", anchor: "a-mixture-of-experts-layer", name: "Active parameters of a mixture of experts",
    formula: "total − routed experts' parameters · (E − k)/E",
    example: `Mixtral-8x7B ${billions(mixtral.totalParams)}, ${billions(activeParameters(mixtral))} active; DeepSeek-V3 ${billions(deepseek.totalParams)}, ${billions(activeParameters(deepseek))} active` },
  { slug: "expert-parallel", anchor: "capacity-and-dropped-tokens", name: "Expert capacity",
    formula: "⌈(T·k/E)·CF⌉ tokens per expert from a group of T (a float product, as Megatron computes it); pairs beyond it are dropped",
    example: `T = 200, k = 2, E = 8, CF = 1.1: ${expertCapacity(200, 8, 2, 1.1)}` },
  { slug: "expert-parallel", anchor: "balancing-the-load", name: "Switch load-balancing loss",
    formula: "α·E·Σ<sub>i</sub> f<sub>i</sub>·P<sub>i</sub>, f<sub>i</sub> the share of the k·T routed pairs that chose expert i, P<sub>i</sub> its mean router probability: 1 for an even router, E/k when every token picks the same k experts" },
  { slug: "expert-parallel", anchor: "what-an-all-to-all-costs", name: "An MoE layer's all-to-all",
    formula: "4 per layer and micro-batch (dispatch and combine, forward and backward); a rank sends (P − 1)/P of S = k·T·h·e bytes; with g GPUs per node t = α + max((g − 1)·S/(P·B<sub>node</sub>), (P − g)·S/(P·B<sub>network</sub>))",
    example: `DeepSeek-V3's shape (h = ${deepseekH}, k = ${deepseek.topK}), 4,096 tokens per rank, bf16, H100 nodes at 400 Gb/s per GPU: ${a2aMs(8)} ms per layer at P = 8, ${a2aMs(16)} ms at P = 16` },
  { slug: "expert-parallel", anchor: "expert-parallelism-with-data-and-tensor-parallelism", name: "Model states per GPU with expert parallelism",
    formula: "dense parameters ÷ (tp·pp) + expert parameters ÷ (etp·ep·pp), 2 + 2 + 12 bytes each; the distributed optimizer divides the dense optimizer states by dp and the experts' by the expert-data-parallel size dp·tp/(etp·ep)",
    example: `Mixtral-8x7B on 64 GPUs: ${mixtralGB(1)} GB at ep = 1, ${mixtralGB(8)} GB at ep = 8` },
];
