import * as fc from "fast-check";
import { planDispatch as libPlanDispatch } from "../../lib/expert-parallel/index.js";
import { mulberry32 } from "../../lib/nn/index.js";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import type { planDispatch, RankRouting, DispatchOptions } from "./plan-dispatch.js";

type F = typeof planDispatch;
const SEE = "see the section “Planning the dispatch”";
const reference: F = (routings, o) => {
  const p = libPlanDispatch(routings, o);
  return { kept: p.kept.map((k) => Array.from(k)), sendOrder: p.sendOrder.map((s) => [...s]), splits: p.splits.map((s) => [...s]), messages: p.messages.map((m) => ({ ...m })) };
};
/** Only the named parts of the plan. */
const part = (keys: (keyof ReturnType<F>)[]) => (f: F): F => (r, o) => { const out = f(r, o); return Object.fromEntries(keys.map((k) => [k, out?.[k]])) as ReturnType<F>; };

const opts = (o: Partial<DispatchOptions>): DispatchOptions => ({ numExperts: 4, topK: 1, epSize: 2, capacityFactor: null, dropPolicy: "position", hiddenSize: 2, ...o });

/** Random routings: P ranks, N_r tokens each with k distinct experts, gates on a coarse grid (so ties happen). */
const routingsArb = fc.integer({ min: 0, max: 1e6 }).map((seed) => {
  const rng = mulberry32(seed), P = 1 + Math.floor(rng() * 4), L = 1 + Math.floor(rng() * 3), E = P * L, k = 1 + Math.floor(rng() * E);
  const routings: RankRouting[] = Array.from({ length: P }, () => {
    const N = Math.floor(rng() * 8), experts: number[] = [], gates: number[] = [];
    for (let t = 0; t < N; t++) Array.from({ length: E }, (_, e) => e).sort(() => rng() - 0.5).slice(0, k).forEach((e) => { experts.push(e); gates.push(Math.round(rng() * 4) / 4); });
    return { experts, gates };
  });
  return { routings, o: opts({ numExperts: E, topK: k, epSize: P, hiddenSize: 1 + Math.floor(rng() * 3), capacityFactor: rng() < 0.3 ? null : Math.round(rng() * 8) / 4 + 0.25, dropPolicy: rng() < 0.5 ? "position" : "probs" }) };
});

export default defineExercise<F>({
  id: "14.3",
  title: "the dispatch plan: who sends which token where",
  chapter: "expert-parallel",
  file: "exercises/expert-parallel/plan-dispatch.ts",
  exportName: "planDispatch",
  signature: "planDispatch(routings: RankRouting[], o: DispatchOptions): {kept, sendOrder, splits, messages}",
  summary: "From each rank's routing, the dispatch all-to-all of an expert-parallel MoE layer: which pairs each rank keeps under its own capacity and drop policy (ties to the lower token index), its send order (by expert, then token), the splits, and every message's offset, length and landing offset. Graded on random routings with capacities that bind, k up to E, ranks and experts without tokens.",
  reference,
  section: "planning-the-dispatch",
  solution: ["lib/expert-parallel/planDispatch.ts"],
  checks: [
    { name: "worked example (no capacity)", points: 1, run: async (f) => {
        await expectSame(f, reference, [[{ experts: [1, 0], gates: [1, 1] }, { experts: [1, 1], gates: [1, 1] }], opts({ numExperts: 2, epSize: 2, hiddenSize: 3 })], { hint: `the stub's @example; ${SEE}` });
        await expectSame(f, reference, [[{ experts: [3, 0, 2, 0], gates: [1, 1, 1, 1] }, { experts: [1, 1, 3], gates: [1, 1, 1] }], opts({})], { hint: SEE });
    } },
    { name: "drops: each rank's own capacity, both policies, ties to the lower token index", points: 2, run: async (f) => {
        const kept = part(["kept"]);
        const r = [{ experts: [0, 0, 0, 0], gates: [0.1, 0.4, 0.4, 0.2] }, { experts: [0, 1], gates: [1, 1] }];
        for (const dropPolicy of ["position", "probs"] as const) {
          // rank 0: ⌈4·1/2·1⌉ = 2 slots for expert 0; rank 1: ⌈2·1/2·1⌉ = 1, exactly full
          await expectSame(kept(f), kept(reference), [r, opts({ numExperts: 2, dropPolicy, capacityFactor: 1 })], { hint: `capacity is computed by each rank from its own tokens; "probs" keeps the largest gates, equal gates go to the earlier token (${SEE})` });
        }
        await expectSame(kept(f), kept(reference), [[{ experts: [0, 1, 1, 0, 0, 1], gates: [0.5, 0.5, 0.5, 0.5, 0.5, 0.5] }, { experts: [], gates: [] }], opts({ numExperts: 2, topK: 2, capacityFactor: 0.5, dropPolicy: "probs" })], { hint: `k = E: every token goes to every expert; a rank without tokens keeps nothing (${SEE})` });
    } },
    { name: "send order: by expert, then token (k = E, experts without tokens)", points: 1, run: async (f) => {
        const order = part(["sendOrder", "splits"]);
        await expectSame(order(f), order(reference), [[{ experts: [2, 0, 1, 0, 2, 1], gates: [1, 1, 1, 1, 1, 1] }, { experts: [1, 2, 0, 2, 1, 0], gates: [1, 1, 1, 1, 1, 1] }, { experts: [], gates: [] }], opts({ numExperts: 3, topK: 3, epSize: 3 })], { hint: SEE });
        await expectSame(order(f), order(reference), [[{ experts: [3, 3, 3], gates: [1, 1, 1] }, { experts: [3], gates: [1] }], opts({})], { hint: `experts 0–2 get nothing: their segments are empty, the splits are 0 (${SEE})` });
    } },
    { name: "every message's offset, length and landing offset (random routings)", points: 2, run: (f) => property(routingsArb, async ({ routings, o }) => {
        await expectSame(f, reference, [routings, o], { hint: `offsets are in elements (tokens · h); the receiver's buffer is packed sender by sender, its own segment included (${SEE})` });
    }, { numRuns: 60 }) },
    { name: "routings not one per rank; experts and gates of different lengths", points: 1, run: async (f) => {
        await expectThrows(f, [[{ experts: [0], gates: [1] }], opts({})], /rout/, { class: RangeError, hint: "one routing per rank" });
        await expectThrows(f, [[{ experts: [0, 1], gates: [1] }, { experts: [], gates: [] }], opts({})], /gates|experts/, { class: RangeError, hint: "experts and gates are (N_r, k) each" });
    } },
  ],
});
