import type { Mutant } from "../../harness/index.js";
import type { allReduceTimeS, LinkCost } from "../all-reduce-time.js";

type F = typeof allReduceTimeS;

function check(alg: string, n: number, P: number, cost: LinkCost) {
  if (!Number.isInteger(P) || P < 1) throw new RangeError(`numRanks must be an integer >= 1, got ${P}`);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`numElements must be an integer >= 0, got ${n}`);
  if (typeof cost.alphaS !== "number" || !(cost.alphaS >= 0) || !Number.isFinite(cost.alphaS)) throw new RangeError(`alphaS must be a finite number >= 0, got ${cost.alphaS}`);
  for (const k of ["bandwidthBytesPerS", "serverBandwidthBytesPerS"] as const) {
    const v = cost[k] ?? cost.bandwidthBytesPerS;
    if (typeof v !== "number" || !(v > 0) || !Number.isFinite(v)) throw new RangeError(`${k} must be a finite number > 0, got ${v}`);
  }
  if (alg !== "ring" && alg !== "parameter-server") throw new RangeError(`algorithm must be "ring" or "parameter-server", got ${alg}`);
}
/** The right formulas, with the mistakes below switched in. */
function time(alg: string, n: number, P: number, cost: LinkCost, o: { evenChunks?: boolean; serverOnce?: boolean; oneDirectionDoubled?: boolean } = {}) {
  if (n === 0 || P === 1) return 0;
  const B = cost.bandwidthBytesPerS, Bs = cost.serverBandwidthBytesPerS ?? B;
  if (alg === "ring") return 2 * (P - 1) * (cost.alphaS + (4 * (o.evenChunks ? n / P : Math.ceil(n / P))) / B);
  const server = ((o.serverOnce ? 1 : P - 1) * 4 * n) / Bs;
  return 2 * (cost.alphaS + Math.max(server, (4 * n) / B));
}

export const mutants: Record<string, Mutant<F>> = {
  "ring chunks of n/P values (ignores the rounding up)": {
    impl: (alg, n, P, cost) => { check(alg, n, P, cost); return time(alg, n, P, cost, { evenChunks: true }); },
    caughtBy: "n not a multiple of P, n < P, n = 0, P = 1",
  },
  "parameter server without the (P−1) factor on the server link": {
    impl: (alg, n, P, cost) => { check(alg, n, P, cost); return time(alg, n, P, cost, { serverOnce: true }); },
    caughtBy: "worked example: the parameter server",
  },
  "no input checks": {
    impl: (alg, n, P, cost) => (n <= 0 || P <= 1 ? 0 : time(alg, n, P, cost)),
    caughtBy: ["bad counts throw a RangeError naming the field", "bad links throw a RangeError naming the field"],
  },
  "throws a plain Error instead of a RangeError": {
    impl: (alg, n, P, cost) => {
      try { check(alg, n, P, cost); } catch (e) { throw new Error((e as Error).message); }
      return time(alg, n, P, cost);
    },
    caughtBy: ["bad counts throw a RangeError naming the field", "bad links throw a RangeError naming the field"],
  },
  "accepts fractional or string rank counts (coerces with Number)": {
    impl: (alg, n, P, cost) => { const p = Math.round(Number(P)); check(alg, n, p, cost); return time(alg, n, p, cost); },
    caughtBy: "bad counts throw a RangeError naming the field",
  },
  "checks the counts but not the link (Infinity or a string gets through)": {
    impl: (alg, n, P, cost) => {
      if (!Number.isInteger(P) || P < 1) throw new RangeError(`numRanks must be an integer >= 1, got ${P}`);
      if (!Number.isInteger(n) || n < 0) throw new RangeError(`numElements must be an integer >= 0, got ${n}`);
      if (alg !== "ring" && alg !== "parameter-server") throw new RangeError(`algorithm must be "ring" or "parameter-server", got ${alg}`);
      return time(alg, n, P, cost);
    },
    caughtBy: "bad links throw a RangeError naming the field",
  },
  "anything but \"ring\" is treated as the parameter server": {
    impl: (alg, n, P, cost) => { check("ring", n, P, cost); return time(alg, n, P, cost); },
    caughtBy: "bad counts throw a RangeError naming the field",
  },
};
