import { notImplemented } from "../harness/index.js";

/** B batch, H heads, Nq queries, Nk keys, d head dimension. */
export interface AttentionShape {
  B: number;
  H: number;
  Nq: number;
  Nk: number;
  d: number;
}

/** What one workgroup's code may do (the grader's model of a WGSL compute shader's workgroup). */
export interface Workgroup {
  /** This workgroup's id in the grid you dispatched: x in [0, gridX), y in [0, gridY). */
  readonly x: number;
  readonly y: number;
  /**
   * `elements` float32 of this workgroup's memory (WGSL `var<workgroup>`), zeros. All
   * allocations of one workgroup together may not exceed the device's `capacity`
   * (a RangeError). When the workgroup ends its memory is gone (the arrays read NaN).
   */
  alloc(elements: number): Float32Array;
  /**
   * Copies rows [r0, r1) of head bh (bh = b·H + h) of Q, K or V, (r1 − r0)·d values,
   * from slow memory into `dst` at `offset`; `dst` must come from this workgroup's alloc.
   * Every value copied is counted.
   */
  load(name: "Q" | "K" | "V", bh: number, r0: number, r1: number, dst: Float32Array, offset?: number): void;
  /** Writes rows [r0, r1) of head bh of O ((r1 − r0)·d values) or of L ((r1 − r0) values). Counted. */
  store(name: "O" | "L", bh: number, r0: number, r1: number, values: ArrayLike<number>): void;
}

/** The GPU as the grader passes it in. */
export interface WorkgroupDevice {
  /** Workgroup memory per workgroup, in float32 elements: M = maxComputeWorkgroupStorageSize / 4. */
  readonly capacity: number;
  /** Runs `body` once for every workgroup (x, y) of the grid, each with fresh workgroup memory. */
  dispatch(gridX: number, gridY: number, body: (wg: Workgroup) => void): void;
}

/** Causal mask (alignment as in exercise 10.4; absent: no mask) and softmax scale (default 1/√d). */
export interface ForwardOptions {
  causal?: "bottom-right" | "top-left";
  scale?: number;
}

/**
 * Exercise 10.6 — FlashAttention-2's forward pass, as a GPU kernel runs it.
 *
 * Leave in slow memory O = softmax(scale·QKᵀ + mask)·V, (B, H, Nq, d), and the logsumexp
 * L of every query row, (B, H, Nq), for every head, on a device whose workgroups each have
 * `device.capacity` float32 elements of workgroup memory (16 KiB = 4096 elements in
 * WebGPU by default). Q is (B, H, Nq, d), K and V are (B, H, Nk, d), in slow memory.
 * The page's section "Tiles in workgroup memory (WebGPU)" shows the kernel this models;
 * this contract says only what is graded. You choose the grid, the tiles and the loop.
 *
 * On chip (the device throws a RangeError otherwise): a workgroup reaches Q, K, V only by
 * `load` into its own workgroup memory. Numbers in local variables stand for a thread's
 * registers; but when you store O or L for query row i, Q row i must still be in the
 * workgroup memory it was loaded into (not overwritten since), and every K and V row that
 * row attends to must have been loaded by this workgroup since Q row i was.
 *
 * Traffic: on problems without a mask, the elements loaded plus stored must not exceed
 * B·H·(2·Nq·d + Nq + 2·⌈Nq/B_r⌉·Nk·d), where B_r is the query-tile height the page derives
 * from M = capacity and d (rule of chapter 10, with the score tile in workgroup memory).
 *
 * Masking: a fully masked row has O = 0 and L = −Infinity (no NaN). Tolerance:
 * 1e-5 + 1e-5·|expected| against float64 attention. Errors: if the capacity cannot hold
 * one row each of Q, K and V plus 4 elements (3·d + 4), throw a RangeError whose message
 * contains "capacity", before any dispatch.
 * Sources: Dao 2023, FlashAttention-2, Algorithm 1; WGSL spec, var<workgroup>.
 *
 * @param device the grader's device
 * @param shape B, H, Nq, Nk, d
 * @param o causal, scale
 * @returns nothing: O and L are left in slow memory
 * @example
 * // One query, two keys with logits 0 and ln 3 (scale 1), values 4 and 8, capacity 8:
 * // afterwards slow memory holds O = [7] and L = [ln 4] ≈ [1.3863].
 * flashForwardWorkgroups(device, {B: 1, H: 1, Nq: 1, Nk: 2, d: 1}, {scale: 1});
 */
export function flashForwardWorkgroups(device: WorkgroupDevice, shape: AttentionShape, o: ForwardOptions = {}): void {
  return notImplemented("10.6");
}
