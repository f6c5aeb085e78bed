/**
 * Colossal-AI Gemini's chunk placement over training steps: which chunks are
 * on the GPU at each operator, what moves over PCIe, and whether the GPU's
 * memory holds the chunks plus the non-model data.
 */
import { packChunks, type Chunk } from "./packChunks.js";
import type { OperatorStat } from "./recordMemStats.js";
import { chooseEvictions } from "./chooseEvictions.js";

/**
 * `static`: a fixed share of the chunks stays on the GPU, the rest come and go.
 * `auto`: the budget for chunks at each operator is the GPU capacity × 0.9 minus the non-model peak the warm-up recorded.
 * `cpu`: every chunk lives on the CPU and visits the GPU only while its operator runs.
 */
export type PlacementPolicy = "static" | "auto" | "cpu";

/** One Gemini run. */
export interface GeminiConfig {
  /** Parameter sizes in elements, indexed as the operators' `params` (e.g. lib/nn's model.params). */
  sizes: readonly number[];
  /** The operators of one step with their warm-up statistics ({@link recordMemStats}). */
  ops: readonly OperatorStat[];
  /** Elements per chunk (≥ the largest parameter). */
  chunkSize: number;
  policy: PlacementPolicy;
  /** GPU memory, bytes (> 0). */
  gpuCapacityBytes: number;
  /** Bytes per parameter element in a chunk (default 2: fp16). */
  bytesPerElement?: number;
  /** `static` only: share of the chunk bytes kept on the GPU, in [0, 1] (default 1): 1 − Colossal-AI's `offload_param_frac`. */
  gpuFraction?: number;
  /** Non-model memory after the warm-up, as a multiple of what the warm-up recorded (≥ 0; default 1). */
  nonModelGrowth?: number;
  /** `auto` only: share of the GPU its plan may fill after warm-up (default 0.9: Colossal-AI's `steady_cuda_cap_ratio`). */
  steadyCudaCapRatio?: number;
  /** Steps to run after the warm-up (integer ≥ 1; default 2). */
  numSteps?: number;
  /**
   * The order parameters are packed into chunks: "initialized" (default), the order of `sizes`, as `GeminiDDP` builds
   * chunks from `module.parameters()`; "runtime", the order the operators first use them, which `GeminiDDP` takes only
   * from premade memory statistics.
   */
  paramOrder?: "initialized" | "runtime";
}

/** The state at one operator. */
export interface GeminiEvent {
  step: number;
  /** Index into ops. */
  op: number;
  name: string;
  /** Chunks on the GPU while the operator runs. */
  onGpu: number[];
  /** Chunks moved in before it, and evicted (before it, `auto`; after it, `static` and `cpu`). */
  movedIn: number[];
  evicted: number[];
  modelBytes: number;
  nonModelBytes: number;
}

/** What a Gemini run gives. */
export interface GeminiResult {
  chunks: Chunk[];
  chunkBytes: number;
  /** True when every operator of every step fit. */
  fits: boolean;
  /** The first operator that did not fit. "planned": `auto` could not free enough (Colossal-AI's "Adjust layout failed"); "cuda": chunks + actual non-model data exceed the GPU. */
  oom: null | { step: number; op: number; name: string; reason: "planned" | "cuda"; needBytes: number; capacityBytes: number };
  /** Moves and bytes over PCIe per step (completed steps only). */
  perStep: { h2dMoves: number; d2hMoves: number; h2dBytes: number; d2hBytes: number }[];
  /** Largest chunks + non-model bytes seen. */
  peakGpuBytes: number;
  events: GeminiEvent[];
}

function check(name: string, v: unknown, lo: number, hi = Infinity, integer = false): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < lo || v > hi || (integer && !Number.isInteger(v))) {
    throw new RangeError(`${name} must be ${integer ? "an integer" : "a number"} ${hi === Infinity ? `>= ${lo}` : `in [${lo}, ${hi}]`}, got ${String(v)}`);
  }
  return v;
}

/**
 * Runs `numSteps` steps of the operators with chunks placed by a policy.
 *
 * Parameters are packed ({@link packChunks}) in the order of `sizes` (or of first use, `paramOrder: "runtime"`). Before an
 * operator runs, its chunks must be on the GPU; missing ones move in (one
 * host-to-device copy each). `cpu` and `static` evict the chunks they do not
 * keep right after the operator (one device-to-host copy each). `auto` keeps
 * chunks until its budget, capacity × ratio − max(warm-up non-model memory of
 * this operator and the next), is short; then it evicts the chunks whose next
 * use is farthest away. Non-model memory after the warm-up is the recorded
 * one × `nonModelGrowth`; an operator fails when chunks + that exceed the GPU.
 * The optimizer step and gradient chunks are not modelled.
 *
 * @param c the run
 * @returns placement per operator, moves per step, and the first failure
 * @throws RangeError naming the field: `chunkSize must be >= the largest parameter (sizes[2] = 300 elements), got 256`,
 *   `gpuCapacityBytes must be a number >= 1, got 0`, `gpuFraction must be a number in [0, 1], got 2`,
 *   `policy must be "static", "auto" or "cpu", got "cuda"`, `ops[3].params[0] must index sizes (0 … 9), got 12`,
 *   `paramOrder must be "initialized" or "runtime", got "first-use"`
 * @example simulateGemini({ sizes, ops, chunkSize, policy: "cpu", gpuCapacityBytes: 1e9 }).fits // true (chunks of one operator at a time)
 * @see Colossal-AI `colossalai/zero/gemini/placement_policy.py` (`StaticPlacementPolicy`, `AutoPlacementPolicy.evict_tensors`,
 *   `_sort_can_evict_chunks`), commit 4f9953be335ef371b3848719ddafe596c01ecd37; the `cpu` policy as in Colossal-AI ≤ 0.3.1
 *   (`CPUPlacementPolicy`, commit 26b7aac0be10fb83692e197ca326f8b67c1c990b), today `static` with `offload_param_frac` 1;
 *   `gemini_ddp.py` at 4f9953b (chunks "in param initialized order" unless memory statistics are premade);
 *   Fang et al. 2022, *PatrickStar*, §5
 */
