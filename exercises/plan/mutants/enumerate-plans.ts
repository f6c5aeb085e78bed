import type { enumeratePlans } from "../enumerate-plans.js";
import reference from "../enumerate-plans.test.js";

type F = typeof enumeratePlans;
const ref: F = (a, c, b, s) => reference.reference(a, c, b, s);

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "lets tensor parallelism span nodes": {
    impl: (a, c, b, s) => {
      // Pretend the whole cluster is one node: t may reach every divisor of the GPU count.
      const plans = ref(a, { gpusPerNode: c.gpusPerNode * c.nodes, nodes: 1 }, b, s);
      return plans;
    },
    caughtBy: "every well-formed plan, once, on random models and clusters",
  },
  "ignores the KV heads (grouped-query attention)": {
    impl: (a, c, b, s) => ref({ ...a, numKvHeads: a.numHeads }, c, b, s),
    caughtBy: "every well-formed plan, once, on random models and clusters",
  },
  "the rule of Megatron Core ≤ 0.15: t must divide the KV heads": {
    impl: (a, c, b, s) => ref(a, c, b, s).filter((p) => a.numKvHeads % p.tensorParallel === 0),
    caughtBy: "every well-formed plan, once, on random models and clusters",
  },
  "accumulation from the GPU count instead of the data-parallel size": {
    impl: (a, c, b, s) => ref(a, c, b, s).map((p) => ({ ...p, gradAccum: (p.gradAccum * p.dataParallel) / (c.gpusPerNode * c.nodes) })).filter((p) => Number.isInteger(p.gradAccum) && p.gradAccum >= 1),
    caughtBy: ["the stub's example", "every well-formed plan, once, on random models and clusters"],
  },
  "offloads the optimizer at ZeRO-0": {
    impl: (a, c, b, s) => {
      const plans = ref(a, c, b, s);
      const extra = s.offloads.includes("optimizer") && s.zeroStages.includes(0) ? plans.filter((p) => p.zeroStage === 0).map((p) => ({ ...p, offload: "optimizer" as const })) : [];
      return [...plans, ...extra];
    },
    caughtBy: ["every well-formed plan, once, on random models and clusters", "DeepSpeed's offload rules, sequence parallelism, FlashAttention beside selective"],
  },
  "keeps selective recomputation beside FlashAttention": {
    impl: (a, c, b, s) => {
      const plans = ref(a, c, b, s);
      if (!(s.recomputes.includes("selective") && s.recomputes.includes("none") && s.attentions.includes("flash"))) return plans;
      return [...plans, ...plans.filter((p) => p.attention === "flash" && p.recompute === "none").map((p) => ({ ...p, recompute: "selective" as const }))];
    },
    caughtBy: ["every well-formed plan, once, on random models and clusters", "DeepSpeed's offload rules, sequence parallelism, FlashAttention beside selective"],
  },
};
