import type { allReduceTimeS } from "../all-reduce-time.js";

type F = typeof allReduceTimeS;

function check(n: number, P: number, cost: { alphaS: number; bandwidthBytesPerS: number; serverBandwidthBytesPerS?: number }) {
  if (!Number.isInteger(P) || P < 1) throw new RangeError(`numRanks must be an integer >= 1, got ${P}`);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`numElements must be an integer >= 0, got ${n}`);
  if (!(cost.alphaS >= 0) || !(cost.bandwidthBytesPerS > 0) || !((cost.serverBandwidthBytesPerS ?? 1) > 0)) throw new RangeError("bad cost");
}

export const mutants: Record<string, F> = {
  "ring chunks of n/P values (ignores the rounding up)": (alg, n, P, cost) => {
    check(n, P, cost);
    if (n === 0 || P === 1) return 0;
    const B = cost.bandwidthBytesPerS, Bs = cost.serverBandwidthBytesPerS ?? B;
    return alg === "ring" ? 2 * (P - 1) * (cost.alphaS + (4 * n) / P / B) : 2 * (cost.alphaS + Math.max(((P - 1) * 4 * n) / Bs, (4 * n) / B));
  },
  "parameter server without the (P−1) factor on the server link": (alg, n, P, cost) => {
    check(n, P, cost);
    if (n === 0 || P === 1) return 0;
    const B = cost.bandwidthBytesPerS, Bs = cost.serverBandwidthBytesPerS ?? B;
    return alg === "ring" ? 2 * (P - 1) * (cost.alphaS + (4 * Math.ceil(n / P)) / B) : 2 * (cost.alphaS + Math.max((4 * n) / Bs, (4 * n) / B));
  },
  "no input checks": (alg, n, P, cost) => {
    if (n <= 0 || P <= 1) return 0;
    const B = cost.bandwidthBytesPerS, Bs = cost.serverBandwidthBytesPerS ?? B;
    return alg === "ring" ? 2 * (P - 1) * (cost.alphaS + (4 * Math.ceil(n / P)) / B) : 2 * (cost.alphaS + Math.max(((P - 1) * 4 * n) / Bs, (4 * n) / B));
  },
};
