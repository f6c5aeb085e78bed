/**
 * The model's matmul as a gpu.js kernel (through the course's kernel plumbing,
 * lib/kernels/gpujs): WebGL2 in a browser, gpu.js's cpu backend in Node. Opt-in:
 * the CPU {@link matmul} stays the default because it is faster for tiny shapes
 * and can simulate low-precision accumulation.
 */
import { createKernelContext, type GpuMode } from "../kernels/gpujs/createKernelContext.js";
import { checkMatmul, type MatmulShape } from "./matmul.js";
import type { Format } from "./precision.js";
import type { MatmulFn } from "./types.js";

/** A compiled matmul kernel and how to free it. */
export interface GpuMatmul {
  /** Same contract as the CPU matmul; only accumulate = "fp32" (the kernel's native float). */
  matmul: MatmulFn;
  /** The backend that runs the kernel: "webgl2", "webgl", "headlessgl" or "cpu". */
  mode: string;
  /** Frees the kernels and the GPU context (always call it). */
  destroy(): void;
}

type Ctx = { thread: { x: number; y: number }; constants: { K4: number; N4: number } };

/** Row 4iq + 1 of a thread's 4×4 block: a second output of the kernel (a kernel map's render target). */
function matmulRow1(a: number, b: number, c: number, d: number): number[] {
  return [a, b, c, d];
}

/** Row 4iq + 2 of a thread's 4×4 block. */
function matmulRow2(a: number, b: number, c: number, d: number): number[] {
  return [a, b, c, d];
}

/** Row 4iq + 3 of a thread's 4×4 block. */
function matmulRow3(a: number, b: number, c: number, d: number): number[] {
  return [a, b, c, d];
}

/**
 * Thread (x = jq, y = iq) computes the 4×4 block C[4iq … 4iq + 3, 4jq … 4jq + 3]: row 4iq is its
 * return value, rows 4iq + 1 … 4iq + 3 go to three more outputs (matmulRow1 … 3). Per step kq it
 * reads four texels of A, A[4iq + r, 4kq … 4kq + 3], and four of B, B[4kq + t, 4jq … 4jq + 3]:
 * eight reads for 64 multiply-adds (a scalar kernel reads twice per multiply-add). The four
 * products of a step are added first, then to the running sum.
 */
function matmulBody(this: Ctx, a: number[][], b: number[][]): number[] {
  const i = this.thread.y * 4;
  const jq = this.thread.x;
  const K4 = this.constants.K4;
  const N4 = this.constants.N4;
  let s00 = 0.0; let s01 = 0.0; let s02 = 0.0; let s03 = 0.0;
  let s10 = 0.0; let s11 = 0.0; let s12 = 0.0; let s13 = 0.0;
  let s20 = 0.0; let s21 = 0.0; let s22 = 0.0; let s23 = 0.0;
  let s30 = 0.0; let s31 = 0.0; let s32 = 0.0; let s33 = 0.0;
  for (let kq = 0; kq < this.constants.K4; kq++) {
    const a0 = a[i * K4 + kq];
    const a1 = a[(i + 1) * K4 + kq];
    const a2 = a[(i + 2) * K4 + kq];
    const a3 = a[(i + 3) * K4 + kq];
    const base = 4 * kq * N4 + jq;
    const b0 = b[base];
    const b1 = b[base + N4];
    const b2 = b[base + 2 * N4];
    const b3 = b[base + 3 * N4];
    s00 += a0[0] * b0[0] + a0[1] * b1[0] + a0[2] * b2[0] + a0[3] * b3[0];
    s01 += a0[0] * b0[1] + a0[1] * b1[1] + a0[2] * b2[1] + a0[3] * b3[1];
    s02 += a0[0] * b0[2] + a0[1] * b1[2] + a0[2] * b2[2] + a0[3] * b3[2];
    s03 += a0[0] * b0[3] + a0[1] * b1[3] + a0[2] * b2[3] + a0[3] * b3[3];
    s10 += a1[0] * b0[0] + a1[1] * b1[0] + a1[2] * b2[0] + a1[3] * b3[0];
    s11 += a1[0] * b0[1] + a1[1] * b1[1] + a1[2] * b2[1] + a1[3] * b3[1];
    s12 += a1[0] * b0[2] + a1[1] * b1[2] + a1[2] * b2[2] + a1[3] * b3[2];
    s13 += a1[0] * b0[3] + a1[1] * b1[3] + a1[2] * b2[3] + a1[3] * b3[3];
    s20 += a2[0] * b0[0] + a2[1] * b1[0] + a2[2] * b2[0] + a2[3] * b3[0];
    s21 += a2[0] * b0[1] + a2[1] * b1[1] + a2[2] * b2[1] + a2[3] * b3[1];
    s22 += a2[0] * b0[2] + a2[1] * b1[2] + a2[2] * b2[2] + a2[3] * b3[2];
    s23 += a2[0] * b0[3] + a2[1] * b1[3] + a2[2] * b2[3] + a2[3] * b3[3];
    s30 += a3[0] * b0[0] + a3[1] * b1[0] + a3[2] * b2[0] + a3[3] * b3[0];
    s31 += a3[0] * b0[1] + a3[1] * b1[1] + a3[2] * b2[1] + a3[3] * b3[1];
    s32 += a3[0] * b0[2] + a3[1] * b1[2] + a3[2] * b2[2] + a3[3] * b3[2];
    s33 += a3[0] * b0[3] + a3[1] * b1[3] + a3[2] * b2[3] + a3[3] * b3[3];
  }
  matmulRow1(s10, s11, s12, s13);
  matmulRow2(s20, s21, s22, s23);
  matmulRow3(s30, s31, s32, s33);
  return [s00, s01, s02, s03];
}

