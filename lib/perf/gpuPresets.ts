import type { Precision } from "../memory/index.js";
import type { Roofline } from "./roofline.js";

/**
 * A GPU as the planner sees it: memory, dense peaks by data type, HBM bandwidth,
 * SMs, the link between GPUs of a node, and the measured fractions of the peak
 * that GEMMs and fused attention reach.
 * @see {@link GPU_PRESETS} for the data sheets and measurements each figure comes from
 */
export interface GpuSpec {
  /** Short id, e.g. "a100-80gb". */
  id: string;
  name: string;
  /** Device memory in bytes, as marketed, read as GiB (nvidia-smi reports 81920 MiB for an A100 80GB). */
  memoryBytes: number;
  /** Dense (no structured sparsity) peak FLOP/s by data type: fp32 on CUDA cores, tf32 and bf16/fp16 on tensor cores; fp8 where it exists. */
  peakFlops: { fp32: number; tf32: number; bf16: number; fp8?: number };
  /** The dense bf16/fp16 peak, `peakFlops.bf16` (kept for callers that use one figure, e.g. MFU). */
  peakFlops16: number;
  /** HBM (device memory) bandwidth, bytes/s. */
  hbmBytesPerS: number;
  /** Streaming multiprocessors (AMD: compute units). */
  numSMs: number;
  /** Link id (lib/collectives LINK_PRESETS) between the GPUs of a node. */
  intraNodeLink: string;
  /** Link id of the GPU's host interface (offload traffic). */
  hostLink: string;
  /** Measured large-GEMM bf16 throughput over the peak (MAMF / peak), and where it comes from. */
  matmulEfficiency: { fraction: number; source: string };
  /** FlashAttention forward + backward throughput over the bf16 peak, and where it comes from. */
  attentionEfficiency: { fraction: number; source: string };
  /** Measured large-GEMM FP8 (E4M3) throughput over the fp8 peak, where it was measured (absent: {@link gpuFp8Roofline} takes the bf16 fraction and says so). */
  fp8MatmulEfficiency?: { fraction: number; source: string };
  /** The documents the figures come from. */
  source: string;
}

const GiB = 2 ** 30;
const MAMF = "S. Bekman, Machine Learning Engineering (stas00/ml-engineering @744d01e), compute/accelerator/README.md, Maximum Achievable Matmul FLOPS table (BF16)";
const MAMF_FP8 = "S. Bekman, Machine Learning Engineering (stas00/ml-engineering @744d01e), compute/accelerator/README.md, Maximum Achievable Matmul FLOPS table (FP8, float8_e4m3fn)";
const FA2_A100 = "Dao 2023, FlashAttention-2, abstract: 50–73 % of the A100's peak; 50 % taken for forward + backward (the backward pass runs at the low end)";
const FA2_H100 = "Dao 2023, FlashAttention-2, §4.1: up to 335 TFLOP/s on H100 (34 %); Shah et al. 2024, FlashAttention-3, §1: FlashAttention-2 reaches 35 % of the H100";
const ASSUMED_ATTN = "no published FlashAttention measurement on this GPU: the H100's 35 % is assumed";

const gpu = (o: Omit<GpuSpec, "peakFlops16">): GpuSpec => Object.freeze({ ...o, peakFlops16: o.peakFlops.bf16 });

/**
 * GPUs the planner knows by name (dense peaks; SXM/OAM parts unless said).
 *
 * | id | memory | bf16 | fp8 | HBM | SMs | inside a node | GEMM / attention / fp8 GEMM measured |
 * |---|---|---|---|---|---|---|---|
 * | a100-40gb | 40 GiB | 312 T | – | 1,555 GB/s | 108 | NVSwitch 600 GB/s | 86.9 % / 50 % / – |
 * | a100-80gb | 80 GiB | 312 T | – | 2,039 GB/s | 108 | NVSwitch 600 GB/s | 86.9 % / 50 % / – |
 * | h100-80gb | 80 GiB | 989.5 T | 1,979 T | 3,350 GB/s | 132 | NVSwitch 900 GB/s | 80.3 % / 35 % / 70.9 % |
 * | h800-80gb | 80 GiB | 989.5 T | 1,979 T | 3,350 GB/s | 132 | NVSwitch 400 GB/s | 80.3 % / 35 % / 70.9 % (the H100's) |
 * | h200-141gb | 141 GiB | 989.5 T | 1,979 T | 4,800 GB/s | 132 | NVSwitch 900 GB/s | 80.3 % / 35 % / 73.4 % |
 * | b200-180gb | 180 GiB | 2,250 T | 4,500 T | 8,000 GB/s | 148 | NVSwitch 1,800 GB/s | 77.6 % / 35 % (assumed) / 76.3 % |
 * | mi300x-192gb | 192 GiB | 1,307 T | 2,615 T | 5,300 GB/s | 304 | Infinity Fabric 7 × 128 GB/s | 51.4 % / 35 % (assumed) / (bf16's) |
 * | l40s-48gb (PCIe) | 48 GiB | 362 T | 733 T | 864 GB/s | 142 | PCIe 4.0 ×16 | 77.6 % (assumed) / 35 % (assumed) / (bf16's) |
 *
 * ("600 GB/s" etc. count both directions.)
 * @example GPU_PRESETS.find((g) => g.id === "h200-141gb")!.hbmBytesPerS // 4.8e12
 * @see NVIDIA A100 Tensor Core GPU datasheet; NVIDIA H100 Tensor Core GPU datasheet (SXM); NVIDIA H200 Tensor Core GPU datasheet;
 *   NVIDIA DGX B200 datasheet and HGX B200 specifications; AMD Instinct MI300X data sheet; NVIDIA L40S datasheet;
 *   A100/H100 architecture whitepapers (SM counts); the sources named in each preset's efficiencies
 */
