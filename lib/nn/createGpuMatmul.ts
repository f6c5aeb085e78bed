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

/**
 * Thread (x = jq, y = i) returns C[i, 4jq … 4jq + 3]. Per step kq it reads one texel of A,
 * A[i, 4kq … 4kq + 3], and four of B, B[4kq + t, 4jq … 4jq + 3]: five reads for 16
 * multiply-adds (a scalar kernel reads twice per multiply-add). The four products of a step
 * are added first, then to the running sum (measured 1.5× faster at 512² than adding them one
 * by one on SwiftShader: four short dependency chains instead of one long one).
 */
function matmulBody(this: Ctx, a: number[][], b: number[][]): number[] {
  const i = this.thread.y;
  const jq = this.thread.x;
  const K4 = this.constants.K4;
  const N4 = this.constants.N4;
  let s0 = 0.0;
  let s1 = 0.0;
  let s2 = 0.0;
  let s3 = 0.0;
  for (let kq = 0; kq < this.constants.K4; kq++) {
    const av = a[i * K4 + kq];
    const base = 4 * kq * N4 + jq;
    const b0 = b[base];
    const b1 = b[base + N4];
    const b2 = b[base + 2 * N4];
    const b3 = b[base + 3 * N4];
    s0 += av[0] * b0[0] + av[1] * b1[0] + av[2] * b2[0] + av[3] * b3[0];
    s1 += av[0] * b0[1] + av[1] * b1[1] + av[2] * b2[1] + av[3] * b3[1];
    s2 += av[0] * b0[2] + av[1] * b1[2] + av[2] * b2[2] + av[3] * b3[2];
    s3 += av[0] * b0[3] + av[1] * b1[3] + av[2] * b2[3] + av[3] * b3[3];
  }
  return [s0, s1, s2, s3];
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
 * Creates a gpu.js matmul: C = op(A)·op(B) with one thread per four outputs of a row.
 *
 * op(A) and op(B) are laid out row-major on the host first (a transpose, and zero padding
 * of K and N to multiples of 4, cost O(MK + KN) against the kernel's O(MKN)); the kernel is
 * compiled once per (M, K, N) padded to 4 and cached. Equality with the CPU path: both sum in
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
    const K4 = Math.ceil(K / 4), N4 = Math.ceil(N / 4);
    const A = rowMajor(a, M, K, shape.transA === true, M, 4 * K4); // (M, 4·K4)
    const B = rowMajor(b, K, N, shape.transB === true, 4 * K4, 4 * N4); // (4·K4, 4·N4)
    const kernel = ctx.kernel(`matmul M=${M} K4=${K4} N4=${N4}`, () => ({
      body: matmulBody as never,
      argumentTypes: { a: "Array1D(4)", b: "Array1D(4)" },
      constants: { K4, N4 },
      output: [N4, M],
    }));
    const c = kernel.run([A, B], M * 4 * N4); // (M, 4·N4)
    if (N === 4 * N4) return c;
    const out = new Float32Array(M * N);
    for (let i = 0; i < M; i++) out.set(c.subarray(i * 4 * N4, i * 4 * N4 + N), i * N); // (M, N)
    return out;
  };
  return {
    matmul: run,
    get mode() { return ctx.backend; },
    destroy: () => ctx.destroy(),
  };
}
