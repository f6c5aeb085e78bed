/**
 * The course's gpu.js kernel plumbing: one place that creates the GPU, compiles each
 * kernel once, passes Float32Arrays in four values at a time and reads results back
 * as one flat Float32Array. Every chapter's kernel runs through it.
 *
 * Where the time went (npm run bench:browser, WebGL2 on SwiftShader, 2026-12-02):
 * a kernel that returns one float per thread is read back as an RGBA texture four
 * times its size and then converted to nested JavaScript arrays (100 ms of a 108 ms
 * add of 2²⁰ values); every scalar read `a[i]` in GLSL selects one channel of a texel
 * at run time. Here a thread reads whole texels (`Array1D(4)` arguments: four
 * consecutive floats per read) and returns four values (`returnType: "Array(4)"`), the
 * output stays a texture (`pipeline: true`) and its raw RGBA bytes are the result:
 * 10.7 ms for the same add.
 */
import gpujs from "gpu.js";
import { backendName } from "./backendName.js";
import { toVec4Views, flattenResult, isGlBackend } from "./vec4.js";

const { GPU } = gpujs;

/**
 * gpu.js modes the course uses: "gpu" lets gpu.js choose (WebGL2 in a browser; in Node its webasm backend, which the context replaces by cpu).
 * @see the sources of {@link createKernelContext}: gpu.js 2.24 README, "GPU Settings" (mode)
 */
export type GpuMode = "gpu" | "webgl2" | "webgl" | "headlessgl" | "webasm" | "cpu";

/** Argument types of a kernel: `Array1D(4)` arrays are read four floats at a time; `Array` one float at a time; `ArrayTexture(4)` is another kernel's {@link Vec4Kernel.texture} output, read a texel at a time as `t[y][x]`. */
export type ArgType = "Array1D(4)" | "Array" | "Float" | "ArrayTexture(4)";

/**
 * What a kernel is: its body, its arguments and its output.
 * @see the sources of {@link createKernelContext}: gpu.js 2.24 README, "gpu.createKernel Settings", "Types", "Pipelining"
 */
export interface KernelSpec {
  /** The kernel function (gpu.js JavaScript subset): reads `this.thread`, `this.constants` and its arguments, returns `[v0, v1, v2, v3]`. */
  body: (...args: never[]) => unknown;
  /** Argument types by parameter name, in order. */
  argumentTypes: Record<string, ArgType>;
  /** Values baked into the compiled kernel (loop bounds, sizes): a new value means a new kernel. */
  constants?: Record<string, number>;
  /** Output in texels of 4 values, [x] or [x, y]; omitted: given at each run, and one kernel is compiled per output size (no gpu.js dynamic sizes: they cost more than a compile). */
  output?: number[];
  /** Loop bound for loops whose bound is an argument (gpu.js unrolls to this many iterations at most). */
  loopMaxIterations?: number;
  /** gpu.js functions the body calls (added to this kernel). */
  functions?: ((...args: never[]) => number)[];
  /**
   * More outputs of four values per thread (gpu.js's kernel map; WebGL2 writes them as extra
   * render targets): each a top-level function `(a, b, c, d) => [a, b, c, d]` that the body calls
   * once; read them all with {@link Vec4Kernel.runAll}.
   */
  outputs?: ((a: number, b: number, c: number, d: number) => number[])[];
}

/**
 * A compiled kernel of a {@link KernelContext}.
 * @see the sources of {@link createKernelContext}: gpu.js 2.24 README, "Pipelining"
 */
export interface Vec4Kernel {
  /**
   * Runs the kernel and returns its first `length` output values as a new Float32Array,
   * texel after texel, x fastest (row-major for a 2-D output).
   * @param args Float32Arrays for `Array1D(4)` and `Array` arguments, numbers for `Float` ones
   * @param length values to return (at most 4 per output texel)
   * @param output output texels for a kernel specified without `output` (default ⌈length / 4⌉); a new size compiles a new kernel
   */
  run(args: readonly (Float32Array | number | KernelTexture)[], length: number, output?: number[]): Float32Array<ArrayBuffer>;
  /**
   * Runs the kernel and leaves its output on the device (a WebGL texture; on the cpu backend the
   * nested result), for another kernel of the same context to read as an `ArrayTexture(4)` argument.
   * The output must be 2-D ([x, y]; y may be 1).
   * It is this kernel's own output: the next run of the kernel overwrites it.
   */
  texture(args: readonly (Float32Array | number | KernelTexture)[], output?: number[]): KernelTexture;
  /** Like run, for a kernel with `outputs`: the main output, then each of `outputs`, `length` values each. */
  runAll(args: readonly (Float32Array | number | KernelTexture)[], length: number, output?: number[]): Float32Array<ArrayBuffer>[];
}

/**
 * A kernel's output left on the device ({@link Vec4Kernel.texture}); read it with `flattenResult` (lib/kernels/gpujs/vec4.ts).
 * @see the sources of {@link createKernelContext}: gpu.js 2.24 README, "Pipelining"
 */
export type KernelTexture = { readonly kernelTexture: true };

/**
 * The GPU and compiled kernels of one user (a page's check, a training run); destroy it when done.
 * @see the sources of {@link createKernelContext}: gpu.js 2.24 README, "Cleanup"
 */
