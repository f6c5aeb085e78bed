/**
 * Standard attention in WGSL, as a framework without fusion runs it: S = scale·QKᵀ with a
 * tiled matrix multiply into an N×N storage buffer, a row softmax that turns S into P in
 * place (and writes the logsumexp), then O = PV with the same tiled multiply.
 */
import { MASKED_LOGIT } from "../../flash-attention/kernelConstants.js";

/**
 * Side of the square tiles of the matrix multiply (16×16 = 256 threads per workgroup, WebGPU's default maxComputeInvocationsPerWorkgroup).
 * @see the sources of {@link gemmWgsl}
 */
export const GEMM_TILE = 16;
/**
 * Threads per row in the softmax kernel (a power of two for the tree reductions).
 * @see the sources of {@link softmaxWgsl}
 */
export const SOFTMAX_THREADS = 64;

/**
 * WGSL of a batched, tiled matrix multiply C[z] = alpha·A[z]·op(B[z]), A (M, K), op(B) (K, N):
 * B stored (K, N), or (N, K) when transB = 1. Each 16×16 workgroup stages a tile of A and
 * of B in workgroup memory per step of 16 along K (the classic shared-memory GEMM).
 * Bindings: 0 a, 1 b (read), 2 c (read-write), 3 uniform {M, N, K, transB, alpha,
 * strideA, strideB, strideC} (strides between batches, in elements). Dispatch
 * (⌈N/16⌉, ⌈M/16⌉, batches).
 * @returns the WGSL source
 * @example gemmWgsl().includes("var<workgroup> As") // true
 * @see Kirk & Hwu, *Programming Massively Parallel Processors*, ch. 5 (tiled matrix multiplication); WGSL spec
 */
export function gemmWgsl(): string {
  return /* wgsl */ `
const TILE: u32 = ${GEMM_TILE}u;
struct Dims { M: u32, N: u32, K: u32, transB: u32, alpha: f32, strideA: u32, strideB: u32, strideC: u32 }
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;
var<workgroup> As: array<f32, ${GEMM_TILE * GEMM_TILE}>;
var<workgroup> Bs: array<f32, ${GEMM_TILE * GEMM_TILE}>;

@compute @workgroup_size(${GEMM_TILE}, ${GEMM_TILE})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let row = wg.y * TILE + lid.y;
  let col = wg.x * TILE + lid.x;
  let z = wg.z;
  var s = 0.0;
  for (var k0 = 0u; k0 < dims.K; k0 += TILE) {
    let ka = k0 + lid.x;
    let inA = row < dims.M && ka < dims.K;
    As[lid.y * TILE + lid.x] = select(0.0, a[select(0u, z * dims.strideA + row * dims.K + ka, inA)], inA);
    let kb = k0 + lid.y;
    let inB = kb < dims.K && col < dims.N;
    var at = z * dims.strideB + kb * dims.N + col;
    if (dims.transB != 0u) { at = z * dims.strideB + col * dims.K + kb; }
    Bs[lid.y * TILE + lid.x] = select(0.0, b[select(0u, at, inB)], inB);
    workgroupBarrier();
    for (var kk = 0u; kk < TILE; kk++) { s += As[lid.y * TILE + kk] * Bs[kk * TILE + lid.x]; }
    workgroupBarrier();
  }
  if (row < dims.M && col < dims.N) { c[z * dims.strideC + row * dims.N + col] = s * dims.alpha; }
}
`;
}

/**
 * WGSL of the row softmax of standard attention, in place: for row (bh, i) of S (B·H·Nq rows
 * of Nk scores) with keys j < jEnd kept (jEnd = Nk, or i + causalOffset + 1 with a causal
 * mask), m = max_j S, ℓ = Σ_j e^{S − m}, P = e^{S − m}/ℓ (0 where masked), lse = m + log ℓ
 * (a fully masked row: P = 0, lse = −1e30). One workgroup of 64 threads per row, reductions
 * in workgroup memory. Bindings: 0 s (read-write), 1 lse (read-write), 2 uniform
 * {Nq, Nk, causal, causalOffset, rows}. Dispatch (min(rows, 65535), ⌈rows/65535⌉).
 * @returns the WGSL source
 * @example softmaxWgsl().includes("workgroupBarrier") // true
 * @see Dao et al. 2022, FlashAttention, Algorithm 0 (lines 2–3: P = softmax(S) written to HBM)
 */
export function softmaxWgsl(): string {
  return /* wgsl */ `
const T: u32 = ${SOFTMAX_THREADS}u;
const MASKED: f32 = ${MASKED_LOGIT.toExponential()};
struct SP { Nq: u32, Nk: u32, causal: u32, causalOffset: i32, rows: u32, pad0: u32, pad1: u32, pad2: u32 }
@group(0) @binding(0) var<storage, read_write> s: array<f32>;
@group(0) @binding(1) var<storage, read_write> lse: array<f32>;
@group(0) @binding(2) var<uniform> sp: SP;
var<workgroup> red: array<f32, ${SOFTMAX_THREADS}>;

@compute @workgroup_size(${SOFTMAX_THREADS})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let row = wg.x + wg.y * 65535u;
  let live = row < sp.rows;
  let i = row % sp.Nq;
  let base = row * sp.Nk;
  var jEnd = sp.Nk;
  if (sp.causal != 0u) { jEnd = u32(clamp(i32(i) + sp.causalOffset + 1, 0, i32(sp.Nk))); }
  if (!live) { jEnd = 0u; }
  var m = MASKED;
  for (var j = t; j < jEnd; j += T) { m = max(m, s[base + j]); }
  red[t] = m;
  workgroupBarrier();
  for (var w = T / 2u; w > 0u; w = w / 2u) {
    if (t < w) { red[t] = max(red[t], red[t + w]); }
    workgroupBarrier();
  }
  m = red[0];
  workgroupBarrier();
  var l = 0.0;
  for (var j = t; j < jEnd; j += T) { l += exp(s[base + j] - m); }
  red[t] = l;
  workgroupBarrier();
  for (var w = T / 2u; w > 0u; w = w / 2u) {
    if (t < w) { red[t] = red[t] + red[t + w]; }
    workgroupBarrier();
  }
  l = red[0];
  if (live) {
    let inv = select(0.0, 1.0 / l, l > 0.0);
    for (var j = t; j < sp.Nk; j += T) { s[base + j] = select(0.0, exp(s[base + j] - m) * inv, j < jEnd); }
    if (t == 0u) { lse[row] = select(MASKED, m + log(l), l > 0.0); }
  }
}
`;
}
