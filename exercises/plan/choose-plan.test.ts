// Grader of the chapter's "build it" exercise: a planner that may time only a few plans. The student's
// planner asks a judge built on the course's planner (memory free, `budget` timings); its plan must fit,
// be well formed, and with 16 timings reach 95 % of the planner's best tokens/s (searchPlans, every plan timed).
import { callSafely, defineExercise, fail } from "../harness/index.js";
import { parseModelConfig, type ModelArch } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";
import { choosePlan as lib, clusterPreset, enumeratePlans, evaluatePlan, planJudge, planLabel, searchPlans, THREE_D_SPACE, type Cluster, type Plan, type Workload } from "../../lib/plan/index.js";
import type { choosePlan } from "./choose-plan.js";

type F = typeof choosePlan;
const reference: F = (arch, cluster, workload, judge) => lib(arch, cluster, workload, judge);
const HINT = "the chapter's sections \"How a step is timed\", \"Will it fit?\" and \"The search\"";
const BAND = 0.95, BUDGET = 16;

interface Case { name: string; model: string; cluster: Cluster; workload: Workload }
const wl = (globalBatch: number, seqLen: number): Workload => ({ globalBatch, seqLen, precision: "bf16", optimizer: "adamw" });
const GiB = 2 ** 30;
const c = (name: string, model: string, cluster: Cluster, globalBatch: number, seqLen: number): Case => ({ name, model, cluster, workload: wl(globalBatch, seqLen) });
const archOf = (m: string): ModelArch => parseModelConfig(loadPresetText(m));
const bests = new Map<string, { label: string; tokensPerS: number } | null>();
function best(k: Case) {
  if (!bests.has(k.name)) { const r = searchPlans(archOf(k.model), k.cluster, k.workload, THREE_D_SPACE).ranked[0]; bests.set(k.name, r ? { label: r.label, tokensPerS: r.tokensPerS } : null); }
  return bests.get(k.name)!;
}

/** Runs the student's planner on a case with a budget; checks the plan is well formed, fits, and no timing was refused. */
async function plan(f: F, k: Case, budget: number): Promise<{ plan: Plan | undefined; tokensPerS: number; timed: string[] }> {
  const arch = archOf(k.model);
  const judge = planJudge(arch, k.cluster, k.workload, budget);
  const call = `choosePlan(${k.name}, judge with budget ${budget})`;
  let refused: string | undefined;
  const guarded = { budget, memory: judge.memory, time: (p: Plan) => { try { return judge.time(p); } catch (e) { refused ??= (e as Error).message; throw e; } } };
  const p = await callSafely(f, [arch, k.cluster, k.workload, guarded], { label: call, hint: HINT }) as Plan | undefined;
  if (refused || judge.timed.length > budget) fail(`${call} asked for more timings than its budget of ${budget}: ${refused}`, "count your calls of judge.time; judge.budget says how many you have");
  if (p === undefined || p === null) return { plan: undefined, tokensPerS: 0, timed: judge.timed };
  const labels = new Set(enumeratePlans(arch, k.cluster, k.workload, THREE_D_SPACE).map(planLabel));
  let label: string;
  try { label = planLabel(p); } catch { return fail(`${call} returned ${JSON.stringify(p)?.slice(0, 120)}, not a plan`, "return one of enumeratePlans's plans, or undefined"); }
  if (!labels.has(label)) fail(`${call} returned ${label}, which is not a well-formed plan of this cluster and workload`, "return one of enumeratePlans(arch, cluster, workload, THREE_D_SPACE)'s plans");
  const r = evaluatePlan(arch, p, k.cluster, k.workload);
  if (!r.fits) fail(`${call} returned ${label}, which does not run: ${r.reason}`, "judge.memory(plan).fits is free: ask it");
  return { plan: p, tokensPerS: r.tokensPerS, timed: judge.timed };
}

async function inBand(f: F, k: Case): Promise<void> {
  const b = best(k)!;
  const got = await plan(f, k, BUDGET);
  if (!got.plan) fail(`choosePlan(${k.name}) returned undefined, but ${b.label} fits`, "undefined only when no plan fits");
  const ratio = got.tokensPerS / b.tokensPerS;
  if (!(ratio >= BAND)) fail(`choosePlan(${k.name}, budget ${BUDGET}) chose ${planLabel(got.plan!)} at ${Math.round(got.tokensPerS).toLocaleString("en")} tokens/s, ${(100 * ratio).toFixed(1)} % of the planner's best (${b.label}, ${Math.round(b.tokensPerS).toLocaleString("en")} tokens/s); at least ${100 * BAND} % scores. You timed: ${got.timed.join(" | ") || "nothing"}`,
    `which costs does your guess leave out? Compare the step breakdowns (judge.time(plan).step) of what you timed; ${HINT}`);
}

