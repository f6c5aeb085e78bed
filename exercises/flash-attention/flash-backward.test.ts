import * as fc from "fast-check";
import { CheckFailure, callSafely, defineExercise, expectThrows, fail, firstDifference, formatTolerance, property } from "../harness/index.js";
import { flashBackwardIO, flashBackwardTiled as reference } from "../../lib/flash-attention/flashBackwardTiled.js";
import { createSlowMemory, SLOW_TENSORS, type CountingSlowMemory, type SlowMemory, type SlowTensorName } from "../../lib/flash-attention/slowMemory.js";
import { referenceAttention } from "../../lib/flash-attention/referenceAttention.js";
import { referenceAttentionBackward } from "../../lib/flash-attention/referenceAttentionBackward.js";
import { makeCase } from "../../lib/flash-attention/arbitraries.js";
import { randomTensor } from "../../lib/flash-attention/randomTensor.js";
import type { AttentionShape, flashBackwardTiled, TiledBackwardOptions } from "./flash-backward.js";

type F = typeof flashBackwardTiled;
type Grad = "dQ" | "dK" | "dV";
const TOL = { abs: 1e-5, rel: 1e-4 };
const SECTION = "the page's section \"The backward pass, tile by tile\"";

/** What the student's code receives: read and write only (the counters and tensors stay with the grader). */
const facade = (mem: CountingSlowMemory): SlowMemory => Object.freeze({
  read: (name: SlowTensorName, bh: number, r0: number, r1: number) => mem.read(name, bh, r0, r1),
  write: (name: SlowTensorName, bh: number, r0: number, r1: number, values: ArrayLike<number>) => mem.write(name, bh, r0, r1, values),
});

/** One graded problem: a shape, tiles, mask, scale and the seed of its tensors. */
interface Problem { shape: AttentionShape; Br: number; Bc: number; causal?: "bottom-right" | "top-left"; scale?: number; seed: number }

const describeProblem = (p: Problem) =>
  `flashBackwardTiled(mem, ${JSON.stringify(p.shape)}, ${JSON.stringify({ Br: p.Br, Bc: p.Bc, ...(p.causal ? { causal: p.causal } : {}), ...(p.scale !== undefined ? { scale: p.scale } : {}) })}) with random Q, K (in [−2, 2)), V, dO (seed ${p.seed})`;

/** Runs the forward pass with the lib reference, puts everything in a counted slow memory and runs impl on it. */
async function runOn(impl: F, p: Problem, hint: string): Promise<{ mem: CountingSlowMemory; expected: Record<Grad, Float32Array> }> {
  const c = makeCase(p.shape, p.seed, { causal: p.causal, amplitude: 2 });
  const opts = { ...c.opts, ...(p.scale !== undefined ? { scale: p.scale } : {}) };
  const fwd = referenceAttention(c.q, c.k, c.v, p.shape, opts);
  const dO = randomTensor(c.q.length, p.seed + 11);
  const expected = referenceAttentionBackward(c.q, c.k, c.v, dO, p.shape, opts);
  const mem = createSlowMemory({ Q: c.q, K: c.k, V: c.v, O: fwd.O, dO, L: fwd.lse }, p.shape, { Br: p.Br, Bc: p.Bc });
  const o: TiledBackwardOptions = { Br: p.Br, Bc: p.Bc, ...(p.causal ? { causal: p.causal } : {}), ...(p.scale !== undefined ? { scale: p.scale } : {}) };
  await callSafely(impl, [facade(mem), p.shape, o], { label: describeProblem(p), hint });
  return { mem, expected };
}

function sameGradient(name: Grad, mem: CountingSlowMemory, expected: Float32Array, label: string, hint: string): void {
  const d = firstDifference(Array.from(mem.tensors[name]), Array.from(expected), { tol: TOL });
  if (d) throw new CheckFailure({ call: label, detail: `${name}${d.path} is wrong (${d.reason}); flat index in (B, H, N, d)`, expected: String(d.expected), received: String(d.received), tolerance: formatTolerance(TOL), hint });
}

const problemArb = (causal: boolean) => fc.record({
  shape: fc.record({ B: fc.integer({ min: 1, max: 2 }), H: fc.integer({ min: 1, max: 2 }), Nq: fc.integer({ min: 1, max: 12 }), Nk: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 6 }) }),
  Br: fc.integer({ min: 1, max: 5 }), Bc: fc.integer({ min: 1, max: 5 }),
  causal: causal ? fc.constantFrom("bottom-right" as const, "top-left" as const) : fc.constant(undefined),
  scale: fc.constantFrom(undefined, 0.3, 1.7),
  seed: fc.integer({ min: 0, max: 1e6 }),
}).map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as unknown as Problem);

/** A check of one gradient on random unmasked problems: partial credit per gradient. */
const gradientCheck = (name: Grad, hint: string) => async (f: F) =>
  property(problemArb(false), async (p) => {
    const { mem, expected } = await runOn(f, p, hint);
    sameGradient(name, mem, expected[name], describeProblem(p), hint);
  }, { numRuns: 12, seed: name.charCodeAt(1) });

