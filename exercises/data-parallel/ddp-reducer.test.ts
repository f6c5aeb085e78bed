import * as fc from "fast-check";
import { defineExercise, fail, formatValue, isNotImplemented, property } from "../harness/index.js";
import { createDdpReducer as libCreateDdpReducer } from "../../lib/data-parallel/createDdpReducer.js";
import { createGradCluster } from "../../lib/data-parallel/createGradCluster.js";
import { trainDdpBucketed, type BucketedStepLog } from "../../lib/data-parallel/trainDdpBucketed.js";
import { trainSingleProcess } from "../../lib/data-parallel/trainDataParallel.js";
import { mlpInit, regressionData } from "../../lib/data-parallel/mlp.js";
import { assignBuckets } from "../../lib/data-parallel/assignBuckets.js";
import { DEFAULT_COST_MODEL } from "../../lib/collectives/costModel.js";
import type { BucketCaps, createDdpReducer } from "./ddp-reducer.js";

type F = typeof createDdpReducer;
const reference: F = (cluster, paramSizes, caps) => libCreateDdpReducer(cluster, paramSizes, caps);

const SECTION = "the page's section \"Build it: DDP from a ring and buckets\"";
const TOL = 1e-6; // the page's tolerance on |θ_DDP − θ_single|
const dims = { inputDim: 3, hiddenDim: 8, outputDim: 2 };
const data = regressionData(48, 3, 2, 9);
const init = mlpInit(dims, 5);
const sizes = [24, 8, 16, 2]; // W1, b1, W2, b2
const offsets = [0, 24, 32, 48, 50];
const CAPS: BucketCaps = { bucketCapBytes: 64, firstBucketCapBytes: 32 }; // buckets [3, 2], [1, 0]
const singles = new Map<number, Float64Array>();
const single = (steps: number) => {
  if (!singles.has(steps)) singles.set(steps, trainSingleProcess(init, data.X, data.Y, { lr: 0.2, steps }).model.params);
  return singles.get(steps)!;
};

interface Run { P: number; steps: number; caps?: BucketCaps; readyOrder?: number[] }
const describeRun = (o: Run) => `P = ${o.P}, ${o.steps} step(s), caps ${formatValue(o.caps ?? CAPS)}, ready order ${formatValue(o.readyOrder ?? [3, 2, 1, 0])}`;

/** Trains with the student's reducer; any error it throws fails the check with the run's description. */
function train(f: F, o: Run) {
  try {
    return trainDdpBucketed(init, data.X, data.Y, { lr: 0.2, steps: o.steps, numRanks: o.P, caps: o.caps ?? CAPS, readyOrder: o.readyOrder, createReducer: (c, s, k) => f(c, s, k) });
  } catch (e) {
    if (isNotImplemented(e)) throw e;
    fail(`training with your reducer (${describeRun(o)}) threw ${(e as Error)?.name ?? "an error"}: ${(e as Error)?.message ?? String(e)}`, `gradReady and finish are called by the training loop; ${SECTION}`);
  }
}

/** The reference buckets of a run: param indices and their range [lo, hi) of the flat buffer. */
function bucketsOf(caps: BucketCaps) {
  return assignBuckets(sizes.map((s) => 4 * s), caps).map((b) => ({ params: b.paramIndices, lo: Math.min(...b.paramIndices.map((i) => offsets[i])), hi: Math.max(...b.paramIndices.map((i) => offsets[i + 1])) }));
}

function checkWeights(f: F, o: Run, hint: string) {
  const d = train(f, o);
  const want = single(o.steps);
  d.rankParams.forEach((p, r) => {
    for (let i = 0; i < p.length; i++) {
      if (!(Math.abs(p[i] - want[i]) <= TOL)) fail(`${describeRun(o)}: rank ${r}'s weight ${i} is ${p[i]}, single-process training gives ${want[i]} (tolerance ${TOL})`, hint);
    }
  });
  d.rankParams.forEach((p, r) => {
    const i = p.findIndex((v, k) => !Object.is(v, d.rankParams[0][k]));
    if (i >= 0) fail(`${describeRun(o)}: rank ${r}'s weight ${i} is ${p[i]} but rank 0's is ${d.rankParams[0][i]}; DDP keeps every replica identical`, "after the all-reduce every rank must hold the same values, bit for bit");
  });
  return d;
}

