import { validateCostModel, type CostModel } from "./costModel.js";
import { addChunk, type ReduceFn } from "./addChunk.js";

/**
 * What a message does on arrival: overwrite the receiver's range, or add into it.
 * @see the sources of {@link World}: Hockney 1994 (the α-β model); NCCL tests doc/PERFORMANCE.md (bytes per rank); Patarasuk & Yuan 2009 (the ring under simultaneous sends on full-duplex links)
 */
export type MessageOp = "copy" | "reduce";

/**
 * The collective (or phase) a message belongs to; pages colour events by it.
 * @see the sources of {@link World}: Hockney 1994 (the α-β model); NCCL tests doc/PERFORMANCE.md (bytes per rank); Patarasuk & Yuan 2009 (the ring under simultaneous sends on full-duplex links)
 */
export type CommKind = "reduce-scatter" | "all-gather" | "broadcast" | "reduce" | "push" | "pull" | "send" | "all-to-all";

/**
 * One message of one step: `length` elements of the sender's buffer at `offset` go to the receiver's buffer at
 * `receiverOffset` (default: the same `offset`).
 * @see the sources of {@link World}: Hockney 1994 (the α-β model); NCCL tests doc/PERFORMANCE.md (bytes per rank); Patarasuk & Yuan 2009 (the ring under simultaneous sends on full-duplex links)
 */
export interface Message {
  sender: number;
  receiver: number;
  /** Chunk index (see chunkBounds), or −1 when the message carries the whole buffer. */
  chunk: number;
  offset: number;
  length: number;
  op: MessageOp;
  /** Where the payload lands in the receiver's buffer (default `offset`); an all-to-all packs by sender. */
  receiverOffset?: number;
}

/**
 * One message as it happened: when (seconds from the start), who, what, how many bytes.
 * @see the sources of {@link World}: Hockney 1994 (the α-β model); NCCL tests doc/PERFORMANCE.md (bytes per rank); Patarasuk & Yuan 2009 (the ring under simultaneous sends on full-duplex links)
 */
export interface CommEvent {
  step: number;
  /** Start time in seconds. */
  t: number;
  /** End time in seconds (the whole step ends together). */
  tEnd: number;
  sender: number;
  receiver: number;
  /** Same as `sender`: the rank that spends the bytes (the house event shape `{t, rank, kind, bytes}`). */
  rank: number;
  chunk: number;
  offset: number;
  length: number;
  bytes: number;
  kind: CommKind;
  op: MessageOp;
  /** Where the payload landed in the receiver's buffer (equals `offset` unless the message said otherwise). */
  receiverOffset: number;
  /** True when sender and receiver are in different nodes of the world's {@link Topology}; false without one. */
  interNode: boolean;
}

/**
 * Nodes of a world: ranks r and s share a node when ⌊r/ranksPerNode⌋ = ⌊s/ranksPerNode⌋; inside a node
 * a rank's link is its `bandwidthOf(rank)` (NVLink, NVSwitch), between nodes its network port
 * `interNodeBandwidthBytesPerS` (one NIC per GPU, as in DGX nodes). The two links work at the same time.
 * @see NVIDIA DGX A100 and DGX H100 user guides (eight GPUs joined by NVSwitch, one InfiniBand port per GPU); DeepSeek-AI 2024, *DeepSeek-V3 Technical Report* §3.2.2 (NVLink 160 GB/s against InfiniBand 50 GB/s)
 */
export interface Topology {
  /** Ranks per node, integer >= 1 (e.g. 8). */
  ranksPerNode: number;
  /** Bandwidth of each rank's network port between nodes, bytes per second, one direction (> 0). */
  interNodeBandwidthBytesPerS: number;
}

/**
 * Options of a {@link World}.
 * @see the sources of {@link World}: Hockney 1994 (the α-β model); NCCL tests doc/PERFORMANCE.md (bytes per rank); Patarasuk & Yuan 2009 (the ring under simultaneous sends on full-duplex links)
 */
export interface WorldOptions {
  /** Bytes per element for the cost model (default 4: float32). */
  bytesPerElement?: number;
  /** Adds a received chunk into the local one (default: the CPU float32 add {@link addChunk}). */
  reduce?: ReduceFn;
  /** Per-rank link bandwidth overrides in bytes per second (e.g. the parameter server's link). */
  bandwidthOverrides?: ReadonlyMap<number, number>;
  /** Nodes: messages between nodes use each rank's network port instead of its link inside the node (default: one node). */
  topology?: Topology;
}

