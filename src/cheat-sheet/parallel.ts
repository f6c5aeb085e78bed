// The cheat sheet's formulas of the chapters about many GPUs (5–9, 12), with examples computed by lib at build time.
import { collectiveCost, ringAllReduceBytesPerRank, DEFAULT_COST_MODEL } from "../../lib/collectives/index.js";
import { tpCommPerLayer } from "../../lib/tensor-parallel/index.js";
import { bubbleFraction, closedFormBubble, oneFOneBSchedule, peakInFlight, stepTime } from "../../lib/pipeline-parallel/index.js";
import { zeroStepCommunication } from "../../lib/zero/zeroStepCommunication.js";
import { fsdpCommPerRank } from "../../lib/zero/fsdpStrategy.js";
import { offloadMemory, simulateOffloadStep, DEFAULT_OFFLOAD_HARDWARE, CPU_ADAM_BYTES_PER_ELEMENT } from "../../lib/offload/index.js";
import { modelFlopsUtilization } from "../../lib/plan/modelFlopsUtilization.js";
import { bytes, num, pct, time, type Formula } from "./format.js";

const ring = collectiveCost("ring-all-reduce", 100e6 / 4, 64, DEFAULT_COST_MODEL), server = collectiveCost("parameter-server", 100e6 / 4, 64, DEFAULT_COST_MODEL);
const tpBytes = (T: number) => tpCommPerLayer({ tokens: 4096, hiddenSize: 8192, T, bytesPerElement: 2 }).reduce((s, r) => s + r.bytesPerRank, 0);
const zeroUnits = [0, 1, 2, 3].map((stage) => zeroStepCommunication({ stage, dataParallel: 64, numParams: 7.5e9, multiRankBucketAllreduce: false }).psiUnits);
const offloadModel = { numLayers: 32, hiddenSize: 4096, seqLen: 1024, microBatch: 2, stage: 2, offloadOptimizer: "cpu", offloadParam: "none" } as const;
const offloaded = offloadMemory(offloadModel);
const [sync, dpu] = [false, true].map((d) => simulateOffloadStep({ ...offloadModel, dpu: d }));