const ONE_NODE = [
  c("Llama-2-7B on 8 × A100 80GB, B = 64, s = 4096", "llama-2-7b", clusterPreset("8x-a100-80gb"), 64, 4096),
  c("Llama-2-13B on 8 × L40S 48GB (PCIe, no NVLink), B = 64, s = 4096", "llama-2-13b", clusterPreset("8x-l40s-48gb"), 64, 4096),
  c("Qwen2.5-7B on 8 × H200 141GB, B = 128, s = 8192", "qwen2.5-7b", clusterPreset("8x-h200-141gb"), 128, 8192),
  c("Llama-2-70B on 8 × A100 80GB, B = 64, s = 4096", "llama-2-70b", clusterPreset("8x-a100-80gb"), 64, 4096),
];
const MANY_NODES = [
  c("Llama-2-70B on 64 × H100 80GB, B = 512, s = 4096", "llama-2-70b", clusterPreset("64x-h100-80gb"), 512, 4096),
  c("Mistral-7B on 64 × H100 80GB, B = 256, s = 4096", "mistral-7b", clusterPreset("64x-h100-80gb"), 256, 4096),
  c("Gemma-2-9B on 1,024 × A100 80GB, B = 2048, s = 4096", "gemma-2-9b", clusterPreset("1024x-a100-80gb"), 2048, 4096),
];
const NOTHING = c("Llama-2-70B on 8 × L40S 48GB with 64 GiB of host memory, B = 64, s = 4096", "llama-2-70b", { ...clusterPreset("8x-l40s-48gb"), cpuMemoryBytesPerNode: 64 * GiB }, 64, 4096);
const SMALL = c("GPT-2 124M on 8 × A100 80GB, B = 512, s = 1024", "gpt2", clusterPreset("8x-a100-80gb"), 512, 1024);
const OTHERS = [
  c("Phi-3-mini on 8 × MI300X 192GB, B = 256, s = 4096", "phi-3-mini-4k", clusterPreset("8x-mi300x-192gb"), 256, 4096),
  c("Pythia-70M on 8 × B200 180GB, B = 128, s = 2048", "pythia-70m", clusterPreset("8x-b200-180gb"), 128, 2048),
  c("Gemma-7B on 8 × H200 141GB, B = 512, s = 4096", "gemma-7b", clusterPreset("8x-h200-141gb"), 512, 4096),
];

export default defineExercise<F>({
  id: "12.4",
  title: "build it: a planner that may time only 16 plans",
  chapter: "plan",
  section: "the-search",
  build: true,
  file: "exercises/plan/choose-plan.ts",
  exportName: "choosePlan",
  signature: "choosePlan(arch: ModelArch, cluster: Cluster, workload: Workload, judge: { memory(plan), time(plan), budget }): Plan | undefined",
  summary:
    "The course's planner times all of a model's thousands of well-formed plans; yours may time 16. Asking whether a plan fits is free; choosing which plans are worth a timing is the chapter's reasoning (what fits, what each choice of d, t, p, ZeRO stage, micro-batch, recomputation and offload costs on this cluster). Graded on seven models and clusters, 8 to 1,024 GPUs: your plan must fit and reach 95 % of the planner's best tokens/s; undefined when nothing fits; never a timing past the budget.",
  solution: ["lib/plan/choosePlan.ts", "lib/plan/evaluatePlan.ts", "lib/plan/stepTime.ts", "lib/plan/searchPlans.ts", "lib/plan/microBatchTime.ts"],
  uses: ["lib/plan/enumeratePlans.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: (f) => inBand(f, ONE_NODE[0]) },
    { name: "a well-formed plan that fits, within the budget", points: 4, run: async (f) => {
        for (const k of OTHERS) { const r = await plan(f, k, BUDGET); if (!r.plan) fail(`choosePlan(${k.name}) returned undefined, but ${best(k)!.label} fits`, "undefined only when no plan fits"); }
    } },
    { name: "95 % of the planner's best on one node (A100, L40S without NVLink, H200; 7B to 70B)", points: 6, run: async (f) => { for (const k of ONE_NODE) await inBand(f, k); } },
    { name: "95 % of the planner's best across nodes (64 H100, 1,024 A100)", points: 6, run: async (f) => { for (const k of MANY_NODES) await inBand(f, k); } },
    { name: "undefined when nothing fits", points: 2, run: async (f) => {
        const r = await plan(f, NOTHING, BUDGET);
        if (r.plan) fail(`choosePlan(${NOTHING.name}) returned a plan`, "no plan fits this cluster: return undefined");
    } },
    { name: "a budget of 0 or 1: a plan that fits, and no timing too many", points: 4, run: async (f) => {
        for (const budget of [0, 1]) { const r = await plan(f, SMALL, budget); if (!r.plan) fail(`choosePlan(${SMALL.name}, judge with budget ${budget}) returned undefined, but plans fit`, "with no timing left, your best guess"); }
    } },
  ],
});
