import * as fc from "fast-check";
import { callSafely, defineExercise, fail, property } from "../harness/index.js";
import { parseModelConfig, type ModelArch } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";
import { clusterPreset, enumeratePlans as lib, evaluatePlan, planLabel, searchPlans, THREE_D_SPACE, type Cluster, type Plan, type Workload } from "../../lib/plan/index.js";
import type { ArchView, enumeratePlans, PlanView, SpaceView } from "./enumerate-plans.js";

type F = typeof enumeratePlans;
const HINT = "see the section \"The search\" (/plan#the-search): which sizes are well formed, and which combinations DeepSpeed allows";

/** A full architecture for lib's search: only heads, KV heads and layers matter to the enumeration. */
function fullArch(a: ArchView): ModelArch {
  return { family: "llama", modelType: "llama", vocabSize: 32000, hiddenSize: 128 * a.numHeads, intermediateSize: 344 * a.numHeads, numLayers: a.numLayers,
    numHeads: a.numHeads, numKvHeads: a.numKvHeads, headDim: 128, learnedPositions: 0, tiedEmbeddings: false, attentionBias: false, mlpBias: false, norm: "rmsnorm", mlp: "gated" };
}
const fullCluster = (c: { gpusPerNode: number; nodes: number }): Cluster => ({ ...clusterPreset("64x-h100-80gb"), gpusPerNode: c.gpusPerNode, nodes: c.nodes });
const workload = (globalBatch: number): Workload => ({ globalBatch, seqLen: 2048, precision: "bf16", optimizer: "adamw" });
// The exercise is the 3D search: no context or expert parallelism, no FP8 (THREE_D_SPACE), as its contract states.
const reference: F = (arch, cluster, globalBatch, space) => lib(fullArch(arch), fullCluster(cluster), workload(globalBatch), { ...space, ...THREE_D_SPACE });

async function sameSet(f: F, args: Parameters<F>, hint = HINT): Promise<PlanView[]> {
  const got = await callSafely(f, args, { name: "enumeratePlans", hint });
  const call = `enumeratePlans(${JSON.stringify(args[0])}, ${JSON.stringify(args[1])}, ${args[2]}, …)`;
  if (!Array.isArray(got)) fail(`${call} returned ${typeof got}: expected an array of plans`, hint);
  const want = new Set(reference(...args).map((p) => planLabel(p as Plan)));
  const seen = new Set<string>();
  for (const p of got) {
    const k = planLabel(p as Plan);
    if (seen.has(k)) fail(`${call} returns the plan ${k} twice`, "every plan once");
    seen.add(k);
    if (!want.has(k)) fail(`${call} returns ${k}, which is not a well-formed plan of this space`, hint);
  }
  for (const k of want) if (!seen.has(k)) fail(`${call} misses the plan ${k}`, hint);
  return got;
}

const exampleSpace: SpaceView = { zeroStages: [1], offloads: ["none"], recomputes: ["none"], attentions: ["flash"], sequenceParallel: [false], microBatches: [1, 2] };
const fullSpace: SpaceView = { zeroStages: [0, 1, 2, 3], offloads: ["none", "optimizer", "optimizer+params"], recomputes: ["none", "selective", "full"], attentions: ["eager", "flash"], sequenceParallel: [false, true], microBatches: [1, 2, 4] };

const spaceArb: fc.Arbitrary<SpaceView> = fc.record({
  zeroStages: fc.subarray([0, 1, 2, 3] as (0 | 1 | 2 | 3)[], { minLength: 1 }),
  offloads: fc.subarray(["none", "optimizer", "optimizer+params"] as SpaceView["offloads"], { minLength: 1 }),
  recomputes: fc.subarray(["none", "selective", "full"] as SpaceView["recomputes"], { minLength: 1 }),
  attentions: fc.subarray(["eager", "flash"] as SpaceView["attentions"], { minLength: 1 }),
  sequenceParallel: fc.subarray([false, true], { minLength: 1 }),
  microBatches: fc.subarray([1, 2, 3, 4, 8], { minLength: 1 }),
});

/** The course's planner, run on the student's plans: the ranking it would print. */
function rankWith(plans: PlanView[], arch: ModelArch, cluster: Cluster, w: Workload): string[] {
  return plans.map((p) => evaluatePlan(arch, p as Plan, cluster, w)).filter((r) => r.fits)
    .sort((a, b) => b.tokensPerS - a.tokensPerS || a.memory.peak.total - b.memory.peak.total).map((r) => r.label);
}