export const MANY_GPUS: Formula[] = [
  { slug: "data-parallel", anchor: "ring-all-reduce-step-by-step", name: "Ring all-reduce of n bytes on P ranks",
    formula: "a reduce-scatter then an all-gather, 2(P − 1) steps; each rank sends 2(P − 1)/P · n; time 2(P − 1)(α + n/(P·B)). A parameter server's link carries (P − 1)·n",
    example: `100 MB on 64 ranks: ${bytes(ringAllReduceBytesPerRank(100e6, 64))} per rank, ${time(ring.timeS)} (server: ${bytes(server.maxBytesSentPerRank)}, ${time(server.timeS)}) at α = ${DEFAULT_COST_MODEL.alphaS * 1e6} µs, B = ${DEFAULT_COST_MODEL.bandwidthBytesPerS / 1e9} GB/s` },
  { slug: "data-parallel", anchor: "reduce-scatter-and-all-gather", name: "Reduce-scatter, all-gather",
    formula: "each sends (P − 1)/P · n per rank, in P − 1 steps" },
  { slug: "tensor-parallel", anchor: "communication-per-layer", name: "Tensor-parallel traffic per layer and micro-batch",
    formula: "4 all-reduces of the (s·b, h) activation (2 forward, 2 backward), each 2(T − 1)/T · sbh elements per rank; sequence parallelism sends the same forward bytes as reduce-scatters and all-gathers (Megatron adds one all-gather per region in backward)",
    example: `s = 4096, h = 8192, bf16: ${bytes(tpBytes(2))} per rank at T = 2, ${bytes(tpBytes(8))} at T = 8` },
  { slug: "tensor-parallel", anchor: "splitting-one-linear-layer", name: "Column- and row-parallel Y = XW",
    formula: "column: Y<sub>r</sub> = X·W<sub>r</sub> (outputs split, no sum in forward); row: Y = Σ<sub>r</sub> X<sub>r</sub>·W<sub>r</sub> (inputs split, an all-reduce in forward)" },
  { slug: "pipeline-parallel", anchor: "measuring-the-bubble", name: "Pipeline bubble",
    formula: "(p − 1)/m of the busy time for GPipe and 1F1B, (p − 1)/(v·m) interleaved with v chunks; step (m + p − 1)(F + B)",
    example: `p = 4, m = 8, F = 1, B = 2: step ${stepTime(oneFOneBSchedule(4, 8))}, bubble ${pct(bubbleFraction(oneFOneBSchedule(4, 8)))}; interleaved v = 2: ${pct(closedFormBubble("interleaved", 4, 8, 2))}` },
  { slug: "pipeline-parallel", anchor: "micro-batches-and-the-global-batch", name: "Global batch",
    formula: "micro-batch size × m (micro-batches, the accumulation steps) × data-parallel size" },
  { slug: "pipeline-parallel", anchor: "memory-per-gpu-with-p-stages-and-m-micro-batches", name: "Activations in flight under 1F1B",
    formula: "stage s holds at most min(m, p − s) micro-batches: the first stage L/p layers × p = L layers' worth, whatever p is",
    example: `p = 4, m = 8: ${peakInFlight(oneFOneBSchedule(4, 8)).join(", ")} micro-batches on stages 0–3` },
  { slug: "zero", anchor: "communication-against-stage", name: "ZeRO traffic per rank and step (one micro-batch)",
    formula: "DDP 2Ψ; stages 1 and 2: reduce-scatter Ψ + all-gather Ψ = 2Ψ; stage 3: two all-gathers (forward, backward) + one reduce-scatter = 3Ψ; each × (P − 1)/P",
    example: `in units of Ψ on 64 ranks: ${zeroUnits.join(", ")} at stages 0–3; FSDP FULL_SHARD sends ${num(fsdpCommPerRank("FULL_SHARD", 7.5e9, 64), 3)} elements per rank for Ψ = 7.5B` },
  { slug: "offload", anchor: "where-the-model-states-live", name: "ZeRO-Offload's split",
    formula: "GPU: fp16 parameters (2Ψ) and activations; CPU: master weights, moments (12Ψ) and a gradient buffer; per step 2Ψ of gradients down and 2Ψ of parameters up over PCIe (DeepSpeed sends fp32 gradients, 4Ψ)",
    example: `L = 32, h = 4096 (Ψ ≈ 6.4B): GPU ${bytes(offloaded.gpu.total)}, host ${bytes(offloaded.cpu.total)}` },
  { slug: "offload", anchor: "the-delayed-parameter-update", name: "Step time with offload",
    formula: "synchronous: GPU compute + the tail of the transfers + CPU Adam (Ψ ÷ its rate, at most DRAM bandwidth ÷ bytes per parameter); with DPU about max(GPU compute, CPU Adam)",
    example: `the model above: ${time(sync.stepTimeS)}, with DPU ${time(dpu.stepTimeS)}; CPU Adam at most ${num(DEFAULT_OFFLOAD_HARDWARE.cpuAdamElementsPerS / 1e9, 2)} G parameters/s (${CPU_ADAM_BYTES_PER_ELEMENT} bytes each)` },
  { slug: "plan", anchor: "model-flop-utilisation", name: "Model-FLOP utilisation",
    formula: "MFU = model FLOPs per token × tokens/s ÷ (GPUs × peak FLOP/s), the model's FLOPs per token being PaLM's 6N + 12·L·H·Q·T (6Ψ drops attention's term); recomputation's FLOPs do not count",
    example: `MPT-70B on 64 H100 at 66,523 tokens/s, with 6Ψ: ${pct(modelFlopsUtilization(66523, 64862437376, 64, 989.5e12))} (llm-foundry prints 42.57 % with PaLM's count)` },
  { slug: "plan", anchor: "the-search", name: "A layout",
    formula: "N GPUs = d × t × p × C (C context-parallel ranks; ep expert-parallel ranks divide d × C, they do not multiply N), t within a node and valid for the model (it divides the heads and the FFN size), p dividing the layers; accumulation steps m = global batch ÷ (b × d)" },
];
