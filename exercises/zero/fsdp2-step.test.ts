import * as fc from "fast-check";
import { defineExercise, expectSame, fail, formatValue, isNotImplemented, property } from "../harness/index.js";
import { fsdp2Step as libFsdp2Step } from "../../lib/zero/fsdp2Step.js";
import { trainFsdp, fsdpModel, type FsdpConfig, type FsdpRun } from "../../lib/zero/trainFsdp.js";
import { trainOneDevice } from "../../lib/zero/trainOneDevice.js";
import { AMP_LIVE_MODEL } from "../../lib/amp/charLmSetup.js";
import type { FsdpOp } from "../../lib/zero/fsdpOp.js";
import type { fsdp2Step, ShardedModel } from "./fsdp2-step.js";

type F = typeof fsdp2Step;
const reference: F = (model, G) => libFsdp2Step(model as never, G) as ReturnType<F>;
const SECTION = "the page's section \"FSDP2: fully_shard\"";
const MODEL = { ...AMP_LIVE_MODEL, numBlocks: 3 };
const { layers } = fsdpModel(MODEL); // emb, proj, blocks.0, blocks.1, blocks.2, head

/** A run: the shard size, each block's reshard_after_forward, the root's, and whether blocks 0 and 1 are one group. */
interface Run { G: number; block: boolean | number | null; root: boolean | number | null; together?: boolean }
const RUNS: Run[] = [
  { G: 4, block: null, root: null },
  { G: 6, block: 2, root: null }, // 16 rows in 6 chunks: 3, 3, 3, 3, 3, 1
  { G: 7, block: false, root: true }, // 24 rows in 7 chunks: six of 4, one empty
  { G: 4, block: 4, root: 2, together: true },
  { G: 1, block: true, root: null },
];
const describe = (r: Run) => `G = ${r.G}, blocks' reshard_after_forward = ${formatValue(r.block)}, root's = ${formatValue(r.root)}${r.together ? ", blocks.0 and blocks.1 in one group" : ""}`;
const blockGroups = (r: Run) => (r.together ? [[2, 3], [4]] : [[2], [3], [4]]);

function modelOf(r: Run): ShardedModel {
  const blocks = blockGroups(r).map((ls) => ({ name: ls.map((l) => layers[l].name).join("+"), isRoot: false, layers: ls, reshardAfterForward: r.block }));
  return { layers, groups: [{ name: "root", isRoot: true, layers: [0, 1, 5], reshardAfterForward: r.root }, ...blocks] };
}
const callsOf = (r: Run): FsdpConfig["calls"] => [...blockGroups(r).map((ls) => ({ modules: ls.map((l) => layers[l].name), reshardAfterForward: r.block })), { modules: "root", reshardAfterForward: r.root }];

async function planOf(f: F, r: Run) {
  let out: ReturnType<F>;
  try { out = await f(modelOf(r), r.G); } catch (e) {
    if (isNotImplemented(e)) throw e;
    fail(`${describe(r)}: fsdp2Step threw ${(e as Error)?.name}: ${(e as Error)?.message}`, SECTION);
  }
  if (!out || typeof out.shards !== "object" || !Array.isArray(out.ops)) fail(`${describe(r)}: fsdp2Step returned ${formatValue(out)}, not {shards, ops}`, "return an object with the shards of every parameter and the operations");
  return out;
}

/** Runs a plan on the World: the student's shards and operations, or FSDP2's (the reference). */
async function runOf(f: F, r: Run, precision: "fp32" | "bf16"): Promise<FsdpRun> {
  const { shards, ops } = await planOf(f, r);
  const cfg: FsdpConfig = { mesh: { shard: r.G }, model: MODEL, calls: callsOf(r), steps: precision === "fp32" ? 2 : 1, mp: precision === "bf16" ? { paramDtype: "bf16", reduceDtype: "fp32" } : {} };
  try {
    return trainFsdp({ ...cfg, shard: (p) => { const s = shards[p.name]; if (!s) throw new RangeError(`no shards for parameter ${p.name}`); return s as never; }, schedule: () => ops as FsdpOp[] });
  } catch (e) {
    fail(`${describe(r)}: the simulated ranks stopped at your plan: ${(e as Error)?.message}`, `every layer runs with its group unsharded, and every group is resharded and reduced after its backward (${SECTION})`);
  }
}

