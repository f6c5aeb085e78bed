import * as fc from "fast-check";
import { defineExercise, expectThrows, callSafely, property, fail } from "../harness/index.js";
import { zbVOrder, timeOrders, checkSchedule, stageSpans, busyTimes, peakInFlight, type Schedule, type Op } from "../../lib/pipeline-parallel/index.js";
import type { zbVOrders, VPass } from "./zb-v-order.js";

type F = typeof zbVOrders;
const reference: F = (p, m) => {
  for (const [k, x] of [["p", p], ["m", m]] as const) if (!Number.isInteger(x) || x < 1) throw new RangeError(`${k} must be an integer >= 1, got ${x}`);
  return Array.from({ length: p }, (_, r) => zbVOrder(p, r, m) as VPass[]);
};
const U = { forward: 1, backward: 1, weight: 1 };
const see = "see the section #zero-bubble-zb-h1-and-what-came-after and its grids";

/** Times the student's orders on the V (F = B = W); fails with the course's message when they cannot run or break a rule. */
async function run(f: F, p: number, m: number): Promise<Schedule> {
  const orders = await callSafely(f, [p, m], { hint: see });
  const call = `zbVOrders(${p}, ${m})`;
  if (!Array.isArray(orders) || orders.length !== p || !orders.every(Array.isArray)) fail(`${call} must return p = ${p} arrays (one order per device), got ${JSON.stringify(orders)?.slice(0, 80)}`, see);
  let s: Schedule;
  try {
    s = { name: "zb-v", p, m, v: 2, placement: "v", splitBackward: true, events: timeOrders(orders as Op[][], p, m, 2, U, true, { placement: "v" }) };
  } catch (e) {
    return fail(`${call}: ${(e as Error).message}`, `every input a pass waits for must come earlier in some device's order; ${see}`);
  }
  const bad = checkSchedule(s, { times: U });
  if (bad.length) fail(`${call}: ${bad.slice(0, 2).join("; ")}`, `each of the 6m passes of a device once: F, B and W of every micro-batch on both chunks; ${see}`);
  return s;
}
const bubble = (s: Schedule) => Math.max(...stageSpans(s)) - Math.max(...busyTimes(s));
// p up to 12: beyond the page's sliders (p ≤ 8), so that an order read off the page's grids without its rule does not pass
const arbBig = fc.integer({ min: 1, max: 12 }).chain((p) => fc.tuple(fc.constant(p), fc.integer({ min: 2 * p - 1, max: 2 * p - 1 + 12 })));
const arbSmall = fc.integer({ min: 2, max: 12 }).chain((p) => fc.tuple(fc.constant(p), fc.integer({ min: 1, max: 2 * p - 2 })));
const arbAny = fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 32 }));

export default defineExercise<F>({
  id: "7.5",
  title: "a zero-bubble schedule on a V (ZB-V)",
  chapter: "pipeline-parallel",
  section: "zero-bubble-zb-h1-and-what-came-after",
  file: "exercises/pipeline-parallel/zb-v-order.ts",
  exportName: "zbVOrders",
  signature: "zbVOrders(p: number, m: number): { kind: \"F\" | \"B\" | \"W\", microBatch: number, chunk: 0 | 1 }[][]",
  summary:
    "Write the per-device order of a V-shaped schedule (two chunks per device: chunk 0 on the way down, chunk 1 on the way up) for any p and m. The course times your orders and its validity checker grades them: zero bubble inside every device's span when m ≥ 2p − 1 (F = B = W), never more than 1F1B's p micro-batches of activations on a device, and no more idle than the course's ZB-V when m is small. The page draws the course's ZB-V for p ≤ 8; the grader goes to p = 12.",
  reference,
  solution: ["lib/pipeline-parallel/zbV.ts#zbVOrder"],
  checks: [
    { name: "the stub's example and p = 2, m = 3", points: 1, run: async (f) => {
        for (const [p, m] of [[1, 1], [2, 3]]) {
          const s = await run(f, p, m);
          if (bubble(s) > 1e-9) fail(`zbVOrders(${p}, ${m}): a device idles ${bubble(s)} units between its first and last pass`, see);
        }
    } },
    { name: "passes the course's validity checker", points: 2, run: (f) => property(arbAny, async ([p, m]) => { await run(f, p, m); }, { numRuns: 40 }) },
    { name: "zero bubble when m ≥ 2p − 1", points: 3, run: (f) =>
        property(arbBig, async ([p, m]) => {
          const s = await run(f, p, m), b = bubble(s);
          if (b > 1e-9) fail(`zbVOrders(${p}, ${m}) with F = B = W: the busiest device's span is ${Math.max(...stageSpans(s))} for ${Math.max(...busyTimes(s))} of work (idle ${b}); ZB-V has none`, `which device waits first, and for what? A device can start the way up while the way down is still filling; ${see}`);
        }, { numRuns: 40 }) },
    { name: "at most p micro-batches in flight on every device (1F1B's peak)", points: 2, run: (f) =>
        property(arbAny, async ([p, m]) => {
          const peaks = peakInFlight(await run(f, p, m));
          peaks.forEach((x, d) => { if (x > p + 1e-9) fail(`zbVOrders(${p}, ${m}): device ${d} holds ${x} micro-batches' activations at once (at most p = ${p})`, `a W frees its pass's half micro-batch; how many forwards before the first backward? ${see}`); });
        }, { numRuns: 40 }) },
    { name: "few micro-batches (m < 2p − 1): no more idle than the course's ZB-V", points: 1, run: (f) =>
        property(arbSmall, async ([p, m]) => {
          const mine = bubble(await run(f, p, m)), ref = bubble(await run(reference, p, m));
          if (mine > ref + 1e-9) fail(`zbVOrders(${p}, ${m}): the busiest device idles ${mine} units, the course's ZB-V ${ref}`, `with fewer than 2p − 1 micro-batches the ramp cannot be filled; which of your device's waits could a pass of another micro-batch or chunk fill? ${see}`);
        }, { numRuns: 30 }) },
    { name: "bad input names the field", points: 1, run: async (f) => {
        await expectThrows(f, [0, 4], /^p must be an integer >= 1, got 0$/, { class: RangeError, hint: "the stub's contract names the error" });
        await expectThrows(f, [3, 1.5], /^m must be an integer >= 1, got 1.5$/, { class: RangeError, hint: "the stub's contract names the error" });
    } },
  ],
});
