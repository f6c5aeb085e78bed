/**
 * Runs the WGSL attention kernels (FlashAttention-2 forward with workgroup-memory tiles, and
 * standard attention with an N×N score buffer) on the browser's WebGPU device. Browser only:
 * in Node there is no `navigator.gpu` and {@link createWebGpuAttention} resolves to null.
 */
import { kernelConstants, restoreMinusInfinity } from "../../flash-attention/kernelConstants.js";
import type { AttentionOptions, AttentionShape } from "../../flash-attention/shape.js";
import { webgpuFlashTiles, type FlashTiles } from "./webgpuFlashTiles.js";
import { flashAttentionWgsl } from "./flashAttentionWgsl.js";
import { gemmWgsl, softmaxWgsl, GEMM_TILE } from "./standardAttentionWgsl.js";
import { standardScoresBytes, standardLimit, type DeviceLimits } from "./standardLimit.js";

/**
 * One attention run: O (B,H,Nq,d), lse (B,H,Nq) with −Infinity for fully masked rows, and the
 * wall-clock milliseconds from the first upload to the end of the readback.
 * @see the sources of {@link createWebGpuAttention}: Dao 2023, FlashAttention-2, Algorithm 1
 */
export interface WebGpuRun { O: Float32Array; lse: Float32Array; ms: number }

/**
 * The device and its compiled kernels. Call `destroy()` when done.
 * @see the sources of {@link createWebGpuAttention}: WebGPU spec; Dao 2023, FlashAttention-2
 */
export interface WebGpuAttention {
  /** The adapter, as the browser describes it (e.g. "google swiftshader"). */
  readonly adapter: string;
  /** The device's limits that decide what runs. */
  readonly limits: DeviceLimits;
  /** The flash kernel's tiles for head dimension d on this device. */
  tiles(d: number): FlashTiles;
  /** Why standard attention cannot run this shape on this device (its N×N buffer), or null. */
  standardLimit(shape: AttentionShape): string | null;
  /** FlashAttention-2 forward: one dispatch, no N×N buffer. */
  flash(q: Float32Array, k: Float32Array, v: Float32Array, shape: AttentionShape, o?: AttentionOptions): Promise<WebGpuRun>;
  /** Standard attention: S = scale·QKᵀ into an N×N buffer, softmax in place, O = PV (three dispatches). */
  standard(q: Float32Array, k: Float32Array, v: Float32Array, shape: AttentionShape, o?: AttentionOptions): Promise<WebGpuRun>;
  destroy(): void;
}

const STORAGE = 0x0080, COPY_DST = 0x0008, COPY_SRC = 0x0004, MAP_READ = 0x0001, UNIFORM = 0x0040; // GPUBufferUsage

/**
 * Requests a WebGPU device with the default limits and compiles nothing yet (kernels compile on first use).
 *
 * The default limits are what every WebGPU device guarantees (16 KiB of workgroup memory,
 * 128 MiB per storage binding, 256 MiB per buffer); this module never asks for more, so a
 * reader's browser and the course's headless Chromium (SwiftShader) run the same tiles.
 * @param options `gpu`: a `navigator.gpu` (default: the browser's; absent in Node); `tiles`: other tiles than
 *   {@link webgpuFlashTiles}'s for head dimension d (benchmarks of the thread layout)
 * @returns the kernels, or null when WebGPU or an adapter is unavailable
 * @throws {RangeError} from the runs: the messages of resolveQKV; `mask is not supported by the WebGPU kernels (use causal)`;
 *   `standard attention cannot run: …` (see standardLimit)
 * @example const gpu = await createWebGpuAttention(); if (gpu) { const { O } = await gpu.flash(q, k, v, shape); gpu.destroy(); }
 * @see WebGPU spec §3.6.2 (limits and their defaults); Dao 2023, FlashAttention-2, Algorithm 1
 */
