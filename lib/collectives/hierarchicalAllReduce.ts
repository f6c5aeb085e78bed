/**
 * All-reduce on a cluster of nodes: rings inside every node and across nodes,
 * so that each GPU sends only its 1/G share over the network.
 */
import { chunkBounds } from "./chunkBounds.js";

/** One message of a hierarchical all-reduce: at `step`, rank `from` sends buffer[offset, offset + length) to `to`, which adds it or copies it. */
export interface ReduceMessage {
  step: number;
  from: number;
  to: number;
  offset: number;
  length: number;
  op: "add" | "copy";
}

/** What {@link hierarchicalAllReduce} returns. */
export interface HierarchicalAllReduce {
  /** The elementwise sum, on every rank. */
  result: number[][];
  messages: ReduceMessage[];
}

/**
 * Plays a message log: step by step, every message of a step reads its source before any lands,
 * then the receivers add or copy. Returns new buffers.
 * @param buffers the ranks' starting buffers
 * @param messages the log, in any order
 * @returns every rank's buffer after the last step
 * @throws {RangeError} `message 3 reads [4, 9) outside a buffer of 6 numbers` (also a bad rank or step)
 * @example replayMessages([[1], [2]], [{ step: 0, from: 0, to: 1, offset: 0, length: 1, op: "add" }]) // [[1], [3]]
 */
export function replayMessages(buffers: readonly (readonly number[])[], messages: readonly ReduceMessage[]): number[][] {
  const out = buffers.map((b) => [...b]);
  const n = out[0]?.length ?? 0;
  const bySteps = new Map<number, { m: ReduceMessage; i: number }[]>();
  messages.forEach((m, i) => {
    const ok = Number.isInteger(m.step) && m.step >= 0 && [m.from, m.to].every((r) => Number.isInteger(r) && r >= 0 && r < out.length) && m.from !== m.to
      && Number.isInteger(m.offset) && Number.isInteger(m.length) && m.offset >= 0 && m.length >= 0 && m.offset + m.length <= n && (m.op === "add" || m.op === "copy");
    if (!ok) throw new RangeError(`message ${i} (step ${m.step}, ${m.from} → ${m.to}, [${m.offset}, ${m.offset + m.length}), ${m.op}) is not a message of ${out.length} ranks' buffers of ${n} numbers`);
    if (!bySteps.has(m.step)) bySteps.set(m.step, []);
    bySteps.get(m.step)!.push({ m, i });
  });
  for (const step of [...bySteps.keys()].sort((a, b) => a - b)) {
    const sent = bySteps.get(step)!.map(({ m }) => ({ m, data: out[m.from]!.slice(m.offset, m.offset + m.length) }));
    for (const { m, data } of sent) {
      const dst = out[m.to]!;
      for (let k = 0; k < m.length; k++) dst[m.offset + k] = m.op === "add" ? dst[m.offset + k]! + data[k]! : data[k]!;
    }
  }
  return out;
}

/**
 * All-reduce of P = N·G buffers, rank r on node ⌊r/G⌋ with local index r mod G: (1) a ring
 * reduce-scatter inside every node leaves local rank g with its node's sum of chunk g of the G chunks
 * (numpy.array_split); (2) a ring all-reduce of chunk g across the N nodes, among the ranks with local
 * index g; (3) a ring all-gather inside every node. Each rank sends 2(N−1)/N of its chunk over the
 * network (the flat ring's busiest ranks send 2(P−1)/P of the whole buffer) and 2(G−1)/G of the buffer
 * inside its node, in 2(G−1) + 2(N−1) steps. Empty chunks send nothing (no zero-length messages).
 * @param buffers P arrays of n numbers
 * @param gpusPerNode G, which divides P
 * @returns the sum on every rank (new arrays) and the messages, in step order
 * @throws {RangeError} `buffers must hold one buffer per rank (numRanks >= 1), got 0 buffers`;
 *   `buffers[1] has length 3, expected 4 (every rank's buffer must have the same length)`;
 *   `gpusPerNode must be an integer that divides the 6 ranks, got 4`
 * @example hierarchicalAllReduce([[1, 2], [3, 4], [5, 6], [7, 8]], 2).result // [[16, 20], [16, 20], [16, 20], [16, 20]]
 * @see NCCL's tree and ring algorithms across nodes (NCCL 2.4 release notes); Jia et al. 2018, *Highly Scalable Deep
 *   Learning Training System with Mixed-Precision* (hierarchical all-reduce); Patarasuk & Yuan 2009 (the ring)
 */
export function hierarchicalAllReduce(buffers: readonly (readonly number[])[], gpusPerNode: number): HierarchicalAllReduce {
  const P = buffers.length;
  if (P < 1) throw new RangeError("buffers must hold one buffer per rank (numRanks >= 1), got 0 buffers");
  const n = buffers[0]!.length;
  buffers.forEach((b, r) => { if (b.length !== n) throw new RangeError(`buffers[${r}] has length ${b.length}, expected ${n} (every rank's buffer must have the same length)`); });
  const G = gpusPerNode;
  if (!Number.isInteger(G) || G < 1 || P % G !== 0) throw new RangeError(`gpusPerNode must be an integer that divides the ${P} ranks, got ${G}`);
  const N = P / G;
  const messages: ReduceMessage[] = [];
  const send = (step: number, from: number, to: number, c: { start: number; end: number }, op: "add" | "copy") => {
    if (c.end > c.start) messages.push({ step, from, to, offset: c.start, length: c.end - c.start, op });
  };
  const chunks = chunkBounds(n, G); // chunk g belongs to local rank g after the reduce-scatter
  const rank = (node: number, g: number) => node * G + g;
  // (1) reduce-scatter inside each node: at step s local rank g sends chunk (g − s − 1) mod G to g + 1
  for (let s = 0; s < G - 1; s++) for (let node = 0; node < N; node++) for (let g = 0; g < G; g++) {
    send(s, rank(node, g), rank(node, (g + 1) % G), chunks[(((g - s - 1) % G) + G) % G]!, "add");
  }
  // (2) across nodes, for each local index g: a ring all-reduce of chunk g split into N parts
  const t0 = G - 1;
  for (let g = 0; g < G; g++) {
    const parts = chunkBounds(chunks[g]!.end - chunks[g]!.start, N).map((p) => ({ start: chunks[g]!.start + p.start, end: chunks[g]!.start + p.end }));
    for (let s = 0; s < 2 * (N - 1); s++) for (let node = 0; node < N; node++) {
      const idx = s < N - 1 ? (((node - s - 1) % N) + N) % N : (((node - (s - (N - 1))) % N) + N) % N;
      send(t0 + s, rank(node, g), rank((node + 1) % N, g), parts[idx]!, s < N - 1 ? "add" : "copy");
    }
  }
  // (3) all-gather inside each node: at step s local rank g sends chunk (g − s) mod G to g + 1
  const t1 = t0 + 2 * (N - 1);
  for (let s = 0; s < G - 1; s++) for (let node = 0; node < N; node++) for (let g = 0; g < G; g++) {
    send(t1 + s, rank(node, g), rank(node, (g + 1) % G), chunks[(((g - s) % G) + G) % G]!, "copy");
  }
  return { result: replayMessages(buffers, messages), messages };
}
