/**
 * Gemini's `auto` eviction: which chunks leave the GPU so the chunks an
 * operator needs fit in the budget the warm-up statistics leave.
 */

/** The situation before one operator. */
export interface EvictionInput {
  /** Chunks on the GPU now (indices, any order). */
  onGpu: readonly number[];
  /** Chunks the operator needs (indices). */
  need: readonly number[];
  /** For each chunk index, how many operators until its next use (1 = the next one); larger is evicted first. */
  nextUse: readonly number[];
  /** Bytes of one chunk (> 0). */
  chunkBytes: number;
  /** Bytes chunks may occupy during this operator (may be negative: nothing fits). */
  budgetBytes: number;
}

/**
 * The chunks to evict, in eviction order: if (chunks on the GPU + missing
 * needed chunks) × chunkBytes exceeds the budget, evict chunks not needed now,
 * farthest next use first (ties: higher index first), until the excess is
 * freed. Nothing is evicted when everything fits.
 *
 * @param x the situation
 * @returns chunk indices to evict (a new array)
 * @throws RangeError `Adjust layout failed: need 3 chunks (6144 bytes), budget 4000 bytes` when evicting every
 *   evictable chunk is not enough (Colossal-AI's message begins the same way); `chunkBytes must be a number > 0, got 0`
 * @example chooseEvictions({ onGpu: [0, 1, 2], need: [3], nextUse: [5, 1, 3, 2], chunkBytes: 10, budgetBytes: 30 }) // [0]
 * @see Colossal-AI `colossalai/zero/gemini/placement_policy.py`, `AutoPlacementPolicy.evict_tensors` and `_sort_can_evict_chunks`,
 *   commit 4f9953be335ef371b3848719ddafe596c01ecd37
 */
export function chooseEvictions(x: EvictionInput): number[] {
  if (typeof x.chunkBytes !== "number" || !Number.isFinite(x.chunkBytes) || x.chunkBytes <= 0) throw new RangeError(`chunkBytes must be a number > 0, got ${x.chunkBytes}`);
  const onGpu = new Set(x.onGpu), need = new Set(x.need);
  const missing = [...need].filter((k) => !onGpu.has(k)).length;
  const over = (onGpu.size + missing) * x.chunkBytes - x.budgetBytes;
  if (over <= 0) return [];
  const victims = [...onGpu].filter((k) => !need.has(k)).sort((a, b) => x.nextUse[b] - x.nextUse[a] || b - a);
  const out: number[] = [];
  let freed = 0;
  for (const k of victims) { if (freed >= over) break; out.push(k); freed += x.chunkBytes; }
  if (freed < over) {
    const needBytes = need.size * x.chunkBytes;
    throw new RangeError(`Adjust layout failed: need ${need.size} chunks (${needBytes} bytes), budget ${x.budgetBytes} bytes`);
  }
  return out;
}
