import * as fc from "fast-check";
import { CheckFailure, callSafely, defineExercise, expectThrows, fail, firstDifference, formatTolerance, property } from "../harness/index.js";
import { flashForwardTraffic, flashForwardWorkgroups as reference } from "../../lib/flash-attention/flashForwardWorkgroups.js";
import { createWorkgroupDevice, type CountingWorkgroupDevice } from "../../lib/flash-attention/createWorkgroupDevice.js";
import { referenceAttention } from "../../lib/flash-attention/referenceAttention.js";
import { makeCase } from "../../lib/flash-attention/arbitraries.js";
import type { AttentionShape, flashForwardWorkgroups, ForwardOptions, WorkgroupDevice } from "./flash-forward-workgroups.js";

type F = typeof flashForwardWorkgroups;
const TOL = { abs: 1e-5, rel: 1e-5 };
const SECTION = "the page's section \"Tiles in workgroup memory (WebGPU)\"";

/** One graded problem: shape, workgroup memory, mask, scale and the seed of Q, K, V. */
interface Problem { shape: AttentionShape; capacity: number; causal?: "bottom-right" | "top-left"; scale?: number; seed: number }

const describeProblem = (p: Problem) =>
  `flashForwardWorkgroups(device with capacity ${p.capacity}, ${JSON.stringify(p.shape)}, ${JSON.stringify({ ...(p.causal ? { causal: p.causal } : {}), ...(p.scale !== undefined ? { scale: p.scale } : {}) })}) with random Q, K (in [−2, 2)), V (seed ${p.seed})`;

/** What the student's code receives: capacity and dispatch (counters and memory stay with the grader). */
const facade = (dev: CountingWorkgroupDevice): WorkgroupDevice => Object.freeze({ capacity: dev.capacity, dispatch: dev.dispatch.bind(dev) });

async function runOn(impl: F, p: Problem, hint: string) {
  const c = makeCase(p.shape, p.seed, { causal: p.causal, amplitude: 2 });
  const o: ForwardOptions = { ...(p.causal ? { causal: p.causal } : {}), ...(p.scale !== undefined ? { scale: p.scale } : {}) };
  const dev = createWorkgroupDevice({ Q: c.q, K: c.k, V: c.v }, p.shape, p.capacity, o);
  await callSafely(impl, [facade(dev), p.shape, o], { label: describeProblem(p), hint });
  return { dev, expected: referenceAttention(c.q, c.k, c.v, p.shape, o) };
}

function same(name: "O" | "L", got: Float32Array, want: Float32Array, label: string, hint: string): void {
  const d = firstDifference(Array.from(got), Array.from(want), { tol: TOL });
  if (d) throw new CheckFailure({ call: label, detail: `${name}${d.path} is wrong (${d.reason}); flat index in (B, H, Nq${name === "O" ? ", d" : ""}); NaN means never stored`, expected: String(d.expected), received: String(d.received), tolerance: formatTolerance(TOL), hint });
}

const problemArb = (causal: boolean, maxN = 20) => fc.record({
  shape: fc.record({ B: fc.integer({ min: 1, max: 2 }), H: fc.integer({ min: 1, max: 2 }), Nq: fc.integer({ min: 1, max: maxN }), Nk: fc.integer({ min: 1, max: maxN }), d: fc.integer({ min: 1, max: 8 }) }),
  capacity: fc.integer({ min: 40, max: 400 }),
  causal: causal ? fc.constantFrom("bottom-right" as const, "top-left" as const) : fc.constant(undefined),
  scale: fc.constantFrom(undefined, 0.3, 1.7),
  seed: fc.integer({ min: 0, max: 1e6 }),
}).map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as unknown as Problem);

const agreement = (hint: string) => async (p: Problem, f: F) => {
  const { dev, expected } = await runOn(f, p, hint);
  same("O", dev.O, expected.O, describeProblem(p), hint);
  same("L", dev.L, expected.lse, describeProblem(p), hint);
};