export default defineExercise<F>({
  id: "12.4",
  title: "build it: the planner's search space",
  chapter: "plan",
  section: "the-search",
  build: true,
  file: "exercises/plan/enumerate-plans.ts",
  exportName: "enumeratePlans",
  signature: "enumeratePlans(arch: { numHeads, numKvHeads, numLayers }, cluster: { gpusPerNode, nodes }, globalBatch: number, space: SpaceView): PlanView[]",
  summary:
    "Every well-formed plan: t inside a node, dividing the query heads, with the KV heads a multiple or a divisor of t (Megatron's rule), p dividing the layers, d = GPUs/(t·p), micro-batches whose b·d divides the global batch, DeepSpeed's offload rules, sequence parallelism only with t > 1, no selective recomputation beside FlashAttention. The grader runs the course's planner on your plans and compares its best plans with the reference's.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await sameSet(f, [{ numHeads: 4, numKvHeads: 4, numLayers: 4 }, { gpusPerNode: 8, nodes: 1 }, 16, exampleSpace]);
    } },
    { name: "every well-formed plan, once, on random models and clusters", points: 3, run: (f) =>
        property(fc.tuple(fc.constantFrom(1, 2, 3, 4, 6, 8, 12, 16), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 12 }), fc.constantFrom(1, 2, 4, 8), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 96 }), spaceArb),
          async ([heads, kvShift, layers, perNode, nodes, batch, space]) => {
            const divisors = Array.from({ length: heads }, (_, i) => i + 1).filter((k) => heads % k === 0);
            const kv = divisors[Math.max(0, divisors.length - 1 - kvShift)]!; // the heads themselves, or a smaller divisor (GQA)
            await sameSet(f, [{ numHeads: heads, numKvHeads: kv, numLayers: layers }, { gpusPerNode: perNode, nodes }, batch, space]);
          }, { numRuns: 120 }) },
    { name: "DeepSpeed's offload rules, sequence parallelism, FlashAttention beside selective", points: 1, run: async (f) => {
        await sameSet(f, [{ numHeads: 8, numKvHeads: 8, numLayers: 2 }, { gpusPerNode: 4, nodes: 1 }, 8, fullSpace], "offload of the optimizer needs ZeRO ≥ 1, of parameters ZeRO-3; sequence parallelism needs t > 1");
        await sameSet(f, [{ numHeads: 8, numKvHeads: 8, numLayers: 2 }, { gpusPerNode: 4, nodes: 1 }, 8, { ...fullSpace, recomputes: ["selective", "full"] }], "without \"none\" in the space, selective beside flash stays");
    } },
    { name: "the course's planner, run on your plans, finds the reference's best plans", points: 3, run: async (f) => {
        const mistral = parseModelConfig(loadPresetText("mistral-7b"));
        const cases: [string, ModelArch, Cluster, number][] = [
          ["Llama-2-7B on 8 × A100", parseModelConfig(loadPresetText("llama-2-7b")), clusterPreset("8x-a100-80gb"), 64],
          ["Mistral-7B (8 KV heads) on 64 × H100", mistral, clusterPreset("64x-h100-80gb"), 256],
          ["a GQA model with 4 KV heads on 8 × A100", { ...mistral, numKvHeads: 4 }, clusterPreset("8x-a100-80gb"), 32],
        ];
        for (const [name, arch, cluster, batch] of cases) {
          const space = { ...fullSpace, microBatches: [1, 2, 4] };
          const w = workload(batch);
          const mine = await callSafely(f, [{ numHeads: arch.numHeads, numKvHeads: arch.numKvHeads, numLayers: arch.numLayers }, { gpusPerNode: cluster.gpusPerNode, nodes: cluster.nodes }, batch, space], { name: "enumeratePlans", hint: HINT });
          if (!Array.isArray(mine)) fail(`${name}: enumeratePlans returned ${typeof mine}`, HINT);
          const got = rankWith(mine, arch, cluster, w).slice(0, 5);
          const want = searchPlans(arch, cluster, w, { ...space, ...THREE_D_SPACE }).ranked.slice(0, 5).map((r) => r.label);
          if (got.join("\n") !== want.join("\n")) {
            fail(`${name}: the planner's top plans differ.\n  with yours:   ${got.join(" | ") || "(none fits)"}\n  reference:    ${want.join(" | ")}`, HINT);
          }
        }
    } },
  ],
});