/**
 * A simulated group of P ranks: one Float32Array buffer and one clock per
 * rank, and a log of every message. Collectives drive it with {@link World.step}:
 * all messages of a step read their payload before any lands (they are
 * simultaneous), then copy or add it into the receiver.
 *
 * Timing (α-β, full duplex): a step starts when its slowest participant's
 * clock is free and lasts α + max over ranks of max(bytes out, bytes in) / B_rank.
 * With a {@link Topology}, bytes inside a node and bytes between nodes travel on
 * separate links at the same time: the step lasts α + max over ranks of
 * max(intra out, intra in) / B_rank and max(inter out, inter in) / B_network.
 *
 * @example
 * const w = new World([new Float32Array([1]), new Float32Array([2])], { alphaS: 0, bandwidthBytesPerS: 4 });
 * w.step("send", [{ sender: 0, receiver: 1, chunk: -1, offset: 0, length: 1, op: "reduce" }]);
 * w.buffers[1] // Float32Array [3]; w.clock // [1, 1]
 * @throws RangeError from the constructor: `buffers must hold one buffer per rank (numRanks >= 1), got 0 buffers`;
 *   `buffers[2] has length 5, expected 7 (every rank's buffer must have the same length)`;
 *   `bytesPerElement must be a number > 0, got 0`; `topology.ranksPerNode must be an integer >= 1, got 0`;
 *   `topology.interNodeBandwidthBytesPerS must be a finite number > 0, got 0`; and the cost-model errors of {@link validateCostModel}
 * @see Hockney 1994 (the α-β model); NCCL tests doc/PERFORMANCE.md (bytes per rank); Patarasuk & Yuan 2009 (the ring under simultaneous sends on full-duplex links)
 */
export class World {
  readonly numRanks: number;
  readonly numElements: number;
  /** Each rank's buffer (copies of the inputs, changed by the steps). */
  readonly buffers: Float32Array[];
  /** Each rank's clock in seconds. */
  readonly clock: number[];
  readonly events: CommEvent[] = [];
  readonly bytesSent: number[];
  readonly bytesReceived: number[];
  readonly cost: Required<CostModel>;
  readonly bytesPerElement: number;
  private readonly reduce: ReduceFn;
  private readonly overrides: ReadonlyMap<number, number>;
  /** The world's nodes, or undefined for one node. */
  readonly topology: Topology | undefined;
  private stepCount = 0;

  /**
   * @param buffers one buffer per rank, all the same length (copied)
   * @param cost the α-β cost model
   * @throws RangeError `buffers must hold one buffer per rank (numRanks >= 1), got 0 buffers`;
   *   `buffers[2] has length 5, expected 7 (every rank's buffer must have the same length)`; and those of validateCostModel
   */
  constructor(buffers: readonly ArrayLike<number>[], cost: CostModel, options: WorldOptions = {}) {
    this.cost = validateCostModel(cost);
    this.buffers = copyBuffers(buffers, true);
    this.numRanks = this.buffers.length;
    this.numElements = this.buffers[0].length;
    this.clock = new Array(this.numRanks).fill(0);
    this.bytesSent = new Array(this.numRanks).fill(0);
    this.bytesReceived = new Array(this.numRanks).fill(0);
    this.bytesPerElement = options.bytesPerElement ?? 4;
    if (!(this.bytesPerElement > 0)) throw new RangeError(`bytesPerElement must be a number > 0, got ${this.bytesPerElement}`);
    this.reduce = options.reduce ?? addChunk;
    this.overrides = options.bandwidthOverrides ?? new Map();
    this.topology = options.topology === undefined ? undefined : checkTopology(options.topology);
  }

  /** True when ranks a and b are in different nodes (always false without a topology). */
  isInterNode(a: number, b: number): boolean {
    const g = this.topology?.ranksPerNode;
    return g !== undefined && Math.floor(a / g) !== Math.floor(b / g);
  }

  /** Bandwidth of a rank's link in bytes per second. */
  bandwidthOf(rank: number): number {
    return this.overrides.get(rank) ?? this.cost.bandwidthBytesPerS;
  }

  /** The current time: the latest clock. */
  get timeS(): number {
    return Math.max(0, ...this.clock);
  }

