/**
 * The ring of context parallelism on the course's simulated World: every call
 * to sendRecv is one step in which each rank sends a buffer to the next rank
 * and receives one from the previous rank (a `batch_isend_irecv` in PyTorch).
 */
import { World, type CommEvent } from "../collectives/World.js";
import { DEFAULT_COST_MODEL, checkNumRanks, type CostModel } from "../collectives/costModel.js";

/**
 * A ring of cpSize ranks as ring attention sees it.
 * @see the sources of {@link createRing}
 */
export interface Ring {
  /** C, the number of ranks. */
  readonly cpSize: number;
  /**
   * One ring step: rank r's buffer goes to rank (r + 1) mod C. Returns, for every rank r, the
   * buffer it received from rank (r − 1) mod C (new arrays). Every buffer must have the same length.
   */
  sendRecv(buffers: readonly Float32Array[]): Float32Array[];
}

/**
 * A {@link Ring} that logs every message with its time, as the World does.
 * @see the sources of {@link createRing}
 */
export interface SimulatedRing extends Ring {
  /** Every message: `{step, t, tEnd, sender, receiver, rank, offset, length, bytes, kind: "send"}`; `step` counts sendRecv calls. */
  readonly events: CommEvent[];
  /** Bytes each rank sent so far. */
  readonly bytesSent: number[];
  /** sendRecv calls that carried a message. */
  readonly numSteps: number;
  /** Time of all the steps so far, in seconds (no compute: communication only). */
  readonly timeS: number;
}

/**
 * Creates a simulated ring of cpSize ranks.
 *
 * Each sendRecv is one step of the World (lib/collectives): C messages r → r+1 of L elements,
 * simultaneous on full-duplex links, lasting α + L·bytesPerElement/B. With C = 1 nothing is
 * sent (a rank does not send to itself) and the buffers come back as copies.
 * @param cpSize C, integer >= 1
 * @param options cost (α-β, default 5 µs and 25 GB/s), bytesPerElement (default 4)
 * @returns the ring, with its log
 * @throws RangeError `cpSize must be an integer >= 1, got 0`; from sendRecv: `sendRecv needs one buffer per rank (3), got 2`,
 *   `buffers[2] has length 5, expected 7 (every rank's buffer must have the same length)`
 * @example const ring = createRing(2); ring.sendRecv([Float32Array.of(1), Float32Array.of(2)]) // [Float32Array [2], Float32Array [1]]; ring.bytesSent // [4, 4]
 * @see zhuzilin/ring-flash-attention `ring_flash_attn/utils.py` `RingComm.send_recv` (send to rank+1, receive from rank−1), commit 8996282;
 *   PyTorch `torch.distributed.batch_isend_irecv`; lib/collectives/World.ts (the α-β timing)
 */
export function createRing(cpSize: number, options: { cost?: CostModel; bytesPerElement?: number } = {}): SimulatedRing {
  const C = checkNumRanks(cpSize, "cpSize");
  const cost = options.cost ?? DEFAULT_COST_MODEL;
  const bytesPerElement = options.bytesPerElement ?? 4;
  const events: CommEvent[] = [];
  const bytesSent = new Array<number>(C).fill(0);
  let clock = 0, steps = 0;
  return {
    cpSize: C,
    events, bytesSent,
    get numSteps() { return steps; },
    get timeS() { return clock; },
    sendRecv(buffers) {
      if (!Array.isArray(buffers) || buffers.length !== C) throw new RangeError(`sendRecv needs one buffer per rank (${C}), got ${Array.isArray(buffers) ? buffers.length : String(buffers)}`);
      const world = new World(buffers, cost, { bytesPerElement }); // copies and checks equal lengths
      if (C === 1 || world.numElements === 0) return world.buffers;
      world.step("send", Array.from({ length: C }, (_, r) => ({ sender: r, receiver: (r + 1) % C, chunk: -1, offset: 0, length: world.numElements, op: "copy" as const })));
      for (const e of world.events) events.push({ ...e, step: steps, t: e.t + clock, tEnd: e.tEnd + clock });
      world.bytesSent.forEach((b, r) => (bytesSent[r] += b));
      clock += world.timeS;
      steps++;
      return world.buffers;
    },
  };
}