export const GPU_PRESETS: readonly GpuSpec[] = Object.freeze([
  gpu({
    id: "a100-40gb", name: "NVIDIA A100 40GB (SXM)", memoryBytes: 40 * GiB, peakFlops: { fp32: 19.5e12, tf32: 156e12, bf16: 312e12 },
    hbmBytesPerS: 1555e9, numSMs: 108, intraNodeLink: "a100-nvswitch", hostLink: "pcie4-x16",
    matmulEfficiency: { fraction: 271.2 / 312, source: `${MAMF}: A100 SXM 271.2 of 312 TFLOP/s` }, attentionEfficiency: { fraction: 0.5, source: FA2_A100 },
    source: "NVIDIA A100 datasheet: 312 TFLOPS BF16/FP16 dense, 156 TF32, 19.5 FP32, 1,555 GB/s (40GB); A100 whitepaper: 108 SMs",
  }),
  gpu({
    id: "a100-80gb", name: "NVIDIA A100 80GB (SXM)", memoryBytes: 80 * GiB, peakFlops: { fp32: 19.5e12, tf32: 156e12, bf16: 312e12 },
    hbmBytesPerS: 2039e9, numSMs: 108, intraNodeLink: "a100-nvswitch", hostLink: "pcie4-x16",
    matmulEfficiency: { fraction: 271.2 / 312, source: `${MAMF}: A100 SXM 271.2 of 312 TFLOP/s` }, attentionEfficiency: { fraction: 0.5, source: FA2_A100 },
    source: "NVIDIA A100 datasheet: 312 TFLOPS BF16/FP16 dense, 156 TF32, 19.5 FP32, 2,039 GB/s (80GB SXM); A100 whitepaper: 108 SMs",
  }),
  gpu({
    id: "h100-80gb", name: "NVIDIA H100 80GB (SXM)", memoryBytes: 80 * GiB, peakFlops: { fp32: 67e12, tf32: 494.5e12, bf16: 989.5e12, fp8: 1979e12 },
    hbmBytesPerS: 3350e9, numSMs: 132, intraNodeLink: "h100-nvswitch", hostLink: "pcie5-x16",
    matmulEfficiency: { fraction: 794.5 / 989.5, source: `${MAMF}: H100 SXM 794.5 of 989 TFLOP/s` }, attentionEfficiency: { fraction: 0.35, source: FA2_H100 },
    fp8MatmulEfficiency: { fraction: 1402.6 / 1979, source: `${MAMF_FP8}: H100 SXM 1,402.6 of 1,979 TFLOP/s` },
    source: "NVIDIA H100 datasheet (SXM): 1,979 TFLOPS BF16 and 3,958 FP8 with sparsity (dense is half), 989 TF32 sparse, 67 FP32, 3.35 TB/s; H100 whitepaper: 132 SMs",
  }),
  gpu({
    id: "h800-80gb", name: "NVIDIA H800 80GB (SXM)", memoryBytes: 80 * GiB, peakFlops: { fp32: 67e12, tf32: 494.5e12, bf16: 989.5e12, fp8: 1979e12 },
    hbmBytesPerS: 3350e9, numSMs: 132, intraNodeLink: "h800-nvswitch", hostLink: "pcie5-x16",
    matmulEfficiency: { fraction: 794.5 / 989.5, source: `${MAMF}: H100 SXM 794.5 of 989 TFLOP/s (the H800 has the H100's tensor cores)` }, attentionEfficiency: { fraction: 0.35, source: FA2_H100 },
    fp8MatmulEfficiency: { fraction: 1402.6 / 1979, source: `${MAMF_FP8}: H100 SXM 1,402.6 of 1,979 TFLOP/s (the H800 has the H100's tensor cores)` },
    source: "NVIDIA H800 datasheet (SXM): the H100 SXM's tensor-core figures and 3.35 TB/s, NVLink cut to 400 GB/s; DeepSeek-AI 2024, DeepSeek-V3 Technical Report §3.1 (H800 nodes of 8, NVLink and NVSwitch inside, InfiniBand between)",
  }),
  gpu({
    id: "h200-141gb", name: "NVIDIA H200 141GB (SXM)", memoryBytes: 141 * GiB, peakFlops: { fp32: 67e12, tf32: 494.5e12, bf16: 989.5e12, fp8: 1979e12 },
    hbmBytesPerS: 4800e9, numSMs: 132, intraNodeLink: "h100-nvswitch", hostLink: "pcie5-x16",
    matmulEfficiency: { fraction: 794.5 / 989.5, source: `${MAMF}: H100 SXM 794.5 of 989 ("H200 is the same")` }, attentionEfficiency: { fraction: 0.35, source: FA2_H100 },
    fp8MatmulEfficiency: { fraction: 1453.4 / 1979, source: `${MAMF_FP8}: H200 SXM 1,453.4 of 1,979 TFLOP/s` },
    source: "NVIDIA H200 datasheet (SXM): 141 GB HBM3e, 4.8 TB/s, NVLink 900 GB/s, the H100's tensor cores (1,979 TFLOPS BF16 with sparsity)",
  }),
  gpu({
    id: "b200-180gb", name: "NVIDIA B200 180GB (HGX/DGX B200)", memoryBytes: 180 * GiB, peakFlops: { fp32: 80e12, tf32: 1125e12, bf16: 2250e12, fp8: 4500e12 },
    hbmBytesPerS: 8000e9, numSMs: 148, intraNodeLink: "b200-nvswitch", hostLink: "pcie5-x16",
    matmulEfficiency: { fraction: 1745 / 2250, source: `${MAMF}: B200 SXM 1,745 of 2,250 TFLOP/s` }, attentionEfficiency: { fraction: 0.35, source: ASSUMED_ATTN },
    fp8MatmulEfficiency: { fraction: 3432.5 / 4500, source: `${MAMF_FP8}: B200 SXM 3,432.5 of 4,500 TFLOP/s` },
    source: "NVIDIA DGX B200 datasheet (8 GPUs: 1,440 GB HBM3e, 64 TB/s, 72 PFLOPS FP8 training with sparsity) and HGX B200 specifications (per GPU 2.25 PFLOPS BF16 dense, 1.8 TB/s NVLink 5)",
  }),
  gpu({
    id: "mi300x-192gb", name: "AMD Instinct MI300X 192GB (OAM)", memoryBytes: 192 * GiB, peakFlops: { fp32: 163.4e12, tf32: 653.7e12, bf16: 1307.4e12, fp8: 2614.9e12 },
    hbmBytesPerS: 5300e9, numSMs: 304, intraNodeLink: "mi300x-infinity-fabric", hostLink: "pcie5-x16",
    matmulEfficiency: { fraction: 668.4 / 1307.4, source: `${MAMF}: MI300X 668.4 of 1,300 TFLOP/s (ROCm 6.3, TunableOp)` }, attentionEfficiency: { fraction: 0.35, source: ASSUMED_ATTN },
    source: "AMD Instinct MI300X data sheet: 1,307.4 TFLOPS FP16/BF16 dense, 2,614.9 FP8, 653.7 TF32, 163.4 FP32, 192 GB HBM3 at 5.3 TB/s, 304 CUs, 7 Infinity Fabric links of 128 GB/s",
  }),
  gpu({
    id: "l40s-48gb", name: "NVIDIA L40S 48GB (PCIe, no NVLink)", memoryBytes: 48 * GiB, peakFlops: { fp32: 91.6e12, tf32: 183e12, bf16: 362.05e12, fp8: 733e12 },
    hbmBytesPerS: 864e9, numSMs: 142, intraNodeLink: "pcie4-x16", hostLink: "pcie4-x16",
    matmulEfficiency: { fraction: 1745 / 2250, source: `no published MAMF for the L40S: the lowest NVIDIA figure of ${MAMF} (B200, 77.6 %) is assumed` }, attentionEfficiency: { fraction: 0.35, source: ASSUMED_ATTN },
    source: "NVIDIA L40S datasheet: 362.05 TFLOPS BF16/FP16 and 733 FP8 dense (733 / 1,466 with sparsity), 183 TF32, 91.6 FP32, 48 GB GDDR6 at 864 GB/s, PCIe Gen4 ×16; Ada whitepaper: 142 SMs",
  }),
]);