export default defineExercise<F>({
  id: "10.6",
  title: "FlashAttention-2's forward pass in workgroup memory",
  chapter: "flash-attention",
  section: "tiles-in-workgroup-memory-web-gpu",
  solution: ["lib/flash-attention/", "lib/kernels/webgpu/"],
  file: "exercises/flash-attention/flash-forward-workgroups.ts",
  exportName: "flashForwardWorkgroups",
  signature: "flashForwardWorkgroups(device: {capacity, dispatch}, shape: {B, H, Nq, Nk, d}, o?: {causal?, scale?}): void",
  summary:
    "Write the kernel the page runs in WebGPU, in TypeScript against a model of the GPU: workgroups with a capacity of float32 elements of workgroup memory each, Q, K, V reachable only by copying rows into it, and every output row computed while its inputs are on chip. Leave O and the logsumexp L in slow memory. Graded on agreement with float64 attention (random shapes and capacities, both causal alignments, fully masked rows) and on slow-memory traffic against FlashAttention-2's bound for the tiles the capacity allows.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        const shape = { B: 1, H: 1, Nq: 1, Nk: 2, d: 1 };
        const dev = createWorkgroupDevice({ Q: Float32Array.of(1), K: Float32Array.of(0, Math.log(3)), V: Float32Array.of(4, 8) }, shape, 8);
        const label = "flashForwardWorkgroups(device with capacity 8, {B: 1, H: 1, Nq: 1, Nk: 2, d: 1}, {scale: 1}) with Q = [1], K = [0, ln 3], V = [4, 8]";
        const hint = `the weights are 1/4 and 3/4; ${SECTION}`;
        await callSafely(f, [facade(dev), shape, { scale: 1 }], { label, hint });
        same("O", dev.O, Float32Array.of(7), label, hint);
        same("L", dev.L, Float32Array.of(Math.log(4)), label, hint);
    } },
    { name: "O and L on random shapes and capacities", points: 3, run: (f) =>
      property(problemArb(false), (p) => agreement(`keep m, ℓ and O per row across key tiles, rescaling when the max grows; ${SECTION}`)(p, f), { numRuns: 14, seed: 61 }) },
    { name: "causal masks and fully masked rows", points: 2, run: async (f) => {
        const hint = `masked scores are −∞; a row with no kept key leaves O = 0, L = −Infinity (never e^{−∞ − (−∞)}); ${SECTION}`;
        const fixed: Problem[] = [
          { shape: { B: 1, H: 2, Nq: 9, Nk: 6, d: 3 }, capacity: 60, causal: "bottom-right", seed: 5 },
          { shape: { B: 2, H: 1, Nq: 5, Nk: 11, d: 2 }, capacity: 45, causal: "top-left", seed: 6 },
        ];
        for (const p of fixed) await agreement(hint)(p, f);
        await property(problemArb(true), (p) => agreement(hint)(p, f), { numRuns: 10, seed: 62 });
    } },
    { name: "slow-memory traffic within FlashAttention-2's bound", points: 3, run: (f) => property(problemArb(false, 40), async (p) => {
        const { dev } = await runOn(f, p, SECTION);
        const moved = dev.reads.Q + dev.reads.K + dev.reads.V + dev.writes.O + dev.writes.L;
        const bound = flashForwardTraffic(p.shape, p.capacity);
        if (moved > bound) {
          fail(`${describeProblem(p)}: moved ${moved} elements (Q ${dev.reads.Q}, K ${dev.reads.K}, V ${dev.reads.V} read; O ${dev.writes.O}, L ${dev.writes.L} written), FlashAttention-2 needs at most ${bound}`,
            `each query block reads K and V once: make the query tile as tall as the workgroup memory allows, and read Q and write O once; ${SECTION}`);
        }
    }, { numRuns: 12, seed: 63 }) },
    { name: "rejects a workgroup memory too small for one row (RangeError naming capacity)", points: 1, run: async (f) => {
        for (const [capacity, d] of [[9, 2], [15, 4], [1, 1]] as const) {
          const shape = { B: 1, H: 1, Nq: 2, Nk: 2, d };
          const z = new Float32Array(2 * d);
          const dev = createWorkgroupDevice({ Q: z, K: z, V: z }, shape, capacity);
          const label = `flashForwardWorkgroups(device with capacity ${capacity}, ${JSON.stringify(shape)})`;
          await expectThrows(f, [facade(dev), shape, {}], /capacity/, { label, hint: "check that one row each of Q, K and V and 4 more elements fit (3·d + 4) before dispatching", class: RangeError });
          if (dev.workgroups > 0) fail(`${label} dispatched ${dev.workgroups} workgroups before rejecting the capacity`, "validate before dispatch");
        }
    } },
  ],
});
