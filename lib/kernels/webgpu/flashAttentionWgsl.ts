/**
 * FlashAttention-2's forward pass as a WGSL compute shader: one workgroup per (head, block
 * of B_r query rows) loads Q_i into workgroup memory once, then streams K_j, V_j tile by
 * tile through workgroup memory with the online softmax; O_i stays in the threads'
 * registers, unnormalised, and is divided by ℓ once at the end. No N×N buffer exists.
 */
import type { FlashTiles } from "./webgpuFlashTiles.js";
import { MASKED_LOGIT } from "../../flash-attention/kernelConstants.js";


/**
 * The WGSL source of the FlashAttention-2 forward kernel for head dimension d and `tiles`.
 *
 * Bindings (group 0): 0 q, 1 k, 2 v (read-only storage, (B·H, N, d) float32), 3 o
 * (read-write, (B·H, Nq, d)), 4 lse (read-write, (B·H, Nq)), 5 a uniform
 * {Nq, Nk, scale, causal, causalOffset}. Dispatch (⌈Nq/B_r⌉, B·H, 1) workgroups of
 * B_r·G threads. Per key tile j (Dao 2023, Algorithm 1, lines 6–10):
 * S_ij = scale·Q_i K_jᵀ (masked entries MASKED_LOGIT, WGSL having no −∞ literal); m_new = max(m, rowmax S_ij);
 * P_ij = e^{S_ij − m_new}; ℓ = e^{m − m_new}·ℓ + rowsum P_ij; O_i = e^{m − m_new}·O_i + P_ij V_j.
 * Finally O_i /= ℓ and lse = m + log ℓ (line 12). Causal key tiles past a block's last
 * kept key are skipped (§3.1.1).
 * @param d head dimension
 * @param tiles from webgpuFlashTiles (its B_r, B_c, G, colsPerThread)
 * @returns the WGSL source
 * @example flashAttentionWgsl(64, webgpuFlashTiles(16384, 64)).includes("var<workgroup> Kj: array<f32, 1024>") // true
 * @see Dao 2023, FlashAttention-2, Algorithm 1 and §3.1.1 (causal block skipping); WGSL spec (var<workgroup>, workgroupBarrier)
 */
export function flashAttentionWgsl(d: number, tiles: FlashTiles): string {
  const { Br, Bc, G, colsPerThread } = tiles;
  return /* wgsl */ `
const BR: u32 = ${Br}u;
const BC: u32 = ${Bc}u;
const D: u32 = ${d}u;
const G: u32 = ${G}u;
const CPT: u32 = ${colsPerThread}u;
const T: u32 = ${Br * G}u;
const MASKED: f32 = ${MASKED_LOGIT.toExponential()};

struct Params { Nq: u32, Nk: u32, scale: f32, causal: u32, causalOffset: i32, pad0: u32, pad1: u32, pad2: u32 }
@group(0) @binding(0) var<storage, read> q: array<f32>;
@group(0) @binding(1) var<storage, read> k: array<f32>;
@group(0) @binding(2) var<storage, read> v: array<f32>;
@group(0) @binding(3) var<storage, read_write> o: array<f32>;
@group(0) @binding(4) var<storage, read_write> lse: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

var<workgroup> Qi: array<f32, ${Br * d}>;
var<workgroup> Kj: array<f32, ${Bc * d}>;
var<workgroup> Vj: array<f32, ${Bc * d}>;
var<workgroup> Sij: array<f32, ${Br * Bc}>;
var<workgroup> rowM: array<f32, ${Br}>;
var<workgroup> rowL: array<f32, ${Br}>;
var<workgroup> rowAlpha: array<f32, ${Br}>;

@compute @workgroup_size(${Br * G})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let bh = wg.y;
  let i0 = wg.x * BR;
  let r = t / G;
  let g = t % G;
  let qBase = bh * p.Nq * D;
  let kBase = bh * p.Nk * D;
  // Q_i: loaded once, read for every key tile (rows past Nq are zeros)
  for (var e = t; e < BR * D; e += T) {
    let row = i0 + e / D;
    let inside = row < p.Nq;
    Qi[e] = select(0.0, q[select(0u, qBase + row * D + e % D, inside)], inside);
  }
  if (g == 0u) {
    rowM[r] = MASKED;
    rowL[r] = 0.0;
  }
  var acc: array<f32, CPT>;
  for (var c = 0u; c < CPT; c++) { acc[c] = 0.0; }
  // causal: no row of this block keeps a key past its last row's diagonal
  var kEnd = p.Nk;
  if (p.causal != 0u) {
    kEnd = u32(clamp(i32(min(i0 + BR, p.Nq)) + p.causalOffset, 0, i32(p.Nk)));
  }
  workgroupBarrier();
  for (var j0 = 0u; j0 < kEnd; j0 += BC) {
    // K_j, V_j: one tile of key rows into workgroup memory (past Nk: zeros, masked below)
    for (var e = t; e < BC * D; e += T) {
      let col = j0 + e / D;
      let inside = col < p.Nk;
      let at = select(0u, kBase + col * D + e % D, inside);
      Kj[e] = select(0.0, k[at], inside);
      Vj[e] = select(0.0, v[at], inside);
    }
    workgroupBarrier();
    // S_ij = scale · Q_i K_j^T: the G threads of row r compute its B_c scores
    for (var cc = g; cc < BC; cc += G) {
      var s = 0.0;
      for (var x = 0u; x < D; x++) { s += Qi[r * D + x] * Kj[cc * D + x]; }
      let j = j0 + cc;
      var keep = j < p.Nk;
      if (p.causal != 0u && i32(j) > i32(i0 + r) + p.causalOffset) { keep = false; }
      Sij[r * BC + cc] = select(MASKED, s * p.scale, keep);
    }
    workgroupBarrier();
    // online softmax, one thread per row: new max, P_ij = exp(S_ij - m_new), rescale factor, new row sum
    if (g == 0u) {
      let mOld = rowM[r];
      var mNew = mOld;
      for (var c = 0u; c < BC; c++) { mNew = max(mNew, Sij[r * BC + c]); }
      var l = 0.0;
      for (var c = 0u; c < BC; c++) {
        let s = Sij[r * BC + c];
        let pe = select(0.0, exp(s - mNew), s > MASKED * 0.5);
        Sij[r * BC + c] = pe;
        l += pe;
      }
      let alpha = exp(mOld - mNew);
      rowAlpha[r] = alpha;
      rowL[r] = alpha * rowL[r] + l;
      rowM[r] = mNew;
    }
    workgroupBarrier();
    // O_i = alpha * O_i + P_ij V_j: thread (r, g) keeps columns g, g + G, ... in registers
    let alpha = rowAlpha[r];
    for (var c = 0u; c < CPT; c++) {
      let col = g + c * G;
      if (col < D) {
        var a = acc[c] * alpha;
        for (var jj = 0u; jj < BC; jj++) { a += Sij[r * BC + jj] * Vj[jj * D + col]; }
        acc[c] = a;
      }
    }
    workgroupBarrier();
  }
  let i = i0 + r;
  if (i < p.Nq) {
    let l = rowL[r];
    let inv = select(0.0, 1.0 / l, l > 0.0);
    for (var c = 0u; c < CPT; c++) {
      let col = g + c * G;
      if (col < D) { o[qBase + i * D + col] = acc[c] * inv; }
    }
    if (g == 0u) { lse[bh * p.Nq + i] = select(MASKED, rowM[r] + log(l), l > 0.0); }
  }
}
`;
}
