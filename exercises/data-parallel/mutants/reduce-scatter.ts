import type { reduceScatter } from "../reduce-scatter.js";

type F = typeof reduceScatter;

const sumOf = (buffers: number[][]) => Array.from({ length: buffers[0].length }, (_, i) => buffers.reduce((s, b) => s + b[i], 0));
const split = (n: number, P: number) => Array.from({ length: P }, (_, c) => { const len = Math.floor(n / P) + (c < n % P ? 1 : 0); const start = c * Math.floor(n / P) + Math.min(c, n % P); return [start, start + len]; });

export const mutants: Record<string, F> = {
  "the remainder goes to the last chunk instead of the first ones": (buffers) => {
    const P = buffers.length, n = buffers[0].length, s = sumOf(buffers), q = Math.floor(n / P);
    return Array.from({ length: P }, (_, r) => s.slice(r * q, r === P - 1 ? n : (r + 1) * q));
  },
  "rank r gets chunk r + 1 (ring rotation off by one)": (buffers) => {
    const P = buffers.length, s = sumOf(buffers), b = split(buffers[0].length, P);
    return b.map((_, r) => { const [lo, hi] = b[(r + 1) % P]; return s.slice(lo, hi); });
  },
  "forgets the rank's own buffer": (buffers) => {
    const P = buffers.length, b = split(buffers[0].length, P);
    return b.map(([lo, hi], r) => Array.from({ length: hi - lo }, (_, i) => buffers.reduce((acc, x, q) => acc + (q === r ? 0 : x[lo + i]), 0)));
  },
};
