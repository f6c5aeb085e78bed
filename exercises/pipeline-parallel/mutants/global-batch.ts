import type { resolveBatch } from "../global-batch.js";
import { resolveBatch as ref } from "../../../lib/pipeline-parallel/index.js";

type F = typeof resolveBatch;

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "rounds a missing field down instead of rejecting it": {
    impl: (c) => {
      const d = c.dataParallelSize;
      if (c.gradientAccumulationSteps === undefined && c.trainBatchSize !== undefined && c.microBatchSize !== undefined) {
        return { trainBatchSize: c.trainBatchSize, microBatchSize: c.microBatchSize, gradientAccumulationSteps: Math.max(1, Math.floor(c.trainBatchSize / (c.microBatchSize * d))), dataParallelSize: d };
      }
      return ref(c);
    },
    caughtBy: "names the mismatch",
  },
  "leaves the data-parallel size out of the product": {
    impl: (c) => ({ ...ref({ ...c, dataParallelSize: 1 }), dataParallelSize: c.dataParallelSize }),
    caughtBy: ["the stub's example", "derives any missing field"],
  },
  "trusts the three given fields without checking them": {
    impl: (c) => (c.trainBatchSize !== undefined && c.microBatchSize !== undefined && c.gradientAccumulationSteps !== undefined
      ? { trainBatchSize: c.trainBatchSize, microBatchSize: c.microBatchSize, gradientAccumulationSteps: c.gradientAccumulationSteps, dataParallelSize: c.dataParallelSize }
      : ref(c)),
    caughtBy: "names the mismatch",
  },
  "does not check that fields are positive integers": {
    impl: (c) => {
      try { return ref(c); } catch (e) {
        if (/must be an integer/.test((e as Error).message)) return { trainBatchSize: 0, microBatchSize: 0, gradientAccumulationSteps: 0, dataParallelSize: c.dataParallelSize };
        throw e;
      }
    },
    caughtBy: "rejects bad fields by name",
  },
  "throws a plain Error instead of a RangeError": {
    impl: (c) => { try { return ref(c); } catch (e) { throw new Error((e as Error).message); } },
    caughtBy: ["names the mismatch", "rejects bad fields by name"],
  },
};
