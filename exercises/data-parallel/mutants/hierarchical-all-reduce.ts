import type { Mutant } from "../../harness/index.js";
import type { hierarchicalAllReduce, ReduceMessage } from "../hierarchical-all-reduce.js";

type F = typeof hierarchicalAllReduce;

/** array_split bounds of n over k parts. */
const split = (start: number, n: number, k: number) => {
  const base = Math.floor(n / k), extra = n % k, out: { s: number; e: number }[] = [];
  let s = start;
  for (let c = 0; c < k; c++) { const len = base + (c < extra ? 1 : 0); out.push({ s, e: s + len }); s += len; }
  return out;
};
const mod = (a: number, m: number) => ((a % m) + m) % m;

/** Ring all-reduce of the range [start, start + len) among `ranks`, from `step`; returns the next free step. */
function ring(msgs: ReduceMessage[], ranks: number[], start: number, len: number, step: number, o: { gatherOp?: "add" | "copy"; skipGather?: boolean; reduceOp?: "add" | "copy" }): number {
  const k = ranks.length, parts = split(start, len, k);
  for (let s = 0; s < k - 1; s++) ranks.forEach((r, i) => { const p = parts[mod(i - s - 1, k)]!; if (p.e > p.s) msgs.push({ step: step + s, from: r, to: ranks[(i + 1) % k]!, offset: p.s, length: p.e - p.s, op: o.reduceOp ?? "add" }); });
  if (!o.skipGather) for (let s = 0; s < k - 1; s++) ranks.forEach((r, i) => { const p = parts[mod(i - s, k)]!; if (p.e > p.s) msgs.push({ step: step + k - 1 + s, from: r, to: ranks[(i + 1) % k]!, offset: p.s, length: p.e - p.s, op: o.gatherOp ?? "copy" }); });
  return step + 2 * (k - 1);
}

function check(buffers: number[][], G: number): void {
  if (buffers.length < 1) throw new RangeError("buffers must hold one buffer per rank (numRanks >= 1), got 0 buffers");
  const n = buffers[0]!.length;
  buffers.forEach((b, r) => { if (b.length !== n) throw new RangeError(`buffers[${r}] has length ${b.length}, expected ${n} (every rank's buffer must have the same length)`); });
  if (!Number.isInteger(G) || G < 1 || buffers.length % G !== 0) throw new RangeError(`gpusPerNode must be an integer that divides the ${buffers.length} ranks, got ${G}`);
}
const sum = (buffers: number[][]) => buffers.map(() => buffers[0]!.map((_, i) => buffers.reduce((s, b) => s + b[i]!, 0)));

type Bug = "flat" | "leaders" | "no-all-gather" | "copy-across" | "same-steps" | "no-check";
const make = (bug: Bug): F => (buffers, G) => {
  if (bug !== "no-check") check(buffers, G);
  const P = buffers.length, N = P / G, n = buffers[0]?.length ?? 0, msgs: ReduceMessage[] = [];
  const node = (k: number) => Array.from({ length: G }, (_, g) => k * G + g);
  if (bug === "flat") {
    ring(msgs, Array.from({ length: P }, (_, r) => r), 0, n, 0, {});
  } else if (bug === "leaders") {
    // reduce the whole buffer onto each node's first GPU, a ring across the first GPUs, then back inside the node
    let step = 0;
    for (let s = 0; s < G - 1; s++) for (let k = 0; k < N; k++) msgs.push({ step: step + s, from: k * G + G - 1 - s, to: k * G + G - 2 - s, offset: 0, length: n, op: "add" });
    step += G - 1;
    step = ring(msgs, Array.from({ length: N }, (_, k) => k * G), 0, n, step, {});
    for (let s = 0; s < G - 1; s++) for (let k = 0; k < N; k++) msgs.push({ step: step + s, from: k * G + s, to: k * G + s + 1, offset: 0, length: n, op: "copy" });
  } else {
    const chunks = split(0, n, G);
    // the inside reduce-scatter leaves local rank g with chunk g: at step s, g sends chunk (g − s − 1) mod G
    for (let s = 0; s < G - 1; s++) for (let k = 0; k < N; k++) for (let g = 0; g < G; g++) {
      const c = chunks[mod(g - s - 1, G)]!;
      if (c.e > c.s) msgs.push({ step: s, from: k * G + g, to: k * G + (g + 1) % G, offset: c.s, length: c.e - c.s, op: "add" });
    }
    const t0 = bug === "same-steps" ? 0 : G - 1;
    for (let g = 0; g < G; g++) ring(msgs, Array.from({ length: N }, (_, k) => k * G + g), chunks[g]!.s, chunks[g]!.e - chunks[g]!.s, t0, bug === "copy-across" ? { reduceOp: "copy" } : {});
    if (bug !== "no-all-gather") {
      const t1 = t0 + 2 * (N - 1);
      for (let s = 0; s < G - 1; s++) for (let k = 0; k < N; k++) for (let g = 0; g < G; g++) {
        const c = chunks[mod(g - s, G)]!;
        if (c.e > c.s) msgs.push({ step: t1 + s, from: k * G + g, to: k * G + (g + 1) % G, offset: c.s, length: c.e - c.s, op: "copy" });
      }
    }
    void node;
  }
  return { result: sum(buffers.length ? buffers : [[]]), messages: msgs };
};

export const mutants: Record<string, Mutant<F>> = {
  "one flat ring over all P ranks": { impl: make("flat"), caughtBy: "each GPU's share over the network: 2(N−1)/N of n/G" },
  "each node's first GPU reduces the whole buffer and rings across nodes": { impl: make("leaders"), caughtBy: ["each GPU's share over the network: 2(N−1)/N of n/G", "your messages replay to the sums"] },
  "no all-gather inside the nodes (the sums computed, not sent)": { impl: make("no-all-gather"), caughtBy: ["the stub's example", "your messages replay to the sums"] },
  "the ring across nodes copies where it should add": { impl: make("copy-across"), caughtBy: "your messages replay to the sums" },
  "the ring across nodes starts at step 0, during the inside reduce-scatter": { impl: make("same-steps"), caughtBy: "your messages replay to the sums" },
  "no check of the input": { impl: make("no-check"), caughtBy: "bad input: RangeError naming the problem" },
};