export async function createWebGpuAttention(options: { gpu?: GPU; tiles?: (d: number, limits: DeviceLimits) => FlashTiles } = {}): Promise<WebGpuAttention | null> {
  const gpu = options.gpu ?? (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu;
  if (!gpu) return null;
  const adapter = await gpu.requestAdapter();
  if (!adapter) return null;
  const device = await adapter.requestDevice();
  const info = (adapter as GPUAdapter & { info?: GPUAdapterInfo }).info;
  const limits: DeviceLimits = {
    maxComputeWorkgroupStorageSize: device.limits.maxComputeWorkgroupStorageSize,
    maxStorageBufferBindingSize: device.limits.maxStorageBufferBindingSize,
    maxBufferSize: device.limits.maxBufferSize,
    maxComputeInvocationsPerWorkgroup: device.limits.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupsPerDimension: device.limits.maxComputeWorkgroupsPerDimension,
  };
  const pipelines = new Map<string, GPUComputePipeline>();
  const pipeline = (key: string, code: () => string): GPUComputePipeline => {
    let p = pipelines.get(key);
    if (!p) {
      p = device.createComputePipeline({ layout: "auto", compute: { module: device.createShaderModule({ code: code() }), entryPoint: "main" } });
      pipelines.set(key, p);
    }
    return p;
  };
  const tiles = (d: number) => options.tiles?.(d, limits) ?? webgpuFlashTiles(limits.maxComputeWorkgroupStorageSize, d, limits.maxComputeInvocationsPerWorkgroup);

  /** Uploads, runs `encode`, reads back O and lse; every buffer is destroyed afterwards. */
  async function run(q: Float32Array, k: Float32Array, v: Float32Array, shape: AttentionShape, o: AttentionOptions,
    encode: (enc: GPUCommandEncoder, buf: Record<"q" | "k" | "v" | "o" | "lse", GPUBuffer>, made: GPUBuffer[], c: ReturnType<typeof kernelConstants>["constants"]) => void): Promise<WebGpuRun> {
    if (o.mask) throw new RangeError("mask is not supported by the WebGPU kernels (use causal)");
    const { constants } = kernelConstants(q, k, v, shape, o);
    const t0 = performance.now();
    const made: GPUBuffer[] = [];
    const buffer = (bytes: number, usage: number) => { const b = device.createBuffer({ size: Math.max(16, Math.ceil(bytes / 16) * 16), usage }); made.push(b); return b; };
    const upload = (a: Float32Array) => { const b = buffer(a.byteLength, STORAGE | COPY_DST); device.queue.writeBuffer(b, 0, a.buffer, a.byteOffset, a.byteLength); return b; };
    try {
      const rows = shape.B * shape.H * shape.Nq;
      const buf = { q: upload(q), k: upload(k), v: upload(v), o: buffer(rows * shape.d * 4, STORAGE | COPY_SRC), lse: buffer(rows * 4, STORAGE | COPY_SRC) };
      const enc = device.createCommandEncoder();
      encode(enc, buf, made, constants);
      const readO = buffer(rows * shape.d * 4, MAP_READ | COPY_DST), readL = buffer(rows * 4, MAP_READ | COPY_DST);
      enc.copyBufferToBuffer(buf.o, 0, readO, 0, rows * shape.d * 4);
      enc.copyBufferToBuffer(buf.lse, 0, readL, 0, rows * 4);
      device.queue.submit([enc.finish()]);
      await Promise.all([readO.mapAsync(1), readL.mapAsync(1)]); // GPUMapMode.READ
      const O = new Float32Array(readO.getMappedRange().slice(0, rows * shape.d * 4));
      const lse = restoreMinusInfinity(new Float32Array(readL.getMappedRange().slice(0, rows * 4)));
      return { O, lse, ms: performance.now() - t0 };
    } finally {
      for (const b of made) b.destroy();
    }
  }

  const uniform = (made: GPUBuffer[], words: (number | [number, "f32" | "i32"])[]) => {
    const data = new ArrayBuffer(32), u = new Uint32Array(data), f = new Float32Array(data), i = new Int32Array(data);
    words.forEach((w, at) => { if (typeof w === "number") u[at] = w; else if (w[1] === "f32") f[at] = w[0]; else i[at] = w[0]; });
    const b = device.createBuffer({ size: 32, usage: UNIFORM | COPY_DST });
    made.push(b);
    device.queue.writeBuffer(b, 0, data);
    return b;
  };
  const dispatch = (enc: GPUCommandEncoder, p: GPUComputePipeline, buffers: GPUBuffer[], x: number, y: number, z = 1) => {
    const pass = enc.beginComputePass();
    pass.setPipeline(p);
    pass.setBindGroup(0, device.createBindGroup({ layout: p.getBindGroupLayout(0), entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })) }));
    pass.dispatchWorkgroups(x, y, z);
    pass.end();
  };

  return {
    adapter: info ? `${info.vendor} ${info.architecture}`.trim() : "unknown",
    limits,
    tiles,
    standardLimit: (shape) => standardLimit(shape, limits),
    flash(q, k, v, shape, o = {}) {
      const t = tiles(shape.d);
      return run(q, k, v, shape, o, (enc, buf, made, c) => {
        const params = uniform(made, [c.Nq, c.Nk, [c.scale, "f32"], c.causal, [c.causalOffset, "i32"]]);
        dispatch(enc, pipeline(`flash d=${shape.d}`, () => flashAttentionWgsl(shape.d, t)), [buf.q, buf.k, buf.v, buf.o, buf.lse, params], Math.ceil(shape.Nq / t.Br), c.BH);
      });
    },
    standard(q, k, v, shape, o = {}) {
      const why = standardLimit(shape, limits);
      if (why) return Promise.reject(new RangeError(`standard attention cannot run: ${why}`));
      return run(q, k, v, shape, o, (enc, buf, made, c) => {
        const { Nq, Nk, d } = shape;
        const S = device.createBuffer({ size: standardScoresBytes(shape), usage: STORAGE });
        made.push(S);
        const gemm = pipeline("gemm", gemmWgsl), softmax = pipeline("softmax", softmaxWgsl);
        const qk = uniform(made, [Nq, Nk, d, 1, [c.scale, "f32"], Nq * d, Nk * d, Nq * Nk]);
        dispatch(enc, gemm, [buf.q, buf.k, S, qk], Math.ceil(Nk / GEMM_TILE), Math.ceil(Nq / GEMM_TILE), c.BH);
        const rows = c.BH * Nq;
        const sp = uniform(made, [Nq, Nk, c.causal, [c.causalOffset, "i32"], rows]);
        dispatch(enc, softmax, [S, buf.lse, sp], Math.min(rows, 65535), Math.ceil(rows / 65535));
        const pv = uniform(made, [Nq, d, Nk, 0, [1, "f32"], Nq * Nk, Nk * d, Nq * d]);
        dispatch(enc, gemm, [S, buf.v, buf.o, pv], Math.ceil(d / GEMM_TILE), Math.ceil(Nq / GEMM_TILE), c.BH);
      });
    },
    destroy: () => device.destroy(),
  };
}
