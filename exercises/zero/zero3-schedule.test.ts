import { defineExercise, fail, formatValue, isNotImplemented } from "../harness/index.js";
import { zeroSchedule } from "../../lib/zero/zeroSchedule.js";
import { ZERO_DEFAULTS } from "../../lib/zero/validateZeroOptions.js";
import { trainZero, type ZeroConfig } from "../../lib/zero/trainZero.js";
import { zeroStepCommunication } from "../../lib/zero/zeroStepCommunication.js";
import { wrapUnits } from "../../lib/zero/wrapUnits.js";
import { createModel, corpus } from "../../lib/nn/index.js";
import { AMP_LIVE_MODEL } from "../../lib/amp/charLmSetup.js";
import { mulberry32 } from "../../lib/random.js";
import type { Op, Stage3Knobs, ScheduleUnit, zero3Schedule } from "./zero3-schedule.js";

type F = typeof zero3Schedule;
const full = (k: Stage3Knobs) => ({ ...ZERO_DEFAULTS, ...k, overlap_comm: true });
const reference: F = (units, knobs) => zeroSchedule(3, units as never, full(knobs)) as Op[];
const SECTION = "the page's section \"Build it: a ZeRO-3 step\"";
const model = createModel({ ...AMP_LIVE_MODEL, vocabSize: corpus().vocab.size });
const unitsFor = (threshold: number): ScheduleUnit[] => wrapUnits(model.layers.map((l) => ({ name: l.name, params: l.params.map((p) => ({ name: p.name, numel: p.data.length })) })), "layer", threshold);

interface Run { P: number; knobs: Stage3Knobs; threshold: number; steps?: number }
const describe = (r: Run) => `P = ${r.P}, ${formatValue(r.knobs)}, persistence threshold ${r.threshold}`;
const cfg = (r: Run): ZeroConfig => ({ numRanks: r.P, stage: 3, steps: r.steps ?? 2, knobs: { ...r.knobs, stage3_param_persistence_threshold: r.threshold } });

async function opsOf(f: F, r: Run): Promise<Op[]> {
  let ops: Op[];
  try { ops = await f(unitsFor(r.threshold), r.knobs); } catch (e) {
    if (isNotImplemented(e)) throw e;
    fail(`zero3Schedule threw ${(e as Error)?.name}: ${(e as Error)?.message}`, SECTION);
  }
  if (!Array.isArray(ops)) fail(`zero3Schedule returned ${formatValue(ops)}, not an array of operations`, "return the operations in order");
  return ops;
}

/** Where two operation lists first differ, with a window of operations around it (both lists, indexed), or null when equal. */
function opsDifference(got: readonly unknown[], want: readonly unknown[], what: string): string | null {
  const key = (o: unknown) => JSON.stringify(o);
  let i = 0;
  while (i < got.length && i < want.length && key(got[i]) === key(want[i])) i++;
  if (i === got.length && i === want.length) return null;
  const from = Math.max(0, i - 2), to = i + 4;
  const show = (ops: readonly unknown[]) => ops.slice(from, to).map((o, k) => `  [${from + k}] ${formatValue(o)}`).join("\n") || "  (none)";
  return `your ${what} (${got.length}) and the expected ones (${want.length}) agree up to index ${i - 1} and first differ at index ${i}.\nyours, from index ${from}:\n${show(got)}\nexpected:\n${show(want)}`;
}

/** Runs the student's schedule in the simulated world; a schedule error fails the check with the world's message. */
async function runWith(f: F, r: Run) {
  const ops = await opsOf(f, r);
  try { return { ops, run: trainZero({ ...cfg(r), schedule: () => ops as never }) }; } catch (e) {
    fail(`${describe(r)}: the simulated ranks stopped at your schedule: ${(e as Error)?.message}`, `every unit must be gathered where it is computed, and gradients reduced once each after they exist (${SECTION})`);
  }
}

const RUNS: Run[] = [
  { P: 1, knobs: { reduce_bucket_size: 500, stage3_prefetch_bucket_size: 1, stage3_max_live_parameters: 1e9 }, threshold: 0 },
  { P: 3, knobs: { reduce_bucket_size: 777, stage3_prefetch_bucket_size: 1, stage3_max_live_parameters: 1e9 }, threshold: 30 },
  { P: 8, knobs: { reduce_bucket_size: 5e8, stage3_prefetch_bucket_size: 1, stage3_max_live_parameters: 1e9 }, threshold: 0 },
];
const rng = mulberry32(83);
for (let i = 0; i < 3; i++) RUNS.push({ P: 2 + Math.floor(rng() * 7), knobs: { reduce_bucket_size: 100 + Math.floor(rng() * 3000), stage3_prefetch_bucket_size: 1, stage3_max_live_parameters: 1e9 }, threshold: Math.floor(rng() * 40) });

