// Data loader (Node, build time): the zero page's fixed-input runs. One ZeRO
// step of lib/nn's DEFAULT_MODEL for P = 1…8 under stages 0–3 and FSDP's
// strategies (memory of every rank from the event log, communication per rank),
// the equality of every stage with DDP, and the bf16 reduction error, all by
// calling lib/zero, so the page trains nothing on open.
import { trainZero, autoPersistenceThreshold, fsdpToZero, reductionError, parseDeepSpeedConfig, NOTES_ZERO2_CONFIG, NOTES_TRAINER_ARGS, type ZeroConfig, type ZeroRun } from "../../lib/zero/index.js";
import { DEFAULT_MODEL } from "../../lib/nn/index.js";

// stage3_param_persistence_threshold: trainZero's default, 10 × width (Hugging Face's "auto"): the biases stay whole.
const KNOBS = { reduce_bucket_size: 3000, allgather_bucket_size: 6000, stage3_prefetch_bucket_size: 1, contiguous_gradients: false };
const base = (P: number): ZeroConfig => ({ numRanks: P, stage: 0, steps: 1, model: DEFAULT_MODEL, batchSize: 2, seqLen: 8, knobs: KNOBS });

/** The live bytes of each memory kind on `rank` after each tick. */
function curve(run: ZeroRun, rank: number) {
  const live = new Map<string, number>(), out: { t: number; kind: string; bytes: number }[] = [];
  const ev = run.records[0].memory.filter((e) => e.rank === rank);
  const ticks = [...new Set(ev.map((e) => e.t))];
  for (const t of ticks) {
    for (const e of ev.filter((x) => x.t === t)) live.set(e.kind, (live.get(e.kind) ?? 0) + (e.op === "alloc" ? e.bytes : -e.bytes));
    for (const [kind, bytes] of live) out.push({ t, kind, bytes });
  }
  return out;
}

function summary(run: ZeroRun) {
  const r = run.records[0];
  const rank = r.peakBytes.indexOf(Math.max(...r.peakBytes));
  return {
    peakBytes: r.peakBytes, elementsSent: r.elementsSent, rank, curve: curve(run, rank),
    collectives: r.collectives.length,
    ops: r.ops.length,
  };
}

const configs: Record<string, (P: number) => ZeroConfig | null> = {
  "stage 0 (DDP)": (P) => ({ ...base(P), stage: 0 }),
  "stage 1": (P) => ({ ...base(P), stage: 1 }),
  "stage 2": (P) => ({ ...base(P), stage: 2 }),
  "stage 3": (P) => ({ ...base(P), stage: 3 }),
  "FSDP FULL_SHARD": (P) => ({ ...base(P), stage: fsdpToZero("FULL_SHARD", P).stage, reshardAfterForward: true, knobs: { ...KNOBS, stage3_param_persistence_threshold: 0 } }),
  "FSDP SHARD_GRAD_OP": (P) => ({ ...base(P), stage: 3, reshardAfterForward: fsdpToZero("SHARD_GRAD_OP", P).reshardAfterForward, knobs: { ...KNOBS, stage3_param_persistence_threshold: 0 } }),
  "FSDP NO_SHARD": (P) => ({ ...base(P), stage: fsdpToZero("NO_SHARD", P).stage }),
  "FSDP FULL_SHARD, root only": (P) => ({ ...base(P), stage: 3, wrap: "root", knobs: { ...KNOBS, stage3_param_persistence_threshold: 0 } }),
};

const runs: Record<number, Record<string, ReturnType<typeof summary>>> = {};
let numParams = 0, units: { name: string; elements: number; persistent: number }[] = [];
for (let P = 1; P <= 8; P++) {
  runs[P] = {};
  for (const [label, make] of Object.entries(configs)) {
    const run = trainZero(make(P)!);
    numParams = run.numParams;
    if (label === "stage 3") units = run.units.map((u) => ({ name: u.name, elements: u.params.reduce((n, p) => n + p.end - p.start, 0), persistent: u.params.filter((p) => p.persistent).reduce((n, p) => n + p.end - p.start, 0) }));
    runs[P][label] = summary(run);
  }
}
const persistent = units.reduce((n, u) => n + u.persistent, 0);

// Equality with DDP: 3 steps of AdamW in bf16 for P = 1…8 and stages 1–3 (lib/amp's small live model).
const equality = [1, 2, 3, 4, 5, 6, 7, 8].map((P) => {
  const ddp = trainZero({ numRanks: P, stage: 0, steps: 3 });
  const row: Record<string, number> = { P, numParams: ddp.numParams };
  for (const stage of [1, 2, 3]) {
    const z = trainZero({ numRanks: P, stage, steps: 3, knobs: { reduce_bucket_size: 700, stage3_param_persistence_threshold: 30 } });
    let worst = 0;
    z.master.forEach((x, i) => { worst = Math.max(worst, Math.abs(x - ddp.master[i])); });
    row[`stage ${stage}`] = worst;
  }
  row.finalLoss = ddp.losses.at(-1)!;
  return row;
});

const reduction = [2, 4, 8, 16, 32, 64, 128, 256].flatMap((P) => (["fp32", "bf16", "fp16"] as const).map((d) => reductionError(P, d)));
const ds = parseDeepSpeedConfig(NOTES_ZERO2_CONFIG, NOTES_TRAINER_ARGS, { release: "v0.17.0" });
let currentRejects = "";
try { parseDeepSpeedConfig(NOTES_ZERO2_CONFIG, NOTES_TRAINER_ARGS); } catch (e) { currentRejects = (e as Error).message; }

process.stdout.write(JSON.stringify({
  knobs: KNOBS, persistenceThreshold: autoPersistenceThreshold(DEFAULT_MODEL.width), numParams, units, persistent, runs,
  equality, reduction,
  notesConfig: { stage: ds.stage, precision: ds.precision, knobs: ds.knobs, trainBatchSize: ds.trainBatchSize, micro: ds.microBatchPerGpu, accumulation: ds.gradientAccumulationSteps, dp: ds.dataParallelSize, lossScaler: ds.fp16?.kind, initialScale: ds.fp16 ? 2 ** ds.fp16.block.initial_scale_power : null, gradientClipping: ds.gradientClipping, currentRejects },
}));