/**
 * The GPU with this id.
 * @param id one of the ids of {@link GPU_PRESETS}
 * @returns a copy of its {@link GpuSpec}
 * @throws RangeError `unknown GPU "v100"; known: a100-40gb, a100-80gb, h100-80gb, h800-80gb, h200-141gb, b200-180gb, mi300x-192gb, l40s-48gb`
 * @example gpuPreset("h100-80gb").memoryBytes // 85899345920 (80 GiB)
 * @see {@link GPU_PRESETS}
 */
export function gpuPreset(id: string): GpuSpec {
  const g = GPU_PRESETS.find((x) => x.id === id);
  if (!g) throw new RangeError(`unknown GPU ${JSON.stringify(id)}; known: ${GPU_PRESETS.map((x) => x.id).join(", ")}`);
  return structuredClone(g) as GpuSpec;
}

/**
 * Fraction of the data sheet's HBM bandwidth that the best streaming kernels reach:
 * about 90 % (an A100 80GB read kernel measured at 1.80 of 2.04 TB/s, 88 %, with Nsight
 * Compute; "the maximum memory bandwidth achieved by any kernel was around 90 %" in the GTC
 * talk the thread cites). The planner assumes it for every GPU.
 * @example ACHIEVED_HBM_FRACTION // 0.9
 * @see NVIDIA Developer Forums, "Trouble to Reach Peak Bandwidth of A100" (2025); Jia & Van Sandt 2021, "Dissecting the Ampere GPU architecture via microbenchmarking", GTC
 */
