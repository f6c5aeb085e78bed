import { World, type CommEvent, type CostModel } from "../collectives/index.js";

/**
 * One message of a gradient all-reduce: `length` float32 values of the
 * sender's gradient buffer at `offset` go to the same offset of the receiver's
 * buffer, where they are added (`"reduce"`) or copied (`"copy"`).
 * @see {@link GradCluster}; the World of lib/collectives (the same message semantics)
 */
export interface GradMessage {
  sender: number;
  receiver: number;
  offset: number;
  length: number;
  op: "reduce" | "copy";
}

/**
 * The simulated cluster a DDP reducer talks to during backward: P ranks, each
 * with a flat float32 gradient buffer, and one communication stream. A step
 * starts when the stream is free and not before the current backward time,
 * and lasts α + the longest time any link needs for its bytes (full duplex).
 * @see {@link createGradCluster}; Hockney 1994 (the α-β model); Li et al. 2020, VLDB, §3.2.3
 */
export interface GradCluster {
  /** P. */
  readonly numRanks: number;
  /** grads[r]: rank r's gradient buffer, parameters in forward order, concatenated (float32). Local arithmetic on it is free. */
  readonly grads: Float32Array[];
  /** Sends the messages of one step (all travel at once); returns the step's end in ms from the start of backward. */
  step(messages: readonly GradMessage[]): number;
}

/**
 * The cluster with its controls, for the training loop that drives it.
 * @see {@link createGradCluster}
 */
export interface GradClusterControl {
  cluster: GradCluster;
  /** Sets the backward clock (ms from the start of backward): no step starts before it. */
  setNowMs(ms: number): void;
  /** Every message sent so far (times in seconds, as lib/collectives logs them). */
  events: CommEvent[];
  /** End of the last step in ms (0 before any). */
  commEndMs(): number;
}

/**
 * Builds a {@link GradCluster} over a World of lib/collectives. The buffers
 * start as NaN: a gradient exists only once the training loop writes it.
 * Messages are checked before they are sent.
 *
 * @param numRanks P (integer ≥ 1)
 * @param numElements length of every rank's gradient buffer
 * @param cost the α-β cost model of every link
 * @returns the cluster and its controls
 * @throws RangeError from `step`: `message 0: receiver must be an integer rank in [0, 4), got 4`;
 *   `message 1: offset + length must lie in [0, 10], got offset 8, length 5`; `message 2: op must be "reduce" or "copy", got "add"`
 * @example
 * const c = createGradCluster(2, 1, { alphaS: 0, bandwidthBytesPerS: 4000 });
 * c.cluster.grads[0][0] = 1; c.cluster.grads[1][0] = 2;
 * c.cluster.step([{ sender: 0, receiver: 1, offset: 0, length: 1, op: "reduce" }]); // 1 (ms: 4 bytes at 4000 B/s)
 * c.cluster.grads[1][0] // 3
 * @see Hockney 1994 (the α-β model); lib/collectives/World.ts
 */
export function createGradCluster(numRanks: number, numElements: number, cost: CostModel): GradClusterControl {
  const world = new World(Array.from({ length: numRanks }, () => new Float32Array(numElements).fill(Number.NaN)), cost);
  let nowS = 0;
  const P = world.numRanks, n = world.numElements;
  const cluster: GradCluster = {
    numRanks: P,
    grads: world.buffers,
    step(messages) {
      if (!Array.isArray(messages)) throw new TypeError("step(messages): messages must be an array of {sender, receiver, offset, length, op}");
      messages.forEach((m, i) => {
        for (const k of ["sender", "receiver"] as const) {
          if (!Number.isInteger(m?.[k]) || m[k] < 0 || m[k] >= P) throw new RangeError(`message ${i}: ${k} must be an integer rank in [0, ${P}), got ${m?.[k]}`);
        }
        if (!Number.isInteger(m.offset) || !Number.isInteger(m.length) || m.offset < 0 || m.length < 0 || m.offset + m.length > n) {
          throw new RangeError(`message ${i}: offset + length must lie in [0, ${n}], got offset ${m.offset}, length ${m.length}`);
        }
        if (m.op !== "reduce" && m.op !== "copy") throw new RangeError(`message ${i}: op must be "reduce" or "copy", got ${JSON.stringify(m.op)}`);
      });
      for (let r = 0; r < P; r++) world.clock[r] = Math.max(world.clock[r], nowS);
      world.step("send", messages.map((m) => ({ sender: m.sender, receiver: m.receiver, chunk: -1, offset: m.offset, length: m.length, op: m.op })));
      return world.timeS * 1e3;
    },
  };
  return {
    cluster,
    setNowMs: (ms) => { nowS = ms / 1e3; },
    events: world.events,
    commEndMs: () => (world.events.length ? Math.max(...world.events.map((e) => e.tEnd)) * 1e3 : 0),
  };
}
