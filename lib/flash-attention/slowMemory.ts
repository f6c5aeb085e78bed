/**
 * A counted model of a GPU's slow memory (HBM) for the backward pass: the
 * tensors live here, code reaches them only in tiles of rows, and every
 * element read or written is counted, per tensor.
 */
import { resolveAttention, type AttentionShape } from "./shape.js";

/** The tensors of one backward call: inputs Q, K, V, O, dO, L; outputs dQ, dK, dV; scratch D. */
export type SlowTensorName = "Q" | "K" | "V" | "O" | "dO" | "L" | "D" | "dQ" | "dK" | "dV";

/** Names in a fixed order (inputs, scratch, outputs). */
export const SLOW_TENSORS: readonly SlowTensorName[] = ["Q", "K", "V", "O", "dO", "L", "D", "dQ", "dK", "dV"];
const WRITABLE = new Set<SlowTensorName>(["D", "dQ", "dK", "dV"]);
const KEY_SIDE = new Set<SlowTensorName>(["K", "V", "dK", "dV"]);

/**
 * What code running "on chip" may do with slow memory: read or overwrite a tile of rows of one head.
 * @see the sources of {@link createSlowMemory}: Dao 2023, FlashAttention-2, Algorithm 2 (loads and writes between HBM and SRAM)
 */
export interface SlowMemory {
  /** Rows [r0, r1) of head bh (bh = b·H + h) of a tensor, as a new Float32Array of (r1 − r0)·width values. */
  read(name: SlowTensorName, bh: number, r0: number, r1: number): Float32Array;
  /** Overwrites rows [r0, r1) of head bh of D, dQ, dK or dV with (r1 − r0)·width values. */
  write(name: SlowTensorName, bh: number, r0: number, r1: number, values: ArrayLike<number>): void;
}

/**
 * A {@link SlowMemory} that also exposes its tensors and its counters (elements per tensor).
 * @see the sources of {@link createSlowMemory}: Dao 2023, FlashAttention-2, Algorithm 2
 */
export interface CountingSlowMemory extends SlowMemory {
  readonly tensors: Record<SlowTensorName, Float32Array>;
  readonly reads: Record<SlowTensorName, number>;
  readonly writes: Record<SlowTensorName, number>;
}

/** Elements per row: d, or 1 for the per-row statistics L and D. */
function widthOf(name: SlowTensorName, d: number): number {
  return name === "L" || name === "D" ? 1 : d;
}

/**
 * Puts the backward pass's inputs in a counted slow memory (dQ, dK, dV and D start at 0).
 *
 * Rules, each a RangeError: the tensor must exist; bh an integer in [0, B·H);
 * rows 0 ≤ r0 < r1 ≤ N (Nq for Q, O, dO, L, D, dQ; Nk for K, V, dK, dV),
 * integers; at most Br rows of a query-side tensor or Bc rows of a key-side
 * tensor per access (a tile must fit on chip); only D, dQ, dK, dV may be
 * written, with exactly (r1 − r0)·width values. Reads return copies.
 * @param inputs Q (B,H,Nq,d), K, V (B,H,Nk,d), O, dO (B,H,Nq,d), L (B,H,Nq) as Float32Arrays (copied)
 * @param shape B, H, Nq, Nk, d
 * @param tile Br, Bc: the largest tiles an access may move
 * @returns the memory, with per-tensor counters of elements read and written
 * @throws RangeError `L must have length 2 (B·H·Nq), got 1`; at access time e.g. `read(K): 3 rows exceed the tile of Bc = 2 rows`, `write(Q): Q is an input and read-only`
 * @example createSlowMemory({Q, K, V, O, dO, L}, {B: 1, H: 1, Nq: 1, Nk: 2, d: 1}, {Br: 1, Bc: 2}).read("K", 0, 0, 2) // Float32Array [0, 1.0986…]; reads.K is then 2
 * @see Dao 2023, FlashAttention-2, Algorithm 2; Dao et al. 2022, FlashAttention, §3.2 (HBM accesses as the cost)
 */
export function createSlowMemory(inputs: Record<"Q" | "K" | "V" | "O" | "dO" | "L", Float32Array>, shape: AttentionShape, tile: { Br: number; Bc: number }): CountingSlowMemory {
  const { B, H, Nq, Nk, d } = shape;
  const nq = B * H * Nq * d, nk = B * H * Nk * d;
  resolveAttention(shape, {
    Q: [inputs.Q, nq, "B·H·Nq·d"], K: [inputs.K, nk, "B·H·Nk·d"], V: [inputs.V, nk, "B·H·Nk·d"],
    O: [inputs.O, nq, "B·H·Nq·d"], dO: [inputs.dO, nq, "B·H·Nq·d"], L: [inputs.L, B * H * Nq, "B·H·Nq"],
  });
  for (const [k, v] of [["Br", tile.Br], ["Bc", tile.Bc]] as const) if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k} must be an integer >= 1, got ${v}`);
  const tensors = {
    Q: Float32Array.from(inputs.Q), K: Float32Array.from(inputs.K), V: Float32Array.from(inputs.V),
    O: Float32Array.from(inputs.O), dO: Float32Array.from(inputs.dO), L: Float32Array.from(inputs.L),
    D: new Float32Array(B * H * Nq), dQ: new Float32Array(nq), dK: new Float32Array(nk), dV: new Float32Array(nk),
  } satisfies Record<SlowTensorName, Float32Array>;
  const zero = () => Object.fromEntries(SLOW_TENSORS.map((n) => [n, 0])) as Record<SlowTensorName, number>;
  const reads = zero(), writes = zero();
  const locate = (op: string, name: SlowTensorName, bh: number, r0: number, r1: number): [number, number] => {
    if (!SLOW_TENSORS.includes(name)) throw new RangeError(`${op}: unknown tensor ${JSON.stringify(name)}; slow memory holds ${SLOW_TENSORS.join(", ")}`);
    if (!Number.isInteger(bh) || bh < 0 || bh >= B * H) throw new RangeError(`${op}(${name}): bh must be an integer in [0, ${B * H}), got ${bh}`);
    const rows = KEY_SIDE.has(name) ? Nk : Nq;
    if (!Number.isInteger(r0) || !Number.isInteger(r1) || r0 < 0 || r1 <= r0 || r1 > rows) throw new RangeError(`${op}(${name}): rows [r0, r1) must be integers with 0 <= r0 < r1 <= ${rows}, got [${r0}, ${r1})`);
    const limit = KEY_SIDE.has(name) ? tile.Bc : tile.Br;
    if (r1 - r0 > limit) throw new RangeError(`${op}(${name}): ${r1 - r0} rows exceed the tile of ${KEY_SIDE.has(name) ? "Bc" : "Br"} = ${limit} rows`);
    const w = widthOf(name, d);
    return [(bh * rows + r0) * w, (bh * rows + r1) * w]; // flat offsets in (B, H, N, width)
  };
  return {
    tensors, reads, writes,
    read(name, bh, r0, r1) {
      const [a, b] = locate("read", name, bh, r0, r1);
      reads[name] += b - a;
      return tensors[name].slice(a, b);
    },
    write(name, bh, r0, r1, values) {
      const [a, b] = locate("write", name, bh, r0, r1);
      if (!WRITABLE.has(name)) throw new RangeError(`write(${name}): ${name} is an input and read-only`);
      if (!values || values.length !== b - a) throw new RangeError(`write(${name}): expected ${b - a} values, got ${values?.length}`);
      writes[name] += b - a;
      tensors[name].set(Array.from(values), a);
    },
  };
}
