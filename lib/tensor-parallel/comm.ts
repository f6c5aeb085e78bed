import { allGather, reduceScatter, ringAllReduce, DEFAULT_COST_MODEL, type CommEvent, type CostModel } from "../collectives/index.js";

/**
 * The collectives tensor parallelism uses.
 * @see Shoeybi et al. 2019 (Megatron-LM) §3; Korthikanti et al. 2022 §4.2.2 (all-gather and reduce-scatter with sequence parallelism)
 */
export type TpCollective = "all-reduce" | "all-gather" | "reduce-scatter";

/**
 * One collective as it ran on the tensor-parallel group: which, in which pass,
 * for which operator, and the bytes and messages the World logged for it.
 * @see {@link TpComm}
 */
export interface TpCommRecord {
  collective: TpCollective;
  pass: "forward" | "backward";
  /** The operator that issued it, e.g. "g" or "f" or "sp-gather". */
  op: string;
  /** Elements of the full (unsharded) tensor the collective produces or reduces. */
  elements: number;
  /** Bytes sent by all ranks together (sum of the World's event bytes). */
  bytes: number;
  /** Messages in the World's event log. */
  messages: number;
  /** Time of this collective in seconds under the cost model. */
  timeS: number;
  /** The World's event log of this collective. */
  events: CommEvent[];
}

/**
 * A simulated tensor-parallel group of T ranks: it runs each collective on
 * `lib/collectives`' World (ring algorithms) and keeps a record of it, so that
 * a layer's communication is read from the event log, not from a formula.
 *
 * @example
 * const comm = new TpComm(2);
 * comm.allReduce([new Float32Array([1, 2]), new Float32Array([3, 4])], "forward", "g"); // [[4, 6], [4, 6]]
 * comm.log[0].bytes // 16: ring all-reduce, 2·(T−1)·n·4 bytes over all ranks
 * @throws RangeError `T must be an integer >= 1, got 0`
 * @see Megatron-LM megatron/core/tensor_parallel/mappings.py (the collectives behind f, g and the sequence-parallel regions)
 */
export class TpComm {
  readonly T: number;
  readonly cost: CostModel;
  readonly bytesPerElement: number;
  readonly log: TpCommRecord[] = [];

  /**
   * @param T tensor-parallel size (ranks)
   * @param cost α-β cost model (default lib/collectives' DEFAULT_COST_MODEL)
   * @param bytesPerElement bytes of one element on the wire (default 4, float32)
   */
  constructor(T: number, cost: CostModel = DEFAULT_COST_MODEL, bytesPerElement = 4) {
    checkT(T);
    this.T = T;
    this.cost = cost;
    this.bytesPerElement = bytesPerElement;
  }

  private record(collective: TpCollective, pass: "forward" | "backward", op: string, elements: number, r: { events: CommEvent[]; timeS: number }): void {
    this.log.push({ collective, pass, op, elements, bytes: r.events.reduce((s, e) => s + e.bytes, 0), messages: r.events.length, timeS: r.timeS, events: r.events });
  }

  private checkRanks(bufs: readonly Float32Array[], name: string): void {
    if (bufs.length !== this.T) throw new RangeError(`${name} must hold one buffer per rank (T = ${this.T}), got ${bufs.length}`);
  }

  /** Sum (or, with `reduce = "max"`, elementwise maximum) of the T buffers, on every rank (ring all-reduce). */
  allReduce(bufs: readonly Float32Array[], pass: "forward" | "backward", op: string, reduce: "sum" | "max" = "sum"): Float32Array[] {
    this.checkRanks(bufs, "buffers");
    if (this.T === 1) return [bufs[0].slice()];
    const r = ringAllReduce(bufs, { cost: this.cost, bytesPerElement: this.bytesPerElement, ...(reduce === "max" ? { reduce: maxChunk } : {}) });
    this.record("all-reduce", pass, op, bufs[0].length, r);
    return r.result;
  }

  /** Concatenation of the T shards in rank order, on every rank (ring all-gather). */
  allGather(shards: readonly Float32Array[], pass: "forward" | "backward", op: string): Float32Array[] {
    this.checkRanks(shards, "shards");
    if (this.T === 1) return [shards[0].slice()];
    const r = allGather(shards, { cost: this.cost, bytesPerElement: this.bytesPerElement });
    this.record("all-gather", pass, op, r.result[0].length, r);
    return r.result;
  }

  /** Rank r gets block r (of T equal blocks) of the sum of the T buffers (ring reduce-scatter). */
  reduceScatter(bufs: readonly Float32Array[], pass: "forward" | "backward", op: string): Float32Array[] {
    this.checkRanks(bufs, "buffers");
    if (this.T === 1) return [bufs[0].slice()];
    if (bufs[0].length % this.T !== 0) throw new RangeError(`reduce-scatter needs a length divisible by T = ${this.T}, got ${bufs[0].length}`);
    const r = reduceScatter(bufs, { cost: this.cost, bytesPerElement: this.bytesPerElement });
    this.record("reduce-scatter", pass, op, bufs[0].length, r);
    return r.result;
  }

  /** Forgets the log (e.g. between training steps). */
  clear(): void {
    this.log.length = 0;
  }
}

/** Elementwise maximum of two chunks (the reduction of an all-reduce with op MAX). */
function maxChunk(local: Float32Array, received: Float32Array): Float32Array {
  const out = new Float32Array(local.length);
  for (let i = 0; i < local.length; i++) out[i] = Math.max(local[i], received[i]);
  return out;
}

/**
 * Checks a tensor-parallel size.
 * @param T ranks in the tensor-parallel group
 * @returns T
 * @throws RangeError `T must be an integer >= 1, got 0`
 * @example checkT(4) // 4
 * @see Megatron-LM `--tensor-model-parallel-size`
 */
export function checkT(T: number): number {
  if (!Number.isInteger(T) || T < 1) throw new RangeError(`T must be an integer >= 1, got ${T}`);
  return T;
}
