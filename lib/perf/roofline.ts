/**
 * The roofline of one GPU for one data type: how fast it multiplies matrices
 * and how fast it moves bytes, with the fractions of the peaks that measured
 * kernels reach. Every time in lib/perf is max(FLOPs / FLOP rate, bytes / HBM bandwidth).
 * @see Williams, Waterman & Patterson 2009, "Roofline: an insightful visual performance model", CACM 52(4)
 */
export interface Roofline {
  /** Dense tensor-core (matrix) peak for the data type in use, FLOP/s. */
  peakFlops: number;
  /** Fraction of `peakFlops` a large, wave-aligned GEMM reaches (measured MAMF / peak), in (0, 1]. */
  matmulEfficiency: number;
  /** Fraction of `peakFlops` a fused attention kernel (FlashAttention) reaches over forward and backward, in (0, 1]. */
  attentionEfficiency: number;
  /** HBM (device memory) bandwidth, bytes/s. */
  hbmBytesPerS: number;
  /** Streaming multiprocessors (NVIDIA) or compute units (AMD): how many GEMM tiles run at once. */
  numSMs: number;
}

/** Output tile of one GEMM thread block, rows × columns (cuBLAS's common 128 × 128). */
export const GEMM_TILE = 128;

/**
 * Checks a roofline and returns it.
 * @param r the roofline
 * @returns `r`
 * @throws RangeError naming the field: `peakFlops must be a finite number > 0, got 0`, `matmulEfficiency must be in (0, 1], got 1.2`,
 *   `numSMs must be an integer >= 1, got 0`
 * @example checkRoofline({ peakFlops: 312e12, matmulEfficiency: 0.869, attentionEfficiency: 0.5, hbmBytesPerS: 2.039e12, numSMs: 108 }).numSMs // 108
 * @see {@link Roofline}
 */
export function checkRoofline(r: Roofline): Roofline {
  for (const k of ["peakFlops", "hbmBytesPerS"] as const) {
    if (!Number.isFinite(r[k]) || r[k] <= 0) throw new RangeError(`${k} must be a finite number > 0, got ${r[k]}`);
  }
  for (const k of ["matmulEfficiency", "attentionEfficiency"] as const) {
    if (!Number.isFinite(r[k]) || r[k] <= 0 || r[k] > 1) throw new RangeError(`${k} must be in (0, 1], got ${r[k]}`);
  }
  if (!Number.isSafeInteger(r.numSMs) || r.numSMs < 1) throw new RangeError(`numSMs must be an integer >= 1, got ${r.numSMs}`);
  return r;
}

/**
 * Time to move `bytes` through HBM at its full bandwidth: the memory side of the
 * roofline, for elementwise kernels (normalisation, activation, residual, dropout,
 * an eager softmax) whose few FLOPs per byte leave them memory-bound.
 * @param bytes bytes read plus bytes written (≥ 0)
 * @param r the roofline
 * @returns seconds
 * @throws RangeError `bytes must be a finite number >= 0, got -1`
 * @example memoryTimeS(2.039e9, { peakFlops: 312e12, matmulEfficiency: 0.869, attentionEfficiency: 0.5, hbmBytesPerS: 2.039e12, numSMs: 108 }) // 0.001
 * @see Williams et al. 2009 (the roofline); Ivanov et al. 2021, "Data Movement Is All You Need", MLSys (elementwise and normalisation kernels of a transformer are memory-bound)
 */
export function memoryTimeS(bytes: number, r: Roofline): number {
  if (!Number.isFinite(bytes) || bytes < 0) throw new RangeError(`bytes must be a finite number >= 0, got ${bytes}`);
  return bytes / r.hbmBytesPerS;
}

/**
 * A GEMM's shape: C (m × n) = A (m × k) · B (k × n), `batch` times (a batched GEMM, e.g. one per attention head).
 * @see {@link gemmTime}
 */
export interface GemmShape {
  m: number;
  n: number;
  k: number;
  /** Independent products of this shape (default 1). */
  batch?: number;
  /** Bytes of one element of A, B and C (2 for fp16/bf16, 4 for fp32). */
  bytesPerElement: number;
}

/**
 * The time of a GEMM on the roofline:
 *
 *   FLOPs = 2·m·n·k·batch, bytes = (m·k + k·n + m·n)·batch·e,
 *   time = max(FLOPs / (peak · η · w), bytes / HBM bandwidth),
 *
 * where η is the measured efficiency of a large GEMM (`matmulEfficiency`) and w
 * the quantization efficiency: the output is cut into 128 × 128 tiles, one per SM
 * at a time, every tile costing a full tile's work (tile quantization), so
 * ⌈m/128⌉·⌈n/128⌉·batch tiles run in ⌈tiles / SMs⌉ waves (wave quantization) and
 * w = m·n·batch / (waves · SMs · 128²). A small product (one wave, part empty) runs further
 * from the peak than a large one; that, not a constant, is why a smaller micro-batch
 * or a larger tensor-parallel size lowers the per-GPU rate. The time never decreases
 * when a dimension grows.
 * @param g the shape ({@link GemmShape})
 * @param r the roofline
 * @returns `{flops, bytes, waveEfficiency, timeS, memoryBound}` (`waveEfficiency` is w); an empty product costs only its bytes
 * @throws RangeError `m must be an integer >= 0, got -1` (likewise n, k, batch), `bytesPerElement must be a finite number > 0, got 0`,
 *   and those of {@link checkRoofline}
 * @example gemmTime({ m: 4096, n: 12288, k: 4096, bytesPerElement: 2 }, a100).timeS
 *   // 32·96 = 3072 tiles on 108 SMs: 29 waves, w = 3072/3132 = 0.981; 412 GFLOP / (312e12 · 0.869 · 0.981) ≈ 1.55 ms
 * @see NVIDIA, *Matrix Multiplication Background User's Guide* (DU-09799-001), §2 "Math and memory bounds", §3.1 "Tile quantization", §3.2 "Wave quantization";
 *   S. Bekman, *Machine Learning Engineering*, compute/accelerator/README.md (stas00/ml-engineering @744d01e), "Maximum Achievable Matmul FLOPS comparison table" (η)
 */
export function gemmTime(g: GemmShape, r: Roofline): { flops: number; bytes: number; waveEfficiency: number; timeS: number; memoryBound: boolean } {
  checkRoofline(r);
  const batch = g.batch ?? 1;
  for (const [k, v] of [["m", g.m], ["n", g.n], ["k", g.k], ["batch", batch]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`${k} must be an integer >= 0, got ${v}`);
  }
  if (!Number.isFinite(g.bytesPerElement) || g.bytesPerElement <= 0) throw new RangeError(`bytesPerElement must be a finite number > 0, got ${g.bytesPerElement}`);
  const flops = 2 * g.m * g.n * g.k * batch;
  const bytes = (g.m * g.k + g.k * g.n + g.m * g.n) * batch * g.bytesPerElement;
  if (flops === 0) return { flops: 0, bytes, waveEfficiency: 1, timeS: memoryTimeS(bytes, r), memoryBound: true };
  const tiles = Math.ceil(g.m / GEMM_TILE) * Math.ceil(g.n / GEMM_TILE) * batch;
  const waves = Math.ceil(tiles / r.numSMs);
  const waveEfficiency = (g.m * g.n * batch) / (waves * r.numSMs * GEMM_TILE * GEMM_TILE);
  const computeS = flops / (r.peakFlops * r.matmulEfficiency * waveEfficiency);
  const memS = memoryTimeS(bytes, r);
  return { flops, bytes, waveEfficiency, timeS: Math.max(computeS, memS), memoryBound: memS > computeS };
}
