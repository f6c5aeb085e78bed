// Data loader (Node, build time): the zero page's FSDP2 runs. One step of a
// six-block lib/nn model on 8 simulated ranks (2 nodes of 4) under FSDP1
// FULL_SHARD (FlatParameter) and FSDP2 with reshard_after_forward true, false
// and 4: the memory ledger of the busiest rank, bytes sent (inside and between
// nodes), the two-stream timeline with and without backward prefetch; gradient
// accumulation measured on the World (trainZero's settings and FSDP2's sync);
// FSDP2's weights against one device and the ring-order oracle. All by calling
// lib/zero, so the page trains nothing on open.
import { trainFsdp, trainZero, trainOneDevice, fsdpOracle, fsdpTimeline, fsdpModel, fsdpStepCommunication, STEP_COMMUNICATION_SETTINGS, type FsdpConfig, type FsdpStepRecord } from "../../lib/zero/index.js";
import { DEFAULT_MODEL } from "../../lib/nn/index.js";

const MODEL = { ...DEFAULT_MODEL, numBlocks: 6 };
const TOPOLOGY = { ranksPerNode: 4, interNodeBandwidthBytesPerS: 5e9 }; // 25 GB/s inside a node (the World's default), 5 GB/s between
const MP = { paramDtype: "bf16", reduceDtype: "fp32" } as const;
const base: FsdpConfig = { mesh: { shard: 8 }, model: MODEL, steps: 1, mp: MP, topology: TOPOLOGY };
const COMPUTE_FLOPS_PER_S = 4e9; // a slow GPU, so that a block's compute takes about as long as its all-gather here

const CONFIGS: [string, FsdpConfig][] = [
  ["FSDP1 FULL_SHARD (FlatParameter)", { ...base, layout: "flat-parameter", reshardAfterForward: true }],
  ["FSDP2, reshard_after_forward=True", { ...base, reshardAfterForward: true }],
  ["FSDP2, reshard_after_forward=4 (a node)", { ...base, reshardAfterForward: 4 }],
  ["FSDP2, reshard_after_forward=False", { ...base, reshardAfterForward: false }],
];

/** [tick, live bytes] on `rank` after each operation that allocated or freed (the ledger's `live` after its last event of the tick). */
function ledger(rec: FsdpStepRecord, rank: number): [number, number][] {
  const byT = new Map<number, number>();
  for (const e of rec.memory.filter((x) => x.rank === rank)) byT.set(e.t, e.live);
  return [...byT];
}

const sum = (a: number[]) => a.reduce((s, x) => s + x, 0);
const runs = CONFIGS.map(([label, c]) => {
  const run = trainFsdp(c), rec = run.records[0];
  const rank = rec.peakBytes.indexOf(Math.max(...rec.peakBytes));
  return {
    label, rank, peakBytes: rec.peakBytes, bytesSent: rec.bytesSent,
    interNodeBytes: sum(rec.commEvents.filter((e) => e.interNode).map((e) => e.bytes)),
    commS: sum(rec.ops.map((o) => o.commS)),
    curve: ledger(rec, rank),
    ops: rec.ops.map((o) => o.label),
    paddedShard: run.plan.groups.map((g) => ({ name: g.name, numel: g.numel, paddedShardElements: g.paddedShardElements })),
  };
});

const timelines = [true, false].map((prefetch) => {
  const rec = trainFsdp({ ...base, reshardAfterForward: true, backwardPrefetch: prefetch }).records[0];
  const tl = fsdpTimeline(rec.ops, COMPUTE_FLOPS_PER_S);
  return { prefetch, totalS: tl.totalS, events: tl.events.map((e) => [e.stream, e.t, e.tEnd, e.label]) };
});

// Gradient accumulation measured on the World: the table's settings, P = 8, K = 1…8 (Ψ units = elements / ((P − 1)Ψ)).
const accumulation = STEP_COMMUNICATION_SETTINGS.map((s) => ({
  label: s.label,
  psi: [1, 2, 3, 4, 5, 6, 7, 8].map((K) => {
    const run = trainZero({ numRanks: 8, steps: 1, gradAccumSteps: K, knobs: { stage3_param_persistence_threshold: 0 }, ...s.simulated });
    return sum(run.records[0].elementsSent) / (7 * run.numParams);
  }),
}));
const fsdpAccumulation = [true, false].map((sync) => {
  const rec = trainFsdp({ ...base, gradAccumSteps: 8, requiresGradientSync: sync }).records[0];
  return { sync, bytesSentPerRank: sum(rec.bytesSent) / 8, peakBytes: Math.max(...rec.peakBytes) };
});

// Equality: FSDP2 (bf16 parameters, fp32 reduction) against the ring-order oracle (bit for bit) and DDP; fp32 against one device.
const equality = [1, 2, 3, 4, 5, 6, 7, 8].map((P) => {
  const c: FsdpConfig = { mesh: { shard: P }, steps: 3, mp: MP, reshardAfterForward: P % 2 === 0 && P > 2 ? 2 : true };
  const fsdp = trainFsdp(c).master, oracle = fsdpOracle(c), ddp = trainZero({ numRanks: P, stage: 0, steps: 3, reduceDtype: "fp32" }).master;
  const bf16 = trainFsdp({ ...c, mp: { paramDtype: "bf16" } }).master, ddpBf16 = trainZero({ numRanks: P, stage: 0, steps: 3 }).master;
  const f32 = trainFsdp({ ...c, mp: {} }).master, one = trainOneDevice({ numRanks: P, steps: 3 });
  const maxAbs = (a: Float32Array, b: Float32Array) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));
  return { P, reshard: c.reshardAfterForward, oracleBits: fsdp.every((x, i) => Object.is(x, oracle[i])), ddpMaxAbs: maxAbs(fsdp, ddp), ddpBf16MaxAbs: maxAbs(bf16, ddpBf16), oneDeviceMaxAbs: maxAbs(f32, one) };
});

// MixedPrecisionPolicy: bytes a rank sends in one step, closed form and measured.
const mixedPrecision = ([[{}, "fp32", "fp32"], [{ paramDtype: "bf16" }, "bf16", "bf16"], [MP, "bf16", "fp32"]] as const).map(([mp, param, reduce]) => {
  const run = trainFsdp({ ...base, reshardAfterForward: true, mp });
  return { param, reduce, measured: sum(run.records[0].bytesSent) / 8, closed: fsdpStepCommunication(run.plan, { paramDtype: param, reduceDtype: reduce }).bytesSent / 8 };
});
const layers = fsdpModel(DEFAULT_MODEL).layers;

process.stdout.write(JSON.stringify({ layers, mixedPrecision, model: MODEL, topology: TOPOLOGY, computeFlopsPerS: COMPUTE_FLOPS_PER_S, runs, timelines, accumulation, fsdpAccumulation, equality }));