export default defineExercise<F>({
  id: "8.5",
  kind: "concept",
  title: "FSDP2: per-parameter sharding and the step",
  chapter: "zero",
  section: "fsdp-2-fully-shard",
  file: "exercises/zero/fsdp2-step.ts",
  exportName: "fsdp2Step",
  signature: "fsdp2Step(model: {layers, groups: {name, isRoot, layers, reshardAfterForward}[]}, shardSize: number): {shards: Record<name, {rows, paddedRows}>, ops: Op[]}",
  summary: "Lay out every parameter as FSDP2's Shard(0) (torch.chunk on dim 0, padded) and write the unshard / reshard / reduce-scatter schedule of one step for any reshard_after_forward (true, false, null, an int), with FSDP2's backward prefetch. It runs on the chapter's simulated ranks; graded on the shards, training equal to one device, every message's offset and length, and the peak memory per rank.",
  solution: ["lib/zero/fsdp2Step.ts", "lib/zero/shardDim0.ts", "lib/zero/fsdpSchedule.ts", "lib/zero/deviceMesh.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        const m: ShardedModel = { layers: [{ name: "a", params: [{ name: "a.W", shape: [5, 2] }] }], groups: [{ name: "root", isRoot: true, layers: [0], reshardAfterForward: null }] };
        await expectSame(f, reference, [m, 4], { hint: SECTION });
    } },
    { name: "Shard(0): torch.chunk on dim 0, padded", points: 2, run: (f) => property(fc.record({ rows: fc.integer({ min: 1, max: 40 }), cols: fc.integer({ min: 1, max: 3 }), G: fc.integer({ min: 1, max: 12 }) }), async ({ rows, cols, G }) => {
        const m: ShardedModel = { layers: [{ name: "l", params: [{ name: "l.W", shape: cols > 1 ? [rows, cols] : [rows] }] }], groups: [{ name: "root", isRoot: true, layers: [0], reshardAfterForward: null }] };
        const got = (await f(m, G)).shards?.["l.W"], want = (await reference(m, G)).shards["l.W"];
        if (JSON.stringify(got) !== JSON.stringify(want)) fail(`a parameter of shape [${m.layers[0].params[0].shape}] on G = ${G}: your shards are ${formatValue(got)}; FSDP2's are ${formatValue(want)}`, `torch.chunk may return fewer chunks than asked, and every rank pads to the first chunk (${SECTION})`);
    }, { numRuns: 60, seed: 85 }) },
    { name: "trains to one device's weights (fp32, within 1e-5)", points: 3, run: async (f) => {
        for (const r of RUNS) {
          const run = await runOf(f, r, "fp32");
          const one = trainOneDevice({ numRanks: r.G, model: MODEL, steps: 2 });
          const i = run.master.findIndex((x, k) => !(Math.abs(x - one[k]) <= 1e-5));
          if (i >= 0) fail(`${describe(r)}: after 2 steps weight ${i} is ${run.master[i]}; one device on the same global batch gives ${one[i]} (tolerance 1e-5)`, `each rank must hold the rows torch.chunk gives it, so that the gathered parameters are the model's (${SECTION})`);
        }
    } },
    { name: "every message: sender, receiver, offset, length and bytes", points: 4, run: async (f) => {
        for (const r of RUNS) {
          const got = (await runOf(f, r, "bf16")).records[0], want = (await runOf(reference, r, "bf16")).records[0];
          const key = (e: { sender: number; receiver: number; offset: number; length: number; bytes: number }) => `${e.sender}→${e.receiver} [${e.offset}, +${e.length}) ${e.bytes} B`;
          const n = Math.max(got.commEvents.length, want.commEvents.length);
          for (let i = 0; i < n; i++) {
            const g = got.commEvents[i], w = want.commEvents[i];
            if (g && w && key(g) === key(w)) continue;
            const during = (rec: typeof got) => rec.ops.find((o) => o.events[0] <= i && i < o.events[1])?.label ?? "no operation";
            fail(`${describe(r)}: message ${i} of the step is ${g ? `${key(g)} (during "${during(got)}")` : "missing"}; FSDP2 sends ${w ? `${key(w)} (during "${during(want)}")` : "nothing more"} (${got.commEvents.length} messages against ${want.commEvents.length})`, `which groups are all-gathered, over how many ranks, and when: reshard_after_forward decides the backward all-gather, the backward prefetch its place (${SECTION})`);
          }
        }
    } },
    { name: "peak memory per rank", points: 2, run: async (f) => {
        for (const r of RUNS) {
          const got = (await runOf(f, r, "bf16")).records[0].peakBytes, want = (await runOf(reference, r, "bf16")).records[0].peakBytes;
          const k = got.findIndex((b, rank) => b !== want[rank]);
          if (k >= 0) fail(`${describe(r)}: rank ${k} peaks at ${got[k]} bytes; FSDP2 peaks at ${want[k]}`, `free what reshard_after_forward frees after forward, keep what it keeps (${SECTION})`);
        }
    } },
  ],
});