export default defineExercise<F>({
  id: "10.5",
  title: "build it: FlashAttention's backward pass, tile by tile",
  chapter: "flash-attention",
  build: true,
  section: "the-backward-pass-tile-by-tile",
  file: "exercises/flash-attention/flash-backward.ts",
  exportName: "flashBackwardTiled",
  signature: "flashBackwardTiled(mem: SlowMemory, shape: {B, H, Nq, Nk, d}, o: {Br, Bc, causal?, scale?}): void",
  summary:
    "From Q, K, V, O, dO and the logsumexp L in a counted slow memory (tiles of at most Br query rows and Bc key rows per access), write dQ, dK and dV of attention for every head without an Nq×Nk matrix (FlashAttention-2, Algorithm 2). Graded per gradient against the analytic gradient on random shapes, ragged tiles, both causal alignments and fully masked rows, and on the slow-memory traffic, tensor by tensor, against the page's count for Algorithm 2. Bad tile sizes throw a RangeError naming Br or Bc.",
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => {
        const shape = { B: 1, H: 1, Nq: 1, Nk: 2, d: 1 };
        const mem = createSlowMemory({ Q: Float32Array.of(1), K: Float32Array.of(0, Math.log(3)), V: Float32Array.of(4, 8), O: Float32Array.of(7), dO: Float32Array.of(1), L: Float32Array.of(Math.log(4)) }, shape, { Br: 1, Bc: 1 });
        const label = "flashBackwardTiled(mem, {B: 1, H: 1, Nq: 1, Nk: 2, d: 1}, {Br: 1, Bc: 1, scale: 1}) with Q = [1], K = [0, ln 3], V = [4, 8], O = [7], dO = [1], L = [ln 4]";
        const hint = `P = [1/4, 3/4]; ${SECTION} works this example`;
        await callSafely(f, [facade(mem), shape, { Br: 1, Bc: 1, scale: 1 }], { label, hint });
        sameGradient("dV", mem, Float32Array.of(0.25, 0.75), label, hint);
        sameGradient("dK", mem, Float32Array.of(-0.75, 0.75), label, hint);
        sameGradient("dQ", mem, Float32Array.of(0.75 * Math.log(3)), label, hint);
    } },
    { name: "dV on random shapes and tiles", points: 5, run: gradientCheck("dV", `dV collects, for each key, the weights P of every query times dO; ${SECTION}`) },
    { name: "dK on random shapes and tiles", points: 5, run: gradientCheck("dK", `dK needs dS, the gradient through the softmax (with D), and the scale; ${SECTION}`) },
    { name: "dQ on random shapes and tiles", points: 4, run: gradientCheck("dQ", `dQ sums over every key block: read it back, add, write it again; ${SECTION}`) },
    { name: "causal masks and fully masked rows", points: 3, run: async (f) => {
        const hint = `masked entries have P = 0 in the backward pass too; a row with L = −Infinity contributes nothing (no NaN); ${SECTION}`;
        const fixed: Problem[] = [
          { shape: { B: 1, H: 2, Nq: 6, Nk: 3, d: 2 }, Br: 4, Bc: 2, causal: "bottom-right", seed: 5 },
          { shape: { B: 2, H: 1, Nq: 5, Nk: 11, d: 3 }, Br: 2, Bc: 4, causal: "top-left", seed: 6 },
          { shape: { B: 1, H: 1, Nq: 7, Nk: 7, d: 4 }, Br: 3, Bc: 3, causal: "bottom-right", scale: 0.8, seed: 7 },
        ];
        const one = async (p: Problem) => {
          const { mem, expected } = await runOn(f, p, hint);
          for (const g of ["dV", "dK", "dQ"] as const) sameGradient(g, mem, expected[g], describeProblem(p), hint);
        };
        for (const p of fixed) await one(p);
        await property(problemArb(true), one, { numRuns: 10, seed: 12 });
    } },
    { name: "slow-memory traffic equals Algorithm 2's", points: 4, run: (f) => property(problemArb(false), async (p) => {
        const { mem } = await runOn(f, p, SECTION);
        const io = flashBackwardIO(p.shape, p);
        for (const [kind, got, want] of [["reads", mem.reads, io.reads], ["writes", mem.writes, io.writes]] as const) {
          for (const t of SLOW_TENSORS) {
            if (got[t] !== want[t]) {
              fail(`${describeProblem(p)}: ${kind} of ${t} were ${got[t]} elements, Algorithm 2 needs ${want[t]}`,
                got[t] > want[t] ? `more traffic than needed: which tile can stay on chip across the inner loop, and what needs to cross only once? ${SECTION}` : `less traffic than Algorithm 2: keep only one (query block, key block) pair of tiles on chip, and write every gradient; ${SECTION}`);
            }
          }
        }
    }, { numRuns: 10, seed: 13 }) },
    { name: "rejects bad tile sizes (RangeError naming Br or Bc)", points: 1, run: async (f) => {
        const shape = { B: 1, H: 1, Nq: 2, Nk: 2, d: 1 };
        const z = new Float32Array(2);
        for (const [o, re] of [[{ Br: 0, Bc: 2 }, /\bBr\b/], [{ Br: 2, Bc: 1.5 }, /\bBc\b/], [{ Br: -1, Bc: 2 }, /\bBr\b/], [{ Br: 2, Bc: NaN }, /\bBc\b/]] as const) {
          const mem = createSlowMemory({ Q: z, K: z, V: z, O: z, dO: z, L: z }, shape, { Br: 2, Bc: 2 });
          const label = `flashBackwardTiled(mem, ${JSON.stringify(shape)}, ${JSON.stringify(o)})`;
          await expectThrows(f, [facade(mem), shape, o], re, { label, hint: "check o.Br and o.Bc before touching memory: integers >= 1" });
          try { await f(facade(mem), shape, o); } catch (e) {
            if ((e as Error)?.name !== "RangeError") fail(`${label} threw a ${(e as Error)?.name}, the contract asks for a RangeError`, "throw new RangeError(…)");
          }
          if (Object.values(mem.reads).some((n) => n > 0)) fail(`${label} read slow memory before rejecting the tile sizes`, "validate o.Br and o.Bc first");
        }
    } },
  ],
});
