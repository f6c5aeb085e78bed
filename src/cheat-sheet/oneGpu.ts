// The cheat sheet's formulas of the chapters about one GPU (1–4, 10, 11), with examples computed by lib at build time.
import { FORMATS, FORMAT_NAMES, ulp, round } from "../../lib/precision/index.js";
import { parameterCount, parseModelConfig, bytesPerParam, modelStateBytes, activationBytesPerLayer, trainingFlopsPerToken } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";
import { simulateCheckpointing, sqrtSegments } from "../../lib/accumulation-checkpointing/index.js";
import { GRAD_SCALER_DEFAULTS } from "../../lib/amp/updateScale.js";
import { DELAYED_SCALING_DEFAULTS, MX_BLOCK_SIZE, fp8Max, mxScaleExponent, scaleFromAmax } from "../../lib/amp/fp8/index.js";
import { standardAttentionIO, flashAttentionIO, flashBlockSizes } from "../../lib/flash-attention/index.js";
import { SOPHIAG_DEFAULTS, hessianSchedule } from "../../lib/sophia/index.js";
import { bytes, int, mib, num, type Formula } from "./format.js";

const largest = (x: number) => (Number.isInteger(x) && x < 1e6 ? int(x) : num(x, 3));
const formats = FORMAT_NAMES.map((n) => `${n} up to ±${largest(FORMATS[n].maxFinite)}, ε = 2<sup>−${FORMATS[n].mantissaBits}</sup>`).join("; ");
const llama13 = parameterCount(parseModelConfig(loadPresetText("llama-2-13b")));
const zero = [0, 1, 2, 3].map((zeroStage) => modelStateBytes({ params: 7.5e9, dataParallel: 64, zeroStage: zeroStage as 0, precision: "fp16", optimizer: "adamw" }));
const gpt3 = { seqLen: 2048, microBatch: 1, hiddenSize: 12288, numHeads: 96 };
const layers16 = Array.from({ length: 16 }, () => ({ inputBytes: 1, savedBytes: 1, flops: 1 }));
const ckPlain = simulateCheckpointing(layers16, [16]).result, ckSqrt = simulateCheckpointing(layers16, sqrtSegments(16)).result;
const designA = bytesPerParam("fp16", "adamw"), designB = bytesPerParam("fp16", "adamw", "torch");
const sum = (b: { parameters: number; gradients: number; optimizerStates: number }) => b.parameters + b.gradients + b.optimizerStates;
const attn = { B: 1, H: 1, Nq: 4096, Nk: 4096, d: 64 }, sram = (163 * 1024) / 2;
const tiles = flashBlockSizes(sram, 64);

