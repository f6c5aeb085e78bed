/**
 * The machine the offload timeline runs on: one GPU, its host CPU, the PCIe
 * link between them (each direction its own α-β link) and an NVMe drive.
 * Every default is a published figure or arithmetic on one; where a figure is
 * an assumption the field says so.
 */
import { LINK_PRESETS } from "../collectives/linkPresets.js";
import { A100_DENSE_FP16_FLOPS } from "../memory/index.js";

/**
 * One direction of a link under the α-β model: a transfer of n bytes takes α + n / B.
 * @see Hockney 1994, "The communication challenge for MPP" (the α-β model); lib/collectives costModel.ts
 */
export interface Link {
  /** α, seconds per transfer (≥ 0). */
  alphaS: number;
  /** B, bytes per second (> 0). */
  bandwidthBytesPerS: number;
}

/**
 * The hardware of the offload timeline.
 * @see {@link DEFAULT_OFFLOAD_HARDWARE} for the source of every default
 */
export interface OffloadHardware {
  /** Achieved GPU FLOP/s of the forward and backward matmuls (> 0). */
  gpuFlopsPerS: number;
  /** GPU memory in bytes (> 0). */
  gpuMemoryBytes: number;
  /** Adam elements per second on the GPU, when the optimizer is not offloaded (> 0). */
  gpuAdamElementsPerS: number;
  /** Host to device (parameters to the GPU). */
  h2d: Link;
  /** Device to host (gradients to the CPU). */
  d2h: Link;
  /** Adam elements per second on the CPU (> 0): DeepSpeedCPUAdam's rate on this host (the default is a DRAM-bandwidth ceiling). */
  cpuAdamElementsPerS: number;
  /** Host memory in bytes (> 0). */
  cpuMemoryBytes: number;
  /** NVMe read bandwidth, bytes/s (> 0). */
  nvmeReadBytesPerS: number;
  /** NVMe write bandwidth, bytes/s (> 0). */
  nvmeWriteBytesPerS: number;
}

/**
 * Bytes one Adam step touches per parameter in mixed precision: it reads the
 * 16-bit gradient (2) and the fp32 master, m and v (12), and writes the fp32
 * master, m, v (12) and the 16-bit copy of the parameter (2). Adam is memory
 * bound on CPUs and GPUs alike, so elements/s ≈ memory bandwidth / 28.
 * @example ADAM_BYTES_PER_ELEMENT // 28
 * @see Ren et al. 2021, *ZeRO-Offload*, §4.1 (fp16 gradients in, fp16 parameters out; fp32 parameters, momentum and variance on the CPU)
 */
export const ADAM_BYTES_PER_ELEMENT = 28;

/**
 * Bytes of host memory traffic per parameter of DeepSpeed's offloaded Adam step (ZeRO-1/2 with
 * `offload_optimizer`): the gradient arrives in fp32, converted on the GPU and copied into a pinned fp32
 * buffer (4 written by the copy, 4 read by Adam), Adam reads and writes the fp32 master, m and v (12 + 12)
 * and writes the 16-bit copy sent back to the GPU (2): at least 34, six more than the paper's fp16-gradient 28.
 * @example CPU_ADAM_BYTES_PER_ELEMENT // 34
 * @see DeepSpeed `deepspeed/runtime/zero/stage_1_and_2.py` at commit edaa722 (`async_inplace_copy_grad_to_fp32_buffer_from_gpu`:
 *   `src_tensor.to(self.master_weights_and_grads_dtype)` then `copy_` into `single_partition_of_fp32_groups[i].grad`)
 */
export const CPU_ADAM_BYTES_PER_ELEMENT = 34;

const pcie = LINK_PRESETS.find((p) => p.id === "pcie4-x16")!;
/** 8 channels of DDR4-3200 (one AMD EPYC 7002 socket, as in a DGX A100): 3200 MT/s × 8 bytes × 8 channels. */
const HOST_DRAM_BYTES_PER_S = 3200e6 * 8 * 8;
/** One PCIe 4.0 ×4 NVMe drive's link ceiling: 16 GT/s × 4 lanes × 128/130 ÷ 8 bits. */
const NVME_LINK_BYTES_PER_S = (16e9 * 4 * 128) / 130 / 8;

