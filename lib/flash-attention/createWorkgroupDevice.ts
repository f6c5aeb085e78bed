/**
 * A counted model of a GPU running one kernel, for code written in TypeScript the way a
 * WGSL compute shader is written: workgroups, each with a small workgroup memory (WebGPU's
 * `var<workgroup>`, CUDA's shared memory, the paper's SRAM) of `capacity` float32 elements,
 * and a slow memory (HBM) holding Q, K, V, O and L that code reaches only by copying rows.
 */
import { resolveAttention, type AttentionOptions, type AttentionShape } from "./shape.js";

/**
 * What a workgroup's code may do: allocate workgroup memory, copy rows of Q, K or V into
 * it, and write rows of O or L.
 * @see the sources of {@link createWorkgroupDevice}: WGSL spec (var<workgroup>); Dao 2023, FlashAttention-2, Algorithm 1
 */
export interface Workgroup {
  /** This workgroup's id in the dispatch grid. */
  readonly x: number;
  readonly y: number;
  /** `elements` float32 of this workgroup's memory (zeros); a RangeError when its allocations would exceed the capacity. */
  alloc(elements: number): Float32Array;
  /** Copies rows [r0, r1) of head bh of Q, K or V ((r1 − r0)·d values) into `dst` (from this workgroup's alloc) at `offset`. */
  load(name: "Q" | "K" | "V", bh: number, r0: number, r1: number, dst: Float32Array, offset?: number): void;
  /** Writes rows [r0, r1) of head bh of O ((r1 − r0)·d values) or of the logsumexp L ((r1 − r0) values). */
  store(name: "O" | "L", bh: number, r0: number, r1: number, values: ArrayLike<number>): void;
}

/**
 * The device: its workgroup memory size and how to launch a kernel.
 * @see the sources of {@link createWorkgroupDevice}: WebGPU spec (dispatchWorkgroups, maxComputeWorkgroupStorageSize)
 */
export interface WorkgroupDevice {
  /** Workgroup memory per workgroup, in float32 elements (M: maxComputeWorkgroupStorageSize / 4). */
  readonly capacity: number;
  /** Runs `body` once for every workgroup (x, y) in [0, gridX) × [0, gridY), each with fresh workgroup memory. */
  dispatch(gridX: number, gridY: number, body: (wg: Workgroup) => void): void;
}

/**
 * A {@link WorkgroupDevice} with what the kernel left in slow memory and the traffic it took.
 * @see the sources of {@link createWorkgroupDevice}: Dao et al. 2022, FlashAttention, §3.2 (HBM accesses as the cost)
 */
export interface CountingWorkgroupDevice extends WorkgroupDevice {
  /** (B, H, Nq, d): what the kernel stored (NaN where it stored nothing). */
  readonly O: Float32Array;
  /** (B, H, Nq): the stored logsumexp (NaN where nothing was stored). */
  readonly L: Float32Array;
  /** Elements copied from slow memory, per tensor. */
  readonly reads: { Q: number; K: number; V: number };
  /** Elements written to slow memory, per tensor. */
  readonly writes: { O: number; L: number };
  /** Workgroups run so far. */
  readonly workgroups: number;
}

/** One copy into workgroup memory: which rows went where, and when. */
interface Loaded { name: "Q" | "K" | "V"; bh: number; r0: number; r1: number; dst: Float32Array; offset: number; time: number }

/**
 * Puts Q, K and V in a counted slow memory behind workgroups of `capacity` elements.
 *
 * Rules, each a RangeError at the offending call: allocations of one workgroup add up to at
 * most `capacity`; loads go into this workgroup's own allocations (a workgroup cannot see
 * another's memory, and after a workgroup ends its arrays read NaN); rows in range; O rows
 * of d values, L rows of 1. **On chip**: storing O or L for query row i requires Q row i to
 * be in this workgroup's memory still (not overwritten since its load) and every K and V row
 * that row attends to (all Nk, or j ≤ i + Nk − Nq / j ≤ i with `causal`) to have been loaded
 * by this workgroup since Q row i was. Values held in local variables stand for a thread's
 * registers and are not counted; what a row's output is computed from must pass through
 * workgroup memory while that row is there.
 * @param inputs Q (B,H,Nq,d), K and V (B,H,Nk,d), copied
 * @param shape B, H, Nq, Nk, d
 * @param capacity workgroup memory in float32 elements, an integer >= 1
 * @param o `causal` (what "attends to" means for the on-chip rule)
 * @returns the device, with O, L and the counters
 * @throws {RangeError} `capacity must be an integer >= 1, got 0`; the messages of resolveAttention; at run time e.g.
 *   `alloc: 4100 elements exceed this workgroup's memory (4096 elements, 3376 in use)`,
 *   `store(O) of row 3 of head 0: Q row 3 is no longer in workgroup memory`
 * @example
 * const dev = createWorkgroupDevice({Q, K, V}, {B: 1, H: 1, Nq: 1, Nk: 2, d: 1}, 8);
 * dev.dispatch(1, 1, (wg) => { const t = wg.alloc(3); wg.load("Q", 0, 0, 1, t, 0); wg.load("K", 0, 0, 2, t, 1); … });
 * dev.reads.K // 2
 * @see WGSL spec §7.3 (var<workgroup>: shared by a workgroup's invocations, not by workgroups); Dao 2023, FlashAttention-2, Algorithm 1
 */