export interface KernelContext {
  /** The mode asked for. */
  readonly mode: GpuMode;
  /** The backend the kernels run on: "webgl2", "webgl", "headlessgl" or "cpu" (gpu.js's webasm backend cannot read `Array1D(4)` arguments, so it is replaced by cpu). */
  readonly backend: string;
  /** The kernel compiled for `key`, compiling it from `spec()` on first use (keys name a kernel and every constant it bakes in). */
  kernel(key: string, spec: () => KernelSpec): Vec4Kernel;
  /** gpu.js kernels compiled so far (tests check that a second run of the same size compiles nothing). */
  readonly compiled: number;
  /** Frees every kernel and the GPU (undestroyed kernels leak tens of MB each). */
  destroy(): void;
}

/**
 * Creates a kernel context on gpu.js mode `mode`.
 *
 * Every kernel compiled here reads its array arguments as texels of four float32 values and
 * returns four values per thread; on a WebGL backend its output stays on the GPU as a
 * texture and is read back raw (no nested arrays); on the cpu backend the same body runs on
 * JavaScript arrays of four-element views. `precision: "single"` (float32 textures) and
 * `tactic: "precision"` (highp) throughout.
 * @param mode "gpu" (default: the best backend: WebGL2 in a browser; cpu in Node here), "webgl2", "webgl", "headlessgl", "webasm" (runs cpu), "cpu"
 * @returns the context
 * @throws {RangeError} `mode must be one of gpu, webgl2, webgl, headlessgl, webasm, cpu, got "dev"`
 * @example
 * const ctx = createKernelContext("cpu");
 * const add = ctx.kernel("add", () => ({ body: function (this: { thread: { x: number } }, a: number[][], b: number[][]) { const x = a[this.thread.x], y = b[this.thread.x]; return [x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]]; }, argumentTypes: { a: "Array1D(4)", b: "Array1D(4)" } }));
 * add.run([Float32Array.of(1, 2, 3, 4, 5), Float32Array.of(1, 1, 1, 1, 1)], 5); // Float32Array [2, 3, 4, 5, 6]
 * ctx.destroy();
 * @see gpu.js 2.24 README: "gpu.createKernel Settings" (precision, tactic, pipeline, dynamicOutput,
 *   argumentTypes), "Types" (Array1D(4), Array(4)), "Pipelining", "WebAssembly" (what webasm cannot read)
 */
export function createKernelContext(mode: GpuMode = "gpu"): KernelContext {
  const modes: GpuMode[] = ["gpu", "webgl2", "webgl", "headlessgl", "webasm", "cpu"];
  if (!modes.includes(mode)) throw new RangeError(`mode must be one of ${modes.join(", ")}, got ${JSON.stringify(mode)}`);
  let gpu = mode === "gpu" ? new GPU() : new GPU({ mode: mode as never });
  let backend = backendName(gpu);
  if (!isGlBackend(backend)) {
    gpu.destroy();
    gpu = new GPU({ mode: "cpu" });
    backend = "cpu";
  }
  const gl = isGlBackend(backend);
  const compiled: { destroy(): void }[] = [];
  /** One compiled gpu.js kernel with a fixed output (measured: dynamicArguments made an add of 2²⁰ values 1.6× slower, 3.2× with dynamicOutput too). */
  const compile = (spec: KernelSpec, output: number[]) => {
    // the cpu backend passes another kernel's 2-D output as nested arrays of four-value texels
    const argumentTypes = gl ? spec.argumentTypes : Object.fromEntries(Object.entries(spec.argumentTypes).map(([n, t]) => [n, t === "ArrayTexture(4)" ? "Array2D(4)" : t]));
    const settings = {
      output,
      argumentTypes,
      constants: spec.constants,
      returnType: "Array(4)",
      precision: "single",
      tactic: "precision",
      pipeline: gl,
      ...(spec.loopMaxIterations ? { loopMaxIterations: spec.loopMaxIterations } : {}),
      ...(spec.functions ? { functions: spec.functions } : {}),
    } as never;
    const k = (spec.outputs
      ? gpu.createKernelMap(Object.fromEntries(spec.outputs.map((f) => [f.name, f])) as never, spec.body as never, settings)
      : gpu.createKernel(spec.body as never, settings)) as unknown as ((...a: unknown[]) => unknown) & { destroy(): void };
    compiled.push(k);
    return k;
  };
  const kernels = new Map<string, Vec4Kernel>();
  const family = (spec: KernelSpec): Vec4Kernel => {
    const types = Object.values(spec.argumentTypes);
    const bySize = new Map<string, ReturnType<typeof compile>>();
    const launch = (args: readonly unknown[], out: number[]): unknown => {
      let k = bySize.get(out.join("×"));
      if (!k) {
        k = compile(spec, out);
        bySize.set(out.join("×"), k);
      }
      return k(...args.map((a, i) => (types[i] === "Array1D(4)" && !gl ? toVec4Views(a as Float32Array) : a)));
    };
    return {
      run: (args, length, output) => flattenResult(launch(args, spec.output ?? output ?? [Math.ceil(length / 4)]), length),
      texture: (args, output) => launch(args, spec.output ?? output ?? [1]) as KernelTexture,
      runAll(args, length, output) {
        const r = launch(args, spec.output ?? output ?? [Math.ceil(length / 4)]) as Record<string, unknown>;
        return [flattenResult(r.result, length), ...(spec.outputs ?? []).map((f) => flattenResult(r[f.name], length))];
      },
    };
  };
  return {
    mode,
    backend,
    kernel(key, spec) {
      let k = kernels.get(key);
      if (!k) {
        k = family(spec());
        kernels.set(key, k);
      }
      return k;
    },
    get compiled() { return compiled.length; },
    destroy() {
      for (const k of compiled) k.destroy();
      compiled.length = 0;
      kernels.clear();
      gpu.destroy();
    },
  };
}