export const ACHIEVED_HBM_FRACTION = 0.9;

/**
 * The roofline of a GPU for a training precision: fp16/bf16 on the tensor
 * cores' bf16 peak; fp32 on the CUDA cores' fp32 peak, since PyTorch does not
 * use TF32 for matmuls unless asked (`torch.backends.cuda.matmul.allow_tf32`
 * defaults to False since 1.12). The measured fractions are those of bf16; HBM runs at
 * {@link ACHIEVED_HBM_FRACTION} of the data sheet's figure.
 * @param g the GPU
 * @param precision "fp32" | "fp16" | "bf16"
 * @returns a lib/perf Roofline
 * @throws RangeError `precision must be fp32, fp16 or bf16, got "fp8"`
 * @example gpuRoofline(gpuPreset("a100-80gb"), "bf16").peakFlops // 312e12
 * @see PyTorch documentation, "CUDA semantics → TensorFloat-32 (TF32) on Ampere (and later) devices"
 */
export function gpuRoofline(g: GpuSpec, precision: Precision): Roofline {
  if (!["fp32", "fp16", "bf16"].includes(precision)) throw new RangeError(`precision must be fp32, fp16 or bf16, got ${JSON.stringify(precision)}`);
  return {
    peakFlops: precision === "fp32" ? g.peakFlops.fp32 : g.peakFlops.bf16,
    matmulEfficiency: g.matmulEfficiency.fraction, attentionEfficiency: g.attentionEfficiency.fraction,
    hbmBytesPerS: g.hbmBytesPerS * ACHIEVED_HBM_FRACTION, numSMs: g.numSMs,
  };
}

/**
 * The roofline of a GPU's FP8 tensor cores, for the GEMMs of an FP8 recipe (Transformer Engine's:
 * E4M3 in forward, E5M2 gradients, bf16 everywhere else): the fp8 peak, the measured fp8 MAMF
 * fraction where there is one ({@link GpuSpec}'s `fp8MatmulEfficiency`; otherwise the bf16 fraction,
 * an assumption), and the bf16 roofline's attention fraction and HBM (attention and elementwise
 * kernels stay in bf16).
 * @param g the GPU (it must have an fp8 peak)
 * @returns a lib/perf Roofline
 * @throws RangeError `the NVIDIA A100 80GB (SXM) has no FP8 tensor cores (peakFlops.fp8 is not given)`
 * @example gpuFp8Roofline(gpuPreset("h100-80gb")).peakFlops * gpuFp8Roofline(gpuPreset("h100-80gb")).matmulEfficiency // 1402.6e12 (MAMF)
 * @see {@link GPU_PRESETS} (the data sheets' dense fp8 peaks); S. Bekman's FP8 MAMF table (stas00/ml-engineering @744d01e);
 *   NVIDIA Transformer Engine at d0067d0, `transformer_engine/common/recipe/__init__.py` (`DelayedScaling`, `Format.HYBRID`)
 */
export function gpuFp8Roofline(g: GpuSpec): Roofline {
  if (!g.peakFlops.fp8) throw new RangeError(`the ${g.name} has no FP8 tensor cores (peakFlops.fp8 is not given)`);
  const bf16 = gpuRoofline(g, "bf16");
  return { ...bf16, peakFlops: g.peakFlops.fp8, matmulEfficiency: (g.fp8MatmulEfficiency ?? g.matmulEfficiency).fraction };
}