export function createWorkgroupDevice(inputs: { Q: Float32Array; K: Float32Array; V: Float32Array }, shape: AttentionShape, capacity: number, o: Pick<AttentionOptions, "causal"> = {}): CountingWorkgroupDevice {
  const { B, H, Nq, Nk, d } = shape;
  resolveAttention(shape, { Q: [inputs.Q, B * H * Nq * d, "B·H·Nq·d"], K: [inputs.K, B * H * Nk * d, "B·H·Nk·d"], V: [inputs.V, B * H * Nk * d, "B·H·Nk·d"] }, o);
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be an integer >= 1, got ${capacity}`);
  const slow = { Q: Float32Array.from(inputs.Q), K: Float32Array.from(inputs.K), V: Float32Array.from(inputs.V) };
  const O = new Float32Array(B * H * Nq * d).fill(NaN), L = new Float32Array(B * H * Nq).fill(NaN);
  const reads = { Q: 0, K: 0, V: 0 }, writes = { O: 0, L: 0 };
  const lastKey = (i: number) => (o.causal === undefined ? Nk - 1 : Math.min(Nk - 1, o.causal === "top-left" ? i : i + Nk - Nq)); // keys 0 … lastKey(i)
  const rows = (op: string, name: string, bh: number, r0: number, r1: number, n: number) => {
    if (!Number.isInteger(bh) || bh < 0 || bh >= B * H) throw new RangeError(`${op}(${name}): bh must be an integer in [0, ${B * H}), got ${bh}`);
    if (!Number.isInteger(r0) || !Number.isInteger(r1) || r0 < 0 || r1 <= r0 || r1 > n) throw new RangeError(`${op}(${name}): rows [r0, r1) must be integers with 0 <= r0 < r1 <= ${n}, got [${r0}, ${r1})`);
  };
  let workgroups = 0, clock = 0;
  const device: CountingWorkgroupDevice = {
    capacity, O, L, reads, writes,
    get workgroups() { return workgroups; },
    dispatch(gridX, gridY, body) {
      for (const [k, v] of [["gridX", gridX], ["gridY", gridY]] as const) if (!Number.isInteger(v) || v < 1) throw new RangeError(`dispatch: ${k} must be an integer >= 1, got ${v}`);
      for (let y = 0; y < gridY; y++) for (let x = 0; x < gridX; x++) {
        const owned: Float32Array[] = [];
        const log: Loaded[] = [];
        let used = 0;
        const wg: Workgroup = {
          x, y,
          alloc(elements) {
            if (!Number.isInteger(elements) || elements < 1) throw new RangeError(`alloc: elements must be an integer >= 1, got ${elements}`);
            if (used + elements > capacity) throw new RangeError(`alloc: ${elements} elements exceed this workgroup's memory (${capacity} elements, ${used} in use)`);
            used += elements;
            const a = new Float32Array(elements);
            owned.push(a);
            return a;
          },
          load(name, bh, r0, r1, dst, offset = 0) {
            if (name !== "Q" && name !== "K" && name !== "V") throw new RangeError(`load: name must be "Q", "K" or "V", got ${JSON.stringify(name)}`);
            rows("load", name, bh, r0, r1, name === "Q" ? Nq : Nk);
            if (!owned.includes(dst)) throw new RangeError(`load(${name}): dst must be workgroup memory from this workgroup's alloc`);
            const n = (r1 - r0) * d, at = (bh * (name === "Q" ? Nq : Nk) + r0) * d; // (B·H, N, d)
            if (!Number.isInteger(offset) || offset < 0 || offset + n > dst.length) throw new RangeError(`load(${name}): ${n} values at offset ${offset} do not fit in dst (${dst.length} elements)`);
            dst.set(slow[name].subarray(at, at + n), offset);
            reads[name] += n;
            log.push({ name, bh, r0, r1, dst, offset, time: ++clock });
          },
          store(name, bh, r0, r1, values) {
            if (name !== "O" && name !== "L") throw new RangeError(`store: name must be "O" or "L", got ${JSON.stringify(name)}`);
            rows("store", name, bh, r0, r1, Nq);
            const w = name === "O" ? d : 1;
            if (!values || values.length !== (r1 - r0) * w) throw new RangeError(`store(${name}): expected ${(r1 - r0) * w} values, got ${values?.length}`);
            for (let i = r0; i < r1; i++) onChip(name, bh, i, log);
            (name === "O" ? O : L).set(Array.from(values), (bh * Nq + r0) * w);
            writes[name] += (r1 - r0) * w;
          },
        };
        body(wg);
        for (const a of owned) a.fill(NaN); // a workgroup's memory is gone when it ends
        workgroups++;
      }
    },
  };
  /** Throws unless query row i of head bh and every key row it attends to are on chip (see the rules above). */
  function onChip(name: string, bh: number, i: number, log: Loaded[]): void {
    let q: Loaded | undefined;
    for (const e of log) if (e.name === "Q" && e.bh === bh && e.r0 <= i && i < e.r1) q = e;
    const where = `store(${name}) of row ${i} of head ${bh}`;
    if (!q) throw new RangeError(`${where}: Q row ${i} was never loaded by this workgroup`);
    const slot = q.offset + (i - q.r0) * d;
    if (log.some((e) => e.time > q!.time && e.dst === q!.dst && e.offset < slot + d && slot < e.offset + (e.r1 - e.r0) * d)) throw new RangeError(`${where}: Q row ${i} is no longer in workgroup memory (overwritten by a later load)`);
    for (const kv of ["K", "V"] as const) {
      const seen = new Uint8Array(Nk);
      for (const e of log) if (e.name === kv && e.bh === bh && e.time > q.time) seen.fill(1, e.r0, e.r1);
      const missing = seen.subarray(0, Math.max(0, lastKey(i) + 1)).indexOf(0); // a fully masked row needs no key
      if (missing >= 0) throw new RangeError(`${where}: ${kv} row ${missing} was not loaded by this workgroup since Q row ${i} was`);
    }
  }
  return device;
}