export function simulateGemini(c: GeminiConfig): GeminiResult {
  if (!["static", "auto", "cpu"].includes(c.policy)) throw new RangeError(`policy must be "static", "auto" or "cpu", got ${JSON.stringify(c.policy)}`);
  const cap = check("gpuCapacityBytes", c.gpuCapacityBytes, 1);
  const bpe = check("bytesPerElement", c.bytesPerElement ?? 2, Number.MIN_VALUE);
  const gpuFraction = check("gpuFraction", c.gpuFraction ?? 1, 0, 1);
  const growth = check("nonModelGrowth", c.nonModelGrowth ?? 1, 0);
  const ratio = check("steadyCudaCapRatio", c.steadyCudaCapRatio ?? 0.9, 0, 1);
  const numSteps = check("numSteps", c.numSteps ?? 2, 1, Infinity, true);
  c.ops.forEach((op, i) => op.params.forEach((p, j) => {
    if (!Number.isInteger(p) || p < 0 || p >= c.sizes.length) throw new RangeError(`ops[${i}].params[${j}] must index sizes (0 … ${c.sizes.length - 1}), got ${p}`);
  }));
  const paramOrder = c.paramOrder ?? "initialized";
  if (paramOrder !== "initialized" && paramOrder !== "runtime") throw new RangeError(`paramOrder must be "initialized" or "runtime", got ${JSON.stringify(paramOrder)}`);
  // Pack in the parameters' own order, or in order of first use.
  const order: number[] = [];
  if (paramOrder === "runtime") for (const op of c.ops) for (const p of op.params) if (!order.includes(p)) order.push(p);
  c.sizes.forEach((_, p) => { if (!order.includes(p)) order.push(p); });
  const packed = packChunks(order.map((p) => c.sizes[p]), c.chunkSize);
  const chunks = packed.chunks.map((ch) => ({ ...ch, params: ch.params.map((k) => order[k]) }));
  const chunkOf = new Map<number, number>();
  chunks.forEach((ch) => ch.params.forEach((p) => chunkOf.set(p, ch.index)));
  const chunkBytes = c.chunkSize * bpe;
  const need = c.ops.map((op) => [...new Set(op.params.map((p) => chunkOf.get(p)!))].sort((a, b) => a - b));
  const pinned = new Set<number>();
  if (c.policy === "static") for (let k = 0, kept = 0; k < chunks.length && kept + chunkBytes <= gpuFraction * chunks.length * chunkBytes + 1e-9; k++, kept += chunkBytes) pinned.add(k);
  const onGpu = new Set<number>(pinned);
  const events: GeminiEvent[] = [];
  const perStep: GeminiResult["perStep"] = [];
  let peak = 0;
  const n = c.ops.length;
  const nextUse = (k: number, i: number) => { for (let d = 1; d <= n; d++) if (need[(i + d) % n].includes(k)) return d; return n + 1; };
  for (let s = 0; s < numSteps; s++) {
    const tally = { h2dMoves: 0, d2hMoves: 0, h2dBytes: 0, d2hBytes: 0 };
    for (let i = 0; i < n; i++) {
      const evicted: number[] = [];
      const missing = need[i].filter((k) => !onGpu.has(k));
      if (c.policy === "auto") {
        const budget = cap * ratio - Math.max(c.ops[i].nonModelBytes, c.ops[(i + 1) % n].nonModelBytes);
        const nextUseOf = chunks.map((ch) => nextUse(ch.index, i));
        try {
          for (const k of chooseEvictions({ onGpu: [...onGpu], need: need[i], nextUse: nextUseOf, chunkBytes, budgetBytes: budget })) { onGpu.delete(k); evicted.push(k); }
        } catch {
          return { chunks, chunkBytes, fits: false, oom: { step: s, op: i, name: c.ops[i].name, reason: "planned", needBytes: (need[i].length) * chunkBytes, capacityBytes: budget }, perStep, peakGpuBytes: peak, events };
        }
      }
      for (const k of missing) onGpu.add(k);
      tally.h2dMoves += missing.length; tally.h2dBytes += missing.length * chunkBytes;
      const modelBytes = onGpu.size * chunkBytes;
      const nonModelBytes = c.ops[i].nonModelBytes * growth;
      peak = Math.max(peak, modelBytes + nonModelBytes);
      const ev: GeminiEvent = { step: s, op: i, name: c.ops[i].name, onGpu: [...onGpu].sort((a, b) => a - b), movedIn: missing, evicted, modelBytes, nonModelBytes };
      events.push(ev);
      if (modelBytes + nonModelBytes > cap) {
        return { chunks, chunkBytes, fits: false, oom: { step: s, op: i, name: c.ops[i].name, reason: "cuda", needBytes: modelBytes + nonModelBytes, capacityBytes: cap }, perStep, peakGpuBytes: peak, events };
      }
      if (c.policy !== "auto") for (const k of [...onGpu]) if (!pinned.has(k)) { onGpu.delete(k); ev.evicted.push(k); }
      tally.d2hMoves += ev.evicted.length; tally.d2hBytes += ev.evicted.length * chunkBytes;
    }
    perStep.push(tally);
  }
  return { chunks, chunkBytes, fits: true, oom: null, perStep, peakGpuBytes: peak, events };
}