export default defineExercise<F>({
  id: "8.3",
  title: "build it: one ZeRO-3 step",
  chapter: "zero",
  file: "exercises/zero/zero3-schedule.ts",
  exportName: "zero3Schedule",
  build: true,
  section: "build-it-a-ze-ro-3-step",
  signature: "zero3Schedule(units: {name, gatheredElements, params: {name, start, end, persistent}[]}[], knobs: {reduce_bucket_size, stage3_prefetch_bucket_size, stage3_max_live_parameters}): Op[]",
  summary: "Write the schedule of one ZeRO-3 step (gather, forward, release, backward, bucketed reduce, step, all-gather of persistent tensors, with DeepSpeed's prefetch rules). It runs on P simulated ranks training the course model in bf16; graded on the weights (DDP's, bit for bit), the communication, the peak memory per rank and the operations.",
  solution: ["lib/zero/zeroSchedule.ts"],
  uses: ["lib/zero/ZeroWorld.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => {
        const units: ScheduleUnit[] = [{ name: "u0", gatheredElements: 4, params: [{ name: "a", start: 0, end: 4, persistent: false }] }, { name: "u1", gatheredElements: 0, params: [{ name: "b", start: 4, end: 6, persistent: true }] }];
        const knobs = { reduce_bucket_size: 4, stage3_prefetch_bucket_size: 1, stage3_max_live_parameters: 100 };
        const got = await f(units, knobs), want = await reference(units, knobs);
        if (JSON.stringify(got) !== JSON.stringify(want)) fail(`the stub's example returned ${formatValue(got)}; expected ${formatValue(want)}`, SECTION);
    } },
    { name: "trains to DDP's weights (P = 1…8, Ψ = 3,555)", points: 8, run: async (f) => {
        for (const r of RUNS) {
          const { run } = (await runWith(f, r))!;
          const ddp = trainZero({ ...cfg(r), stage: 0 }).master;
          const i = run.master.findIndex((x, k) => !Object.is(x, ddp[k]));
          if (i >= 0) fail(`${describe(r)}: after 2 steps master weight ${i} is ${run.master[i]}, DDP on the same batches gives ${ddp[i]}`, `every rank must compute with the current parameters: persistent tensors are all-gathered after the step (${SECTION})`);
        }
    } },
    { name: "communication: 3(P−1)Ψ per step; persistent tensors 2(P−1)", points: 3, run: async (f) => {
        for (const r of RUNS.slice(1, 4)) {
          const { run } = (await runWith(f, { ...r, steps: 1 }))!;
          const persistent = unitsFor(r.threshold).flatMap((u) => u.params).filter((p) => p.persistent).reduce((n, p) => n + p.end - p.start, 0);
          const sent = run.records[0].elementsSent.reduce((a, b) => a + b, 0), want = zeroStepCommunication({ stage: 3, dataParallel: r.P, numParams: run.numParams, persistentParams: persistent }).elementsSent;
          if (sent !== want) fail(`${describe(r)}: one step sent ${sent} elements over all ranks; ZeRO-3 sends ${want}`, `each unit is gathered once for forward and once again for backward (${SECTION})`);
        }
    } },
    { name: "frees what it gathers: the peak per rank", points: 5, run: async (f) => {
        for (const r of RUNS.slice(1, 4)) {
          const { run } = (await runWith(f, { ...r, steps: 1 }))!;
          const refRun = trainZero({ ...cfg(r), steps: 1 });
          // A low peak counts only for a schedule that trains: one that skips work also skips its memory.
          if (run.master.some((x, k) => !Object.is(x, refRun.master[k]))) fail(`${describe(r)}: after one step the weights differ from ZeRO-3's, so the peak of this schedule is not judged`, `the schedule must gather, compute and reduce every unit and take the step (${SECTION})`);
          const ref = refRun.records[0].peakBytes;
          run.records[0].peakBytes.forEach((b, rank) => {
            if (b > ref[rank]) fail(`${describe(r)}: rank ${rank} peaks at ${b} bytes; ZeRO-3 with these knobs needs ${ref[rank]}`, `release each unit as soon as its forward or backward is done, and reduce gradients as their buckets fill (${SECTION})`);
          });
        }
    } },
    { name: "gradients reduced in buckets as backward goes", points: 3, run: async (f) => {
        for (const r of RUNS) {
          const got = (await opsOf(f, r)).filter((o) => o.op === "reduce" || o.op === "backward");
          const want = (await reference(unitsFor(r.threshold), r.knobs)).filter((o) => o.op === "reduce" || o.op === "backward");
          const diff = opsDifference(got, want, "backward and reduce operations");
          if (diff) fail(`${describe(r)}: ${diff}`, `a bucket is reduced before the tensor that would overflow it is added (${SECTION})`);
        }
    } },
    { name: "prefetch within stage3_prefetch_bucket_size and stage3_max_live_parameters", points: 3, run: async (f) => {
        for (const knobs of [{ reduce_bucket_size: 1000, stage3_prefetch_bucket_size: 900, stage3_max_live_parameters: 2000 }, { reduce_bucket_size: 1000, stage3_prefetch_bucket_size: 1e6, stage3_max_live_parameters: 1500 }, { reduce_bucket_size: 1000, stage3_prefetch_bucket_size: 1e6, stage3_max_live_parameters: 1e9 }]) {
          const r = { P: 4, knobs, threshold: 30 };
          const got = await opsOf(f, r), want = await reference(unitsFor(30), knobs);
          const diff = opsDifference(got, want, "operations");
          if (diff) fail(`${describe(r)}: ${diff}`, `prefetch the next units of the pass while both limits hold; stop at the first that does not fit (${SECTION})`);
          const { run } = (await runWith(f, { ...r, steps: 1 }))!;
          if (!run.losses.every(Number.isFinite)) fail(`${describe(r)}: the loss is not finite`, SECTION);
        }
    } },
  ],
});
