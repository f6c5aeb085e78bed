import type { tpBytesPerRank } from "../comm-bytes.js";

type F = typeof tpBytesPerRank;
function check(o: Parameters<F>[0]): void {
  for (const k of ["tokens", "hiddenSize", "T"] as const) if (!Number.isInteger(o[k]) || o[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${o[k]}`);
  if (o.sequenceParallel && o.tokens % o.T !== 0) throw new RangeError(`tokens (${o.tokens}) must be divisible by T (${o.T}) with sequence parallelism`);
}
const per = (o: Parameters<F>[0]) => ((o.T - 1) / o.T) * o.tokens * o.hiddenSize * (o.bytesPerElement ?? 2);

export const mutants = {
  "forgets the backward re-gather with sequence parallelism (4 collectives each way)": { impl: ((o) => { check(o); const u = per(o); return o.sequenceParallel ? { forward: 4 * u, backward: 4 * u } : { forward: 4 * u, backward: 4 * u }; }) as F, caughtBy: "with sequence parallelism" },
  "counts an all-reduce as (T−1)/T of the tensor, like an all-gather": { impl: ((o) => { check(o); const u = per(o); return o.sequenceParallel ? { forward: 4 * u, backward: 6 * u } : { forward: 2 * u, backward: 2 * u }; }) as F, caughtBy: ["worked example", "without sequence parallelism, default bytesPerElement"] },
  "defaults to 4 bytes per element": { impl: ((o) => { check(o); const u = per({ ...o, bytesPerElement: o.bytesPerElement ?? 4 }); return o.sequenceParallel ? { forward: 4 * u, backward: 6 * u } : { forward: 4 * u, backward: 4 * u }; }) as F, caughtBy: "without sequence parallelism, default bytesPerElement" },
  "throws a plain Error": { impl: ((o) => { try { check(o); } catch (e) { throw new Error((e as Error).message); } const u = per(o); return o.sequenceParallel ? { forward: 4 * u, backward: 6 * u } : { forward: 4 * u, backward: 4 * u }; }) as F, caughtBy: "bad input: RangeError naming the field" },
};