export const ONE_GPU: Formula[] = [
  { slug: "precision", anchor: "one-layout-six-formats", name: "A floating-point number",
    formula: "(−1)<sup>s</sup> · 1.f · 2<sup>e − bias</sup>: m fraction bits give m + 1 significant bits, machine ε = 2<sup>−m</sup>",
    example: formats },
  { slug: "precision", anchor: "how-far-apart-are-neighbouring-values", name: "Spacing of neighbouring values",
    formula: "ulp(x) = 2<sup>⌊log₂|x|⌋ − m</sup>: constant inside a binade, doubling from one to the next",
    example: `ulp<sub>fp16</sub>(2048) = ${ulp("fp16", 2048)}, ulp<sub>bf16</sub>(0.5) = ${ulp("bf16", 0.5)}` },
  { slug: "precision", anchor: "accumulation-why-sums-need-more-precision-than-storage", name: "A lost addend",
    formula: "S + x rounds back to S when |x| &lt; ulp(S)/2 (a tie goes to the even neighbour)",
    example: `in fp16, 2048 + 1 = ${round("fp16", 2049)}` },
  { slug: "memory", anchor: "parameters-from-a-config-json", name: "Parameters of a Llama-style model",
    formula: "per layer 2h·a·d + 2h·k·d (Q, O; K, V with k KV heads) + 3h·I (SwiGLU MLP) + 2h (norms); plus V·h embedding, h final norm, V·h head unless tied",
    example: `Llama-2-13B: ${int(llama13.total)}` },
  { slug: "memory", anchor: "model-states-two-mixed-precision-designs", name: "Model states per GPU, with ZeRO over N<sub>d</sub> GPUs",
    formula: "(2 + 2 + K)Ψ with K = 12 for mixed-precision Adam; stage 1: 2Ψ + 2Ψ + KΨ/N<sub>d</sub>; stage 2: 2Ψ + (2 + K)Ψ/N<sub>d</sub>; stage 3: (2 + 2 + K)Ψ/N<sub>d</sub>",
    example: `Ψ = 7.5B on 64 GPUs: ${zero.map((z) => bytes(z.parameters + z.gradients + z.optimizerStates)).join(", ")} at stages 0–3` },
  { slug: "memory", anchor: "activations", name: "Activations of one layer (16-bit)",
    formula: "sbh(34 + 5as/h); tensor parallel t: sbh(10 + 24/t + 5as/(ht)); with sequence parallelism sbh(34/t + 5as/(ht)); full recomputation 2sbh",
    example: `GPT-3 (s = 2048, h = 12288, a = 96): ${mib(activationBytesPerLayer(gpt3))} per layer, ${mib(activationBytesPerLayer({ ...gpt3, tensorParallel: 8, sequenceParallel: true, recompute: "selective" }))} with t = 8, SP and selective recomputation` },
  { slug: "memory", anchor: "flop-check-of-the-benchmarked-model", name: "Training FLOPs",
    formula: "6Ψ per token (2Ψ forward, 4Ψ backward); 8Ψ with full recomputation",
    example: `Llama-2-13B: ${num(trainingFlopsPerToken(llama13.total), 3)} FLOP per token` },
  { slug: "accumulation-checkpointing", anchor: "gradient-accumulation", name: "Gradient over an accumulation window",
    formula: "∇L = Σ<sub>i</sub> (1/N)·∇S<sub>i</sub>, S<sub>i</sub> the summed loss of micro-batch i and N the tokens of the whole window (not 1/K of each mean)" },
  { slug: "accumulation-checkpointing", anchor: "activation-checkpointing", name: "Checkpointing n layers in k segments",
    formula: "peak ≈ n/k + k layers' activations, least at k ≈ √n; recomputes every segment but the last (up to one forward pass)",
    example: `16 equal layers in ${sqrtSegments(16).length} segments: ${ckSqrt.peakBytes} layers' worth instead of ${ckPlain.peakBytes}, ${(100 * ckSqrt.recomputeFlops / ckSqrt.forwardFlops).toFixed(0)} % of a forward recomputed` },
  { slug: "amp", anchor: "two-designs-of-mixed-precision", name: "Bytes per parameter, two designs",
    formula: "16-bit model + fp32 master in the optimizer (DeepSpeed, Megatron) against fp32 parameters under autocast (PyTorch AMP)",
    example: `${designA.parameters} + ${designA.gradients} + ${designA.optimizerStates} = ${sum(designA)} and ${designB.parameters} + ${designB.gradients} + ${designB.optimizerStates} = ${sum(designB)}` },
  { slug: "amp", anchor: "py-torchs-grad-scaler", name: "Dynamic loss scaling",
    formula: "backward on S·L, then g = fp32(1/S)·(S·g); an inf or NaN skips the step and S ← S·backoff; after growth_interval clean steps S ← S·growth",
    example: `GradScaler's defaults: S = 2<sup>${Math.log2(GRAD_SCALER_DEFAULTS.initScale)}</sup>, backoff ${GRAD_SCALER_DEFAULTS.backoffFactor}, growth ${GRAD_SCALER_DEFAULTS.growthFactor} every ${GRAD_SCALER_DEFAULTS.growthInterval} steps` },
  { slug: "amp", anchor: "why-fp32-master-weights", name: "A lost update",
    formula: "w − lr·g rounds back to w when |lr·g| &lt; ulp(w)/2",
    example: `near 1: below ${num(ulp("fp16", 1) / 2)} in fp16, ${num(ulp("fp32", 1) / 2, 3)} in fp32` },
  { slug: "amp", anchor: "the-recipe-which-tensors-are-fp-8", name: "FP8 training's three GEMMs (HYBRID)",
    formula: "Fprop y = x·W: x, W in E4M3; Dgrad dx = dy·Wᵀ: dy in E5M2, W in E4M3; Wgrad dW = xᵀ·dy: x in E4M3, dy in E5M2; results in bf16, weights and optimizer states in fp32",
    example: `E4M3 up to ±${fp8Max("fp8-e4m3")}, E5M2 up to ±${int(fp8Max("fp8-e5m2"))}` },
  { slug: "amp", anchor: "delayed-scaling", name: "FP8 per-tensor scale",
    formula: "q = fp8(x·s), read back as q/s; s = fp32(fp8_max·2<sup>−margin</sup>) / amax, the amax measured just before the cast (current scaling) or the largest of the last L steps' (delayed scaling)",
    example: `amax 3 in E4M3: s = ${num(scaleFromAmax(3, fp8Max("fp8-e4m3")), 7)}; Transformer Engine's DelayedScaling defaults: history ${DELAYED_SCALING_DEFAULTS.amaxHistoryLen}, "${DELAYED_SCALING_DEFAULTS.amaxComputeAlgo}", margin ${DELAYED_SCALING_DEFAULTS.margin}` },
  { slug: "amp", anchor: "current-scaling-and-block-wise-scaling", name: "MXFP8's block scale",
    formula: "each block of k elements shares 2<sup>e</sup> (E8M0): the OCP rule e = ⌊log<sub>2</sub> amax⌋ − 8 (values above 448 clamped), Transformer Engine's e = ⌈log<sub>2</sub>(amax/448)⌉; DeepSeek-V3's block-wise scaling: 1 × 128 tiles of activations and gradients, 128 × 128 blocks of weights",
    example: `k = ${MX_BLOCK_SIZE}; block amax 500: e = ${mxScaleExponent(500, "ocp")} (OCP, 500 → 448), e = ${mxScaleExponent(500, "te")} (TE, 500 → ${500 / 2 ** mxScaleExponent(500, "te")})` },
  { slug: "flash-attention", anchor: "the-online-softmax-and-the-logsumexp", name: "Online softmax, one block of scores s<sub>j</sub>",
    formula: "m′ = max(m, max<sub>j</sub> s<sub>j</sub>); ℓ′ = e<sup>m − m′</sup>ℓ + Σ<sub>j</sub> e<sup>s<sub>j</sub> − m′</sup>; acc′ = e<sup>m − m′</sup>acc + Σ<sub>j</sub> e<sup>s<sub>j</sub> − m′</sup>v<sub>j</sub>; output acc/ℓ, logsumexp m + log ℓ" },
  { slug: "flash-attention", anchor: "slow-memory-traffic-standard-versus-flash-attention", name: "HBM traffic of attention",
    formula: "standard Θ(Nd + N²); FlashAttention Θ(N²d²/M) with tiles B<sub>c</sub> = ⌈M/4d⌉, B<sub>r</sub> = min(⌈M/4d⌉, d)",
    example: `one head, N = 4096, d = 64, M = 163 KB of 2-byte elements (B<sub>c</sub> = ${tiles.Bc}, B<sub>r</sub> = ${tiles.Br}): ${mib(standardAttentionIO(attn, 2).totalBytes)} against ${mib(flashAttentionIO(attn, sram, 2).totalBytes)}` },
  { slug: "sophia", anchor: "the-algorithm-line-by-line", name: "SophiaG's step (the code's order)",
    formula: "θ ← θ(1 − lr·λ); m ← β<sub>1</sub>m + (1 − β<sub>1</sub>)g; θ ← θ − lr·sign(m)·min(|m|/(ρ·bs·h + ε), 1); every k steps h ← β<sub>2</sub>h + (1 − β<sub>2</sub>)ĝ⊙ĝ",
    example: `defaults lr ${SOPHIAG_DEFAULTS.lr}, β = (${SOPHIAG_DEFAULTS.betas.join(", ")}), ρ ${SOPHIAG_DEFAULTS.rho}, λ ${SOPHIAG_DEFAULTS.weightDecay}; k = 10 adds ${hessianSchedule(100, 10).length} passes per 100 steps` },
];
