import type { Mutant } from "../../harness/index.js";
import type { ringAllReduce, RingMessage } from "../ring-all-reduce.js";

type F = typeof ringAllReduce;

const splits = (n: number, P: number) => {
  const out: [number, number][] = [];
  let s = 0;
  for (let c = 0; c < P; c++) {
    const len = Math.floor(n / P) + (c < n % P ? 1 : 0);
    out.push([s, s + len]);
    s += len;
  }
  return out;
};

/** A correct ring, parameterised to inject mistakes. */
function ring(buffers: number[][], o: { floorChunks?: boolean; skipAllGather?: boolean }) {
  const P = buffers.length, n = buffers[0].length;
  const b = buffers.map((x) => x.slice());
  const bounds = o.floorChunks ? Array.from({ length: P }, (_, c) => [c * Math.floor(n / P), (c + 1) * Math.floor(n / P)] as [number, number]) : splits(n, P);
  const messages: RingMessage[] = [];
  let step = 0;
  for (let s = 0; s < P - 1; s++, step++) {
    const sent = b.map((x, r) => { const [lo, hi] = bounds[(r - s - 1 + 2 * P) % P]; return x.slice(lo, hi); });
    for (let r = 0; r < P; r++) {
      const c = (r - s - 1 + 2 * P) % P, [lo, hi] = bounds[c], to = (r + 1) % P;
      if (hi > lo) messages.push({ step, from: r, to, chunk: c, length: hi - lo });
      for (let i = lo; i < hi; i++) b[to][i] += sent[r][i - lo];
    }
  }
  if (!o.skipAllGather) {
    for (let s = 0; s < P - 1; s++, step++) {
      const sent = b.map((x, r) => { const [lo, hi] = bounds[(r - s + P) % P]; return x.slice(lo, hi); });
      for (let r = 0; r < P; r++) {
        const c = (r - s + P) % P, [lo, hi] = bounds[c], to = (r + 1) % P;
        if (hi > lo) messages.push({ step, from: r, to, chunk: c, length: hi - lo });
        for (let i = lo; i < hi; i++) b[to][i] = sent[r][i - lo];
      }
    }
  }
  return { result: b, messages };
}

export const mutants: Record<string, Mutant<F>> = {
  "no check of the buffers (a ragged input is summed with undefined)": {
    caughtBy: "no buffer, or buffers of different lengths, throw a RangeError",
    impl: (buffers) => (buffers.length === 0 ? { result: [], messages: [] } : ring(buffers, {})),
  },
  "all-to-all: every rank sends its whole buffer to every other rank": { caughtBy: "2(P−1) messages per rank, one per step, to rank r+1", impl: (buffers) => {
    const P = buffers.length, n = buffers[0].length;
    const sum = Array.from({ length: n }, (_, i) => buffers.reduce((s, b) => s + b[i], 0));
    const messages: RingMessage[] = [];
    for (let r = 0; r < P; r++) for (let q = 0; q < P; q++) if (q !== r && n > 0) messages.push({ step: 0, from: r, to: q, chunk: 0, length: n });
    return { result: buffers.map(() => sum.slice()), messages };
  } },
  "chunks of ⌊n/P⌋: the remainder is never reduced": { caughtBy: "n not a multiple of P, n < P, n = 0, P = 1", impl: (buffers) => ring(buffers, { floorChunks: true }) },
  "reduce-scatter only: forgets the all-gather": { caughtBy: ["the stub's example", "worked example (P = 3, n = 6)"], impl: (buffers) => ring(buffers, { skipAllGather: true }) },
  "sums directly, then lists ring-shaped messages that do not compute it (always its own chunk r)": { caughtBy: "2(P−1) messages per rank, one per step, to rank r+1", impl: (buffers) => {
    const P = buffers.length, n = buffers[0].length;
    const sum = Array.from({ length: n }, (_, i) => buffers.reduce((s, b) => s + b[i], 0));
    const len = splits(n, P).map(([lo, hi]) => hi - lo);
    const messages: RingMessage[] = [];
    for (let s = 0; s < 2 * (P - 1); s++) for (let r = 0; r < P; r++) if (len[r] > 0) messages.push({ step: s, from: r, to: (r + 1) % P, chunk: r, length: len[r] });
    return { result: buffers.map(() => sum.slice()), messages };
  } },
};