/** The message log of one step, split by the reference buckets; fails on a message outside every bucket or across two. */
function perBucket(log: BucketedStepLog, caps: BucketCaps, where: string) {
  const bs = bucketsOf(caps);
  const groups = bs.map(() => [] as BucketedStepLog["events"]);
  for (const e of log.events) {
    const b = bs.findIndex((x) => e.offset >= x.lo && e.offset + e.length <= x.hi);
    if (b < 0) fail(`${where}: the message ${formatValue({ sender: e.sender, receiver: e.receiver, offset: e.offset, length: e.length })} does not lie inside one bucket; the buckets (value ranges) are ${bs.map((x) => `[${x.lo}, ${x.hi})`).join(", ")}`, `form the buckets as exercise 5.4 does and all-reduce each over its own range (${SECTION})`);
    groups[b].push(e);
  }
  return { bs, groups };
}

export default defineExercise<F>({
  id: "5.6",
  title: "build it: DDP's reducer from a ring and buckets",
  chapter: "data-parallel",
  uses: ["lib/collectives/costModel.ts"],
  file: "exercises/data-parallel/ddp-reducer.ts",
  exportName: "createDdpReducer",
  build: true,
  section: "build-it-ddp-from-a-ring-and-buckets",
  signature: "createDdpReducer(cluster: {numRanks, grads: Float32Array[], step(messages)}, paramSizes: number[], caps: {bucketCapBytes, firstBucketCapBytes}): {gradReady(i), finish()}",
  summary:
    "Write DDP's reducer: buckets as in 5.4, each all-reduced by your ring over its range of the flat gradient buffer, in bucket order and as soon as its gradients are ready, leaving the mean on every rank. It runs inside the simulated DDP training of the chapter's MLP on P ranks. Graded on the weights (equal to single-process training within 1e-6 and identical on every rank) and on the message log: the ring's pattern, the buckets, their order and the overlap with backward.",
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => {
        const c = createGradCluster(2, 2, DEFAULT_COST_MODEL);
        c.cluster.grads[0].set([1, 2]);
        c.cluster.grads[1].set([3, 6]);
        try {
          const r = await f(c.cluster, [2], { bucketCapBytes: 8, firstBucketCapBytes: 8 });
          r.gradReady(0);
          r.finish();
        } catch (e) {
          if (isNotImplemented(e)) throw e;
          fail(`the stub's example threw ${(e as Error)?.name}: ${(e as Error)?.message ?? String(e)}`, SECTION);
        }
        const got = c.cluster.grads.map((g) => Array.from(g));
        if (JSON.stringify(got) !== JSON.stringify([[2, 4], [2, 4]])) fail(`the stub's example leaves ${formatValue(got)}; expected [[2, 4], [2, 4]] (the mean on every rank)`, "sum around the ring, then divide by P");
        const steps = new Set(c.events.map((e) => e.step)).size;
        if (steps !== 2 || c.events.some((e) => e.receiver !== (e.sender + 1) % 2)) fail(`the stub's example sent ${c.events.length} messages in ${steps} steps; the ring on 2 ranks takes 2 steps, each rank sending to the next`, SECTION);
    } },
    { name: "one training step: the mean on every rank", points: 2, run: (f) => {
        checkWeights(f, { P: 4, steps: 1 }, `each rank must end with the mean of the ranks' gradients, not their sum (${SECTION})`);
    } },
    { name: "training equals one process (P = 1, 2, 3, 4, 8; 20 steps)", points: 5, run: (f) => {
        for (const P of [1, 2, 3, 4, 8]) checkWeights(f, { P, steps: 20 }, `DDP's weights equal single-process training when every rank gets the mean gradient (${SECTION})`);
    } },
    { name: "the ring's pattern", points: 4, run: (f) => {
        for (const P of [1, 4, 5]) {
          const o = { P, steps: 1 }, where = describeRun(o);
          const d = train(f, o);
          const { bs, groups } = perBucket(d.log[0], CAPS, where);
          if (P === 1 && d.log[0].events.length > 0) fail(`${where}: one rank has nothing to send, but your reducer sent ${d.log[0].events.length} messages`, "P = 1: the mean is the rank's own gradient");
          for (const e of d.log[0].events) if (e.receiver !== (e.sender + 1) % P) fail(`${where}: rank ${e.sender} sent to rank ${e.receiver}; in the ring rank r sends only to (r + 1) mod P`, SECTION);
          groups.forEach((g, b) => {
            if (P === 1) return;
            const len = bs[b].hi - bs[b].lo;
            const stepIds = [...new Set(g.map((e) => e.step))].sort((x, y) => x - y);
            const total = g.reduce((s, e) => s + e.length, 0);
            if (total !== 2 * (P - 1) * len) fail(`${where}: bucket ${b} (${len} values) sent ${total} values in all; a ring all-reduce sends 2(P−1)·len = ${2 * (P - 1) * len}`, `each rank sends one chunk per step, 2(P−1) steps (${SECTION})`);
            const ops = stepIds.map((s) => [...new Set(g.filter((e) => e.step === s).map((e) => e.op))].join("+"));
            const wantOps = [...Array(P - 1).fill("reduce"), ...Array(P - 1).fill("copy")];
            if (ops.join() !== wantOps.join()) fail(`${where}: bucket ${b}'s steps add/copy as ${formatValue(ops)}; the ring adds in its P−1 reduce-scatter steps, then copies in its P−1 all-gather steps`, SECTION);
          });
        }
    } },
    { name: "the buckets of exercise 5.4", points: 3, run: (f) => {
        for (const caps of [CAPS, { bucketCapBytes: 8, firstBucketCapBytes: 8 }, { bucketCapBytes: 1000, firstBucketCapBytes: 1000 }, { bucketCapBytes: 40, firstBucketCapBytes: 100 }]) {
          const P = 3, o = { P, steps: 1, caps }, where = describeRun(o);
          const { bs, groups } = perBucket(train(f, o).log[0], caps, where);
          groups.forEach((g, b) => {
            const n = new Set(g.map((e) => e.step)).size;
            if (n !== 2 * (P - 1)) fail(`${where}: bucket ${b} (parameters ${bs[b].params.join(", ")}) took ${n} communication steps; one ring all-reduce per bucket takes 2(P−1) = ${2 * (P - 1)}`, `one all-reduce per bucket, over the bucket's whole range (exercise 5.4's buckets; ${SECTION})`);
          });
        }
    } },
    { name: "bucket order; a bucket waits for all its gradients", points: 3, run: (f) => {
        for (const [caps, readyOrder] of [[CAPS, [2, 3, 0, 1]], [{ bucketCapBytes: 8, firstBucketCapBytes: 8 }, [0, 1, 2, 3]], [CAPS, [3, 1, 2, 0]]] as [BucketCaps, number[]][]) {
          const o = { P: 4, steps: 3, caps, readyOrder }, where = describeRun(o);
          const d = checkWeights(f, o, `a bucket may start only when every one of its gradients is ready: before gradReady(i) parameter i's values are NaN (${SECTION})`);
          const { groups } = perBucket(d.log[0], caps, where);
          for (let b = 1; b < groups.length; b++) {
            const prevLast = Math.max(...groups[b - 1].map((e) => e.step)), first = Math.min(...groups[b].map((e) => e.step));
            if (!(first > prevLast)) fail(`${where}: bucket ${b} communicates at step ${first}, before bucket ${b - 1} has finished (step ${prevLast}); DDP all-reduces buckets one after another in bucket order`, SECTION);
          }
        }
    } },
    { name: "overlap: each bucket starts as soon as it may", points: 3, run: (f) => {
        for (const [caps, readyOrder] of [[CAPS, [3, 2, 1, 0]], [{ bucketCapBytes: 8, firstBucketCapBytes: 8 }, [2, 3, 0, 1]], [{ bucketCapBytes: 40, firstBucketCapBytes: 4 }, [3, 2, 1, 0]]] as [BucketCaps, number[]][]) {
          const o = { P: 3, steps: 1, caps, readyOrder }, where = describeRun(o);
          const log = train(f, o).log[0];
          const { bs, groups } = perBucket(log, caps, where);
          let prevEnd = 0;
          groups.forEach((g, b) => {
            const ready = Math.max(...bs[b].params.map((i) => log.readyMs[i]));
            const start = Math.min(...g.map((e) => e.t)) * 1e3, want = Math.max(ready, prevEnd);
            if (Math.abs(start - want) > 1e-9) {
              fail(`${where}: bucket ${b} starts at ${start.toFixed(6)} ms; it is ready at ${ready.toFixed(6)} ms and the stream is free at ${prevEnd.toFixed(6)} ms, so it should start at ${want.toFixed(6)} ms (backward ends at ${log.backwardMs.toFixed(6)} ms)`, `launch a bucket from gradReady, as soon as it may start, not later (${SECTION})`);
            }
            prevEnd = Math.max(...g.map((e) => e.tEnd)) * 1e3;
          });
        }
    } },
    { name: "random caps, ranks and ready orders", points: 2, run: (f) =>
        property(
          fc.tuple(fc.constantFrom(1, 2, 3, 4, 6, 8), fc.integer({ min: 1, max: 160 }), fc.integer({ min: 1, max: 160 }), fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 })),
          ([P, cap, first, readyOrder]) => {
            const o = { P, steps: 3, caps: { bucketCapBytes: cap, firstBucketCapBytes: first }, readyOrder };
            const d = checkWeights(f, o, `weights must match single-process training for any caps and ready order (${SECTION})`);
            perBucket(d.log[0], o.caps, describeRun(o));
          },
          { numRuns: 25 },
        ) },
  ],
});