/**
 * An A100-40GB in a PCIe 4.0 host with one socket of DDR4-3200 and one NVMe drive.
 *
 * | field | default | from |
 * |---|---|---|
 * | gpuFlopsPerS | 156 TFLOP/s | A100 dense fp16 peak 312 TFLOP/s × 0.5 (the 0.5 is an assumed utilisation) |
 * | gpuMemoryBytes | 40 GiB | A100 40GB |
 * | gpuAdamElementsPerS | 55.5 G/s | 1555 GB/s HBM2 ÷ 28 bytes |
 * | h2d, d2h | 31.5 GB/s, α 5 µs | PCIe 4.0 ×16 per direction (lib/collectives LINK_PRESETS; α assumed) |
 * | cpuAdamElementsPerS | 6.0 G/s | 204.8 GB/s DDR4-3200 × 8 channels ÷ 34 bytes ({@link CPU_ADAM_BYTES_PER_ELEMENT}): a STREAM-style memory-bandwidth ceiling, not a measured CPU-Adam rate; real runs are slower (measure your own) |
 * | cpuMemoryBytes | 1 TiB | DGX A100 system memory (1 TB) |
 * | nvmeRead/WriteBytesPerS | 7.88 GB/s | PCIe 4.0 ×4 link of one drive (a ceiling; drives write slower) |
 *
 * @example DEFAULT_OFFLOAD_HARDWARE.h2d.bandwidthBytesPerS // 31507692307.69 (PCIe 4.0 ×16)
 * @see NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020): 312 TFLOPS dense FP16, 1555 GB/s, 40 GB;
 *   PCI Express Base Specification 4.0; JEDEC JESD79-4 (DDR4-3200); NVIDIA DGX A100 User Guide (system memory);
 *   AMD EPYC 7002 series (8 DDR4-3200 channels per socket)
 */
export const DEFAULT_OFFLOAD_HARDWARE: Readonly<OffloadHardware> = Object.freeze({
  gpuFlopsPerS: A100_DENSE_FP16_FLOPS * 0.5,
  gpuMemoryBytes: 40 * 2 ** 30,
  gpuAdamElementsPerS: 1555e9 / ADAM_BYTES_PER_ELEMENT,
  h2d: Object.freeze({ alphaS: pcie.alphaS, bandwidthBytesPerS: pcie.bandwidthBytesPerS }),
  d2h: Object.freeze({ alphaS: pcie.alphaS, bandwidthBytesPerS: pcie.bandwidthBytesPerS }),
  cpuAdamElementsPerS: HOST_DRAM_BYTES_PER_S / CPU_ADAM_BYTES_PER_ELEMENT,
  cpuMemoryBytes: 2 ** 40,
  nvmeReadBytesPerS: NVME_LINK_BYTES_PER_S,
  nvmeWriteBytesPerS: NVME_LINK_BYTES_PER_S,
});

function positive(name: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) throw new RangeError(`${name} must be a finite number > 0, got ${String(v)}`);
  return v;
}

function link(name: string, l: Partial<Link> | undefined, d: Link): Link {
  const alphaS = l?.alphaS ?? d.alphaS;
  if (typeof alphaS !== "number" || !Number.isFinite(alphaS) || alphaS < 0) throw new RangeError(`${name}.alphaS must be a finite number >= 0, got ${String(alphaS)}`);
  return { alphaS, bandwidthBytesPerS: positive(`${name}.bandwidthBytesPerS`, l?.bandwidthBytesPerS ?? d.bandwidthBytesPerS) };
}

/** Hardware as a caller may give it: any field left out takes its default; links may be partial. */
export type HardwareOptions = Partial<Omit<OffloadHardware, "h2d" | "d2h">> & { h2d?: Partial<Link>; d2h?: Partial<Link> };

/**
 * Fills in the defaults and checks every field.
 * @param h fields to override (others from {@link DEFAULT_OFFLOAD_HARDWARE})
 * @returns a complete, new hardware description
 * @throws RangeError naming the field: `h2d.bandwidthBytesPerS must be a finite number > 0, got 0`,
 *   `cpuAdamElementsPerS must be a finite number > 0, got -1`, `d2h.alphaS must be a finite number >= 0, got NaN`
 * @example validateHardware({ cpuAdamElementsPerS: 1e9 }).cpuAdamElementsPerS // 1e9
 * @see {@link DEFAULT_OFFLOAD_HARDWARE}
 */
export function validateHardware(h: HardwareOptions = {}): OffloadHardware {
  const d = DEFAULT_OFFLOAD_HARDWARE;
  const out: OffloadHardware = {
    gpuFlopsPerS: positive("gpuFlopsPerS", h.gpuFlopsPerS ?? d.gpuFlopsPerS),
    gpuMemoryBytes: positive("gpuMemoryBytes", h.gpuMemoryBytes ?? d.gpuMemoryBytes),
    gpuAdamElementsPerS: positive("gpuAdamElementsPerS", h.gpuAdamElementsPerS ?? d.gpuAdamElementsPerS),
    h2d: link("h2d", h.h2d, d.h2d),
    d2h: link("d2h", h.d2h, d.d2h),
    cpuAdamElementsPerS: positive("cpuAdamElementsPerS", h.cpuAdamElementsPerS ?? d.cpuAdamElementsPerS),
    cpuMemoryBytes: positive("cpuMemoryBytes", h.cpuMemoryBytes ?? d.cpuMemoryBytes),
    nvmeReadBytesPerS: positive("nvmeReadBytesPerS", h.nvmeReadBytesPerS ?? d.nvmeReadBytesPerS),
    nvmeWriteBytesPerS: positive("nvmeWriteBytesPerS", h.nvmeWriteBytesPerS ?? d.nvmeWriteBytesPerS),
  };
  return out;
}