/**
 * op(X), (rows, cols), as a (padRows, padCols) row-major Float32Array with zeros beyond
 * (rows, cols): X itself when it is stored that way already (no copy), else a copy.
 */
function rowMajor(x: Float32Array, rows: number, cols: number, trans: boolean, padRows: number, padCols: number): Float32Array {
  if (!trans && padCols === cols && padRows === rows) return x;
  const out = new Float32Array(padRows * padCols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[r * padCols + c] = trans ? x[c * rows + r] : x[r * cols + c]; // (padRows, padCols)
  return out;
}

/**
 * Creates a gpu.js matmul: C = op(A)·op(B) with one thread per 4×4 block of C.
 *
 * op(A) and op(B) are laid out row-major on the host first (a transpose, and zero padding
 * of M, K and N to multiples of 4, cost O(MK + KN) against the kernel's O(MKN)); the kernel is
 * compiled once per (M, K, N) padded to 4 and cached. Measured in Chromium on SwiftShader
 * (npm run bench:browser): a thread per 1×4 block (five texel reads per 16 multiply-adds) took
 * 868 ms at 512², a thread per 4×4 block 478 ms, tfjs-webgl 618 ms, in one page. Equality with the CPU path: both sum in
 * float32, the kernel in groups of four and a backend may fuse multiply-adds, so results agree
 * within |Δc[i, j]| ≤ K · 2⁻²³ · Σ_k |a[i, k]·b[k, j]| (Higham 2002 §3.1, any summation order),
 * not bit for bit.
 *
 * @param mode gpu.js mode: undefined or "gpu" (best available), "webgl2", "cpu", …
 * @returns the kernel wrapper; call destroy() when done
 * @throws {RangeError} from matmul: `accumulate must be "fp32" in the gpu.js kernel, got "fp16"`, and shape errors
 * @example
 * const k = createGpuMatmul();
 * k.matmul(Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8), { M: 2, K: 2, N: 2 }, "fp32"); // [19, 22, 43, 50]
 * k.destroy();
 * @see lib/kernels/gpujs/createKernelContext.ts (the plumbing and what it measured); gpu.js 2.24 README
 *   ("Types": Array1D(4), Array(4)); TensorFlow.js tfjs-backend-webgl MatMulPackedProgram (packed RGBA texels)
 */
export function createGpuMatmul(mode?: string): GpuMatmul {
  const ctx = createKernelContext((mode ?? "gpu") as GpuMode);
  const run = (a: Float32Array, b: Float32Array, shape: MatmulShape, accumulate: Format): Float32Array => {
    checkMatmul(a, b, shape);
    if (accumulate !== "fp32") throw new RangeError(`accumulate must be "fp32" in the gpu.js kernel, got "${accumulate}"`);
    const { M, K, N } = shape;
    const M4 = Math.ceil(M / 4), K4 = Math.ceil(K / 4), N4 = Math.ceil(N / 4);
    const A = rowMajor(a, M, K, shape.transA === true, 4 * M4, 4 * K4); // (4·M4, 4·K4)
    const B = rowMajor(b, K, N, shape.transB === true, 4 * K4, 4 * N4); // (4·K4, 4·N4)
    const kernel = ctx.kernel(`matmul M4=${M4} K4=${K4} N4=${N4}`, () => ({
      body: matmulBody as never,
      argumentTypes: { a: "Array1D(4)", b: "Array1D(4)" },
      constants: { K4, N4 },
      output: [N4, M4],
      outputs: [matmulRow1, matmulRow2, matmulRow3],
    }));
    const rows = kernel.runAll([A, B], M4 * 4 * N4); // row r of block iq is rows[r], (M4, 4·N4)
    const c = new Float32Array(M * N);
    for (let i = 0; i < M; i++) {
      const from = rows[i % 4], at = Math.floor(i / 4) * 4 * N4;
      c.set(from.subarray(at, at + N), i * N); // (M, N)
    }
    return c;
  };
  return {
    matmul: run,
    get mode() { return ctx.backend; },
    destroy: () => ctx.destroy(),
  };
}
