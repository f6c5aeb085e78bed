/**
 * Which tokens of a sequence each context-parallel rank holds: contiguous
 * blocks (Ring Attention), zig-zag chunk pairs (Megatron-LM, Transformer
 * Engine, Llama 3) or stripes (Striped Attention).
 */

/**
 * How the seqLen positions are dealt to the cpSize ranks.
 * - "contiguous": rank r holds positions [r·n, (r+1)·n), n = seqLen/cpSize (Liu et al. 2023).
 * - "zigzag": the sequence is cut into 2·cpSize chunks; rank r holds chunks r and 2·cpSize − 1 − r
 *   (Megatron-LM `get_batch_on_this_cp_rank`; Llama 3 §3.3.2).
 * - "striped": rank r holds positions r, r + cpSize, r + 2·cpSize, … (Brandon et al. 2023).
 * @see the sources of {@link sequenceShards}
 */
export type CpLayout = "contiguous" | "zigzag" | "striped";

/**
 * The three layouts, in the order the page shows them.
 * @example CP_LAYOUTS.length // 3
 * @see {@link CpLayout}
 */
export const CP_LAYOUTS: readonly CpLayout[] = Object.freeze(["contiguous", "zigzag", "striped"]);

function checkInt(name: string, v: number, min: number): void {
  if (!Number.isSafeInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${v}`);
}

/**
 * The global positions held by each rank, ascending, for a sequence of
 * seqLen tokens split over cpSize ranks.
 *
 * Every rank gets n = seqLen/cpSize positions; together they are 0 … seqLen−1
 * once each. zigzag needs seqLen divisible by 2·cpSize (Megatron asserts
 * `seq-length should be a multiple of 2 * context-parallel-size`), the other
 * two by cpSize. With cpSize = 1 every layout is the whole sequence.
 * @param seqLen tokens in the sequence, integer >= 1
 * @param cpSize context-parallel ranks C, integer >= 1
 * @param layout "contiguous" | "zigzag" | "striped"
 * @returns cpSize arrays of n positions each (new arrays)
 * @throws RangeError `seqLen (10) must be divisible by 2·cpSize (4) for the zigzag layout`,
 *   `seqLen (10) must be divisible by cpSize (4)`, `cpSize must be an integer >= 1, got 0`,
 *   `layout must be contiguous, zigzag or striped, got "x"`
 * @example sequenceShards(8, 2, "zigzag") // [[0, 1, 6, 7], [2, 3, 4, 5]]
 * @example sequenceShards(8, 2, "striped") // [[0, 2, 4, 6], [1, 3, 5, 7]]
 * @see Megatron-LM `megatron/core/utils.py` `_get_batch_on_this_cp_rank_per_sequence_balancing` (chunks
 *   cp_rank and 2·cp_size − cp_rank − 1) and `megatron/training/arguments.py` (the divisibility assert), commit d98e8a6;
 *   Brandon et al. 2023, *Striped Attention*, §3; Liu et al. 2023, *Ring Attention*, §3
 */
export function sequenceShards(seqLen: number, cpSize: number, layout: CpLayout): number[][] {
  checkInt("seqLen", seqLen, 1);
  checkInt("cpSize", cpSize, 1);
  if (!CP_LAYOUTS.includes(layout)) throw new RangeError(`layout must be contiguous, zigzag or striped, got ${JSON.stringify(layout)}`);
  if (layout === "zigzag" && seqLen % (2 * cpSize) !== 0) {
    throw new RangeError(`seqLen (${seqLen}) must be divisible by 2·cpSize (${2 * cpSize}) for the zigzag layout`);
  }
  if (seqLen % cpSize !== 0) throw new RangeError(`seqLen (${seqLen}) must be divisible by cpSize (${cpSize})`);
  const n = seqLen / cpSize;
  return Array.from({ length: cpSize }, (_, r) => {
    if (layout === "contiguous") return Array.from({ length: n }, (_, i) => r * n + i);
    if (layout === "striped") return Array.from({ length: n }, (_, i) => r + i * cpSize);
    const m = n / 2; // chunk length; chunks r and 2C − 1 − r
    const far = 2 * cpSize - 1 - r;
    return [...Array.from({ length: m }, (_, i) => r * m + i), ...Array.from({ length: m }, (_, i) => far * m + i)];
  });
}

/**
 * Checks that `shards` deal positions 0 … N−1 once each, n per rank, and returns N.
 * @param shards one array of global positions per rank
 * @returns N, the sequence length
 * @throws RangeError `shards must hold one array per rank (cpSize >= 1), got 0`;
 *   `shards[1] has 3 positions, shards[0] has 4 (every rank holds the same number)`;
 *   `position 5 appears twice (shards[1])`; `shards[0][2] = 9 is not a position of a 8-token sequence`
 * @example checkShards([[0, 3], [1, 2]]) // 4
 * @see {@link sequenceShards}
 */
export function checkShards(shards: readonly (readonly number[])[]): number {
  if (!Array.isArray(shards) || shards.length === 0) throw new RangeError(`shards must hold one array per rank (cpSize >= 1), got ${Array.isArray(shards) ? 0 : String(shards)}`);
  const n = shards[0].length;
  shards.forEach((s, r) => { if (s.length !== n) throw new RangeError(`shards[${r}] has ${s.length} positions, shards[0] has ${n} (every rank holds the same number)`); });
  const N = n * shards.length;
  const seen = new Uint8Array(N);
  shards.forEach((s, r) => s.forEach((p: number, i: number) => {
    if (!Number.isInteger(p) || p < 0 || p >= N) throw new RangeError(`shards[${r}][${i}] = ${p} is not a position of a ${N}-token sequence`);
    if (seen[p]) throw new RangeError(`position ${p} appears twice (shards[${r}])`);
    seen[p] = 1;
  }));
  return N;
}
