import type { Mutant } from "../../harness/index.js";
import type { reduceScatter } from "../reduce-scatter.js";

type F = typeof reduceScatter;

const sumOf = (buffers: number[][]) => Array.from({ length: buffers[0].length }, (_, i) => buffers.reduce((s, b) => s + b[i], 0));
const split = (n: number, P: number) => Array.from({ length: P }, (_, c) => { const len = Math.floor(n / P) + (c < n % P ? 1 : 0); const start = c * Math.floor(n / P) + Math.min(c, n % P); return [start, start + len]; });

function check(buffers: number[][]) {
  if (buffers.length === 0) throw new RangeError("buffers must hold one buffer per rank (numRanks >= 1), got 0 buffers");
  buffers.forEach((b, r) => { if (b.length !== buffers[0].length) throw new RangeError(`buffers[${r}] has length ${b.length}, expected ${buffers[0].length} (every rank's buffer must have the same length)`); });
}

export const mutants: Record<string, Mutant<F>> = {
  "the remainder goes to the last chunk instead of the first ones": { caughtBy: ["the stub's example", "n not a multiple of P"], impl: (buffers) => {
    check(buffers);
    const P = buffers.length, n = buffers[0].length, s = sumOf(buffers), q = Math.floor(n / P);
    return Array.from({ length: P }, (_, r) => s.slice(r * q, r === P - 1 ? n : (r + 1) * q));
  } },
  "rank r gets chunk r + 1 (ring rotation off by one)": { caughtBy: "worked example (P = 2, n = 4)", impl: (buffers) => {
    check(buffers);
    const P = buffers.length, s = sumOf(buffers), b = split(buffers[0].length, P);
    return b.map((_, r) => { const [lo, hi] = b[(r + 1) % P]; return s.slice(lo, hi); });
  } },
  "forgets the rank's own buffer": { caughtBy: "worked example (P = 2, n = 4)", impl: (buffers) => {
    check(buffers);
    const P = buffers.length, b = split(buffers[0].length, P);
    return b.map(([lo, hi], r) => Array.from({ length: hi - lo }, (_, i) => buffers.reduce((acc, x, q) => acc + (q === r ? 0 : x[lo + i]), 0)));
  } },
  "no check of the buffers (ragged input summed with NaN or undefined)": {
    caughtBy: "no buffer, or buffers of different lengths, throw a RangeError",
    impl: (buffers) => (buffers.length === 0 ? [] : split(buffers[0].length, buffers.length).map(([lo, hi]) => sumOf(buffers).slice(lo, hi))),
  },
};
