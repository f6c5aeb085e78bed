import { allToAll, DEFAULT_COST_MODEL, type CommEvent, type CostModel, type Topology } from "../collectives/index.js";

/**
 * One all-to-all as the group ran it.
 * @see the sources of {@link EpComm}
 */
export interface EpCommRecord {
  /** What the caller called it ("dispatch", "combine", …; "all-to-all" by default). */
  label: string;
  /** Element counts, splits[r][d] from rank r to rank d. */
  splits: number[][];
  /** Bytes sent between different ranks. */
  bytes: number;
  /** Of them, bytes between nodes. */
  interNodeBytes: number;
  /** The collective's time in seconds. */
  timeS: number;
  /** Every message (the World's events). */
  events: CommEvent[];
}

/**
 * An expert-parallel group of P simulated ranks whose only collective is the
 * all-to-all (`lib/collectives`' allToAll on a World), with a log of every call.
 * @example const g = new EpComm(2); g.allToAll([[1, 2], [3]], [[1, 1], [0, 1]]); g.log[0].bytes // 4 (one float32 from rank 0 to rank 1)
 * @see Megatron-LM `megatron/core/transformer/moe/token_dispatcher.py` at d98e8a6 (the all-to-all over the expert-parallel group); torch.distributed.all_to_all_single
 */
export class EpComm {
  readonly P: number;
  readonly log: EpCommRecord[] = [];
  /**
   * @param P ranks (integer ≥ 1)
   * @param cost α-β link inside a node (default 5 µs, 25 GB/s)
   * @param bytesPerElement default 4 (float32)
   * @param topology nodes (default: one node)
   * @throws RangeError `P must be an integer >= 1, got 0`
   */
  constructor(P: number, readonly cost: CostModel = DEFAULT_COST_MODEL, readonly bytesPerElement = 4, readonly topology?: Topology) {
    if (!Number.isInteger(P) || P < 1) throw new RangeError(`P must be an integer >= 1, got ${P}`);
    this.P = P;
  }

  /**
   * All-to-all: rank r sends splits[r][d] elements to rank d (segments in receiver order); returns each rank's
   * received segments in sender order (new arrays).
   * @throws RangeError from allToAll (`splits must be a P×P table …`, `inputs[1] has 3 elements but splits[1] sums to 4`)
   */
  allToAll(inputs: readonly Float32Array[], splits: readonly (readonly number[])[], label = "all-to-all"): Float32Array[] {
    if (inputs.length !== this.P) throw new RangeError(`inputs must hold one buffer per rank (P = ${this.P}), got ${inputs.length}`);
    const r = allToAll(inputs, splits, { cost: this.cost, bytesPerElement: this.bytesPerElement, topology: this.topology });
    const bytes = r.events.reduce((s, e) => s + e.bytes, 0), inter = r.events.filter((e) => e.interNode).reduce((s, e) => s + e.bytes, 0);
    this.log.push({ label, splits: splits.map((row) => [...row]), bytes, interNodeBytes: inter, timeS: r.timeS, events: r.events });
    return r.result;
  }
}
