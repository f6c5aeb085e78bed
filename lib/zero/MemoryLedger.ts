/**
 * Per-rank memory from allocation and free events: what the page plots and
 * where the peak comes from.
 */

/** What a block of memory holds ("resharded": FSDP2's slice kept after forward by an int reshard_after_forward). */
export type MemoryKind = "params" | "grads" | "master" | "adam-m" | "adam-v" | "gathered" | "resharded" | "bucket" | "activations";

/**
 * One allocation or free on one rank.
 * @see the house event shape `{t, rank, kind, bytes}` (the course's design notes)
 */
export interface MemoryEvent {
  /** Position in the step's schedule (a logical clock: one tick per operation of the simulation). */
  t: number;
  rank: number;
  op: "alloc" | "free";
  kind: MemoryKind;
  bytes: number;
  /** Bytes live on this rank after the event. */
  live: number;
  /** e.g. "forward blocks.0". */
  label: string;
}

/**
 * A log of allocations and frees on P ranks, with the live bytes and the peak of each.
 *
 * @example
 * const m = new MemoryLedger(2); m.alloc(0, "params", 8, "resident"); m.tick(); m.free(0, "params", 8, "end");
 * m.peakBytes // [8, 0]
 * @throws RangeError `free of 9 bytes of grads on rank 0 exceeds the 8 live` (a simulation bug, never silent)
 * @see PyTorch torch.cuda.memory_allocated / max_memory_allocated (the live and peak counters this mirrors)
 */
export class MemoryLedger {
  readonly events: MemoryEvent[] = [];
  readonly liveBytes: number[];
  readonly peakBytes: number[];
  private readonly byKind: Map<MemoryKind, number>[];
  /** The logical clock. */
  t = 0;

  /** @param numRanks P */
  constructor(readonly numRanks: number) {
    this.liveBytes = new Array(numRanks).fill(0);
    this.peakBytes = new Array(numRanks).fill(0);
    this.byKind = Array.from({ length: numRanks }, () => new Map());
  }

  /** Advances the clock by one operation. */
  tick(): number {
    return ++this.t;
  }

  /** Records an allocation of `bytes` (a zero-byte one is not recorded). */
  alloc(rank: number, kind: MemoryKind, bytes: number, label: string): void {
    if (bytes <= 0) return;
    this.liveBytes[rank] += bytes;
    this.byKind[rank].set(kind, (this.byKind[rank].get(kind) ?? 0) + bytes);
    this.peakBytes[rank] = Math.max(this.peakBytes[rank], this.liveBytes[rank]);
    this.events.push({ t: this.t, rank, op: "alloc", kind, bytes, live: this.liveBytes[rank], label });
  }

  /** Records a free of `bytes` (a zero-byte one is not recorded). */
  free(rank: number, kind: MemoryKind, bytes: number, label: string): void {
    if (bytes <= 0) return;
    const have = this.byKind[rank].get(kind) ?? 0;
    if (bytes > have) throw new RangeError(`free of ${bytes} bytes of ${kind} on rank ${rank} exceeds the ${have} live`);
    this.liveBytes[rank] -= bytes;
    this.byKind[rank].set(kind, have - bytes);
    this.events.push({ t: this.t, rank, op: "free", kind, bytes, live: this.liveBytes[rank], label });
  }

  /** Live bytes of one kind on one rank. */
  live(rank: number, kind: MemoryKind): number {
    return this.byKind[rank].get(kind) ?? 0;
  }
}