  /**
   * Runs one step: every message reads its payload, then all land.
   * Zero-length messages are skipped; a step with no message costs nothing.
   * @param kind the collective (or phase) the messages belong to
   * @param messages what moves, all at once
   * @param bytesPerElement bytes of one element in this step (default the World's): a collective in another dtype
   *   (FSDP2 all-gathers in `param_dtype` and reduce-scatters in `reduce_dtype` on the same ranks)
   * @returns the step's duration in seconds
   * @throws RangeError `bytesPerElement must be a number > 0, got 0`
   */
  step(kind: CommKind, messages: readonly Message[], bytesPerElement = this.bytesPerElement): number {
    if (!(bytesPerElement > 0)) throw new RangeError(`bytesPerElement must be a number > 0, got ${bytesPerElement}`);
    const live = messages.filter((m) => m.length > 0);
    if (live.length === 0) return 0;
    const landing = (m: Message) => m.receiverOffset ?? m.offset;
    // a payload is copied only if this step also writes where it is read from; otherwise a view suffices
    const writes = new Map<number, Message[]>();
    for (const m of live) writes.set(m.receiver, [...(writes.get(m.receiver) ?? []), m]);
    const overlaps = (m: Message) => (writes.get(m.sender) ?? []).some((w) => landing(w) < m.offset + m.length && m.offset < landing(w) + w.length);
    const payloads = live.map((m) => (overlaps(m) ? this.buffers[m.sender].slice(m.offset, m.offset + m.length) : this.buffers[m.sender].subarray(m.offset, m.offset + m.length)));
    // bytes per rank: [intra out, intra in, inter out, inter in]
    const load = Array.from({ length: this.numRanks }, () => [0, 0, 0, 0]);
    const participants = new Set<number>();
    for (const m of live) {
      const b = m.length * bytesPerElement, inter = this.isInterNode(m.sender, m.receiver) ? 2 : 0;
      load[m.sender][inter] += b;
      load[m.receiver][inter + 1] += b;
      participants.add(m.sender).add(m.receiver);
    }
    let transferS = 0;
    for (const r of participants) {
      const [io, ii, eo, ei] = load[r];
      transferS = Math.max(transferS, Math.max(io, ii) / this.bandwidthOf(r));
      if (this.topology) transferS = Math.max(transferS, Math.max(eo, ei) / this.topology.interNodeBandwidthBytesPerS);
    }
    const t = Math.max(...[...participants].map((r) => this.clock[r]));
    const tEnd = t + this.cost.alphaS + transferS;
    live.forEach((m, i) => {
      const dst = this.buffers[m.receiver], at = landing(m);
      if (at < 0 || at + m.length > this.numElements) throw new RangeError(`message ${m.sender} → ${m.receiver} lands at ${at}..${at + m.length}, outside the buffer of ${this.numElements} elements`);
      if (m.op === "copy") dst.set(payloads[i], at);
      else if (this.reduce === addChunk) addInPlace(dst, at, payloads[i]); // same float32 sums, no allocation
      else dst.set(this.reduce(dst.subarray(at, at + m.length), payloads[i]), at);
      const bytes = m.length * bytesPerElement;
      this.bytesSent[m.sender] += bytes;
      this.bytesReceived[m.receiver] += bytes;
      this.events.push({ step: this.stepCount, t, tEnd, sender: m.sender, receiver: m.receiver, rank: m.sender, chunk: m.chunk, offset: m.offset, length: m.length, bytes, kind, op: m.op, receiverOffset: at, interNode: this.isInterNode(m.sender, m.receiver) });
    });
    for (const r of participants) this.clock[r] = tEnd;
    this.stepCount++;
    return tEnd - t;
  }

  /** Number of steps run so far (steps with no message are not counted). */
  get numSteps(): number {
    return this.stepCount;
  }
}

/** Checks a topology and returns it. */
function checkTopology(t: Topology): Topology {
  if (!Number.isInteger(t?.ranksPerNode) || t.ranksPerNode < 1) throw new RangeError(`topology.ranksPerNode must be an integer >= 1, got ${t?.ranksPerNode}`);
  const b = t.interNodeBandwidthBytesPerS;
  if (typeof b !== "number" || !Number.isFinite(b) || b <= 0) throw new RangeError(`topology.interNodeBandwidthBytesPerS must be a finite number > 0, got ${b}`);
  return { ranksPerNode: t.ranksPerNode, interNodeBandwidthBytesPerS: b };
}

/** dst[offset + i] = fl32(dst[offset + i] + src[i]): addChunk without the new array. */
function addInPlace(dst: Float32Array, offset: number, src: Float32Array): void {
  for (let i = 0; i < src.length; i++) dst[offset + i] += src[i];
}

/**
 * Copies per-rank buffers into Float32Arrays, checking there is at least one.
 * @param sameLength also require every buffer to have the first one's length
 * @throws RangeError `buffers must hold one buffer per rank (numRanks >= 1), got 0 buffers`;
 *   `buffers[2] has length 5, expected 7 (every rank's buffer must have the same length)` (sameLength only);
 *   TypeError `buffers[1] must be an array of numbers`
 * @param buffers one array-like of numbers per rank
 * @returns P new Float32Arrays (copies; the inputs are not modified)
 * @example copyBuffers([[1, 2], [3, 4]], true)[1] // Float32Array [3, 4]
 * @see {@link World} (its constructor uses it); the page's section "The collectives, on a simulated cluster" (src/data-parallel.md)
 */
export function copyBuffers(buffers: readonly ArrayLike<number>[], sameLength: boolean): Float32Array[] {
  if (!Array.isArray(buffers) || buffers.length === 0) {
    throw new RangeError(`buffers must hold one buffer per rank (numRanks >= 1), got ${Array.isArray(buffers) ? 0 : String(buffers)} buffers`);
  }
  return buffers.map((b, r) => {
    if (b == null || typeof b !== "object" || typeof b.length !== "number") throw new TypeError(`buffers[${r}] must be an array of numbers`);
    if (sameLength && b.length !== buffers[0].length) {
      throw new RangeError(`buffers[${r}] has length ${b.length}, expected ${buffers[0].length} (every rank's buffer must have the same length)`);
    }
    return b instanceof Float32Array ? b.slice() : Float32Array.from(b);
  });
}
