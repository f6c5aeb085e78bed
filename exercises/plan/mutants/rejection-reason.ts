import { formatGiB } from "../../../lib/memory/index.js";
import { rejectionReason as lib } from "../../../lib/plan/index.js";
import type { rejectionReason } from "../rejection-reason.js";

type F = typeof rejectionReason;
const ref: F = (p, m, c) => lib(p, m as never, c as never, 0);

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "judges the steady state, not the peak": {
    impl: (p, m, c) => ref(p, { ...m, peak: { total: m.perGpu.total, lines: [] } }, c),
    caughtBy: ["the peak is judged, and a transient line can be the largest part", "rules in order, on random plans and estimates"],
  },
  "names the largest steady part only, never a transient line": {
    impl: (p, m, c) => {
      const r = ref(p, m, c);
      if (!r?.startsWith("needs")) return r;
      const parts: [string, number][] = [["parameters", m.perGpu.parameters], ["gradients", m.perGpu.gradients], ["optimizer states", m.perGpu.optimizerStates],
        ["gradient buckets", m.perGpu.gradientBuckets], ["stored activations", m.perGpu.activations]];
      let best = parts[0];
      for (const x of parts) if (x[1] > best[1]) best = x;
      return r.replace(/largest part .*$/, `largest part ${best[0]} (${formatGiB(best[1])} GiB)`);
    },
    caughtBy: ["the peak is judged, and a transient line can be the largest part", "rules in order, on random plans and estimates"],
  },
  "forgets DeepSpeed's pipeline rule": {
    impl: (p, m, c) => ref({ ...p, pipelineParallel: 1 }, m, c),
    caughtBy: "rules in order, on random plans and estimates",
  },
  "checks host memory before GPU memory": {
    impl: (p, m, c) => {
      const host = ref(p, { ...m, peak: { total: 0, lines: [] } }, c);
      return host?.startsWith("offload") ? host : ref(p, m, c);
    },
    caughtBy: "rules in order, on random plans and estimates",
  },
  "reports decimal GB as GiB": {
    impl: (p, m, c) => ref(p, m, c)?.replace(/([\d.]+) GiB/g, (_, x) => `${((Number(x) * 2 ** 30) / 1e9).toFixed(2)} GiB`),
    caughtBy: ["the stub's example", "rules in order, on random plans and estimates"],
  },
};
