import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { packChunks } from "./packChunks.js";
import { searchChunkSize } from "./searchChunkSize.js";
import { recordMemStats } from "./recordMemStats.js";
import { simulateGemini } from "./simulateGemini.js";
import { geminiDemo } from "./geminiDemo.js";
import { corpus, createModel, DEFAULT_MODEL } from "../nn/index.js";

/** Brute force: waste of every size from max to max + range, first minimum. */
function bruteForce(sizes: number[], range: number) {
  const lo = Math.max(...sizes);
  let best = { size: lo, waste: Infinity };
  for (let cs = lo; cs <= lo + range; cs++) {
    let waste = 0, left = 0, opened = false;
    for (const s of sizes) { if (!opened || s > left) { waste += opened ? left : 0; left = cs; opened = true; } left -= s; }
    waste += left;
    if (waste < best.waste) best = { size: cs, waste };
  }
  return best;
}

describe("packChunks(sizes, chunkSize)", () => {
  it("worked example: [3, 4, 2, 5] in chunks of 6 is [3] [4, 2] [5], 4 elements wasted", () => {
    const r = packChunks([3, 4, 2, 5], 6);
    expect(r.chunks.map((c) => c.params)).toEqual([[0], [1, 2], [3]]);
    expect(r.wasteElements).toBe(4);
  });

  it("every parameter is in exactly one chunk, in order, and no chunk overflows", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 700 }), (sizes, extra) => {
      const cs = Math.max(...sizes) + extra;
      const { chunks, wasteElements } = packChunks(sizes, cs);
      expect(chunks.flatMap((c) => c.params)).toEqual(sizes.map((_, i) => i));
      for (const c of chunks) expect(c.usedElements).toBeLessThanOrEqual(cs);
      expect(wasteElements).toBe(chunks.length * cs - sizes.reduce((a, b) => a + b, 0));
    }));
  });

  it("a chunk smaller than the largest parameter is an error naming the field and the parameter", () => {
    expect(() => packChunks([10, 300, 20], 256)).toThrow(/^chunkSize must be >= the largest parameter \(sizes\[1\] = 300 elements\), got 256$/);
    expect(() => packChunks([1, 0], 5)).toThrow(/^sizes\[1\] must be an integer >= 1, got 0$/);
  });
});

describe("searchChunkSize(sizes, options)", () => {
  it("worked example: [3, 4, 2, 5] packs without waste at 7", () => {
    expect(searchChunkSize([3, 4, 2, 5], { searchRange: 4, searchInterval: 1 })).toMatchObject({ chunkSize: 7, wasteElements: 0 });
  });

  it("finds the brute-force minimum with interval 1, on sizes that divide nothing", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 25 }), fc.integer({ min: 0, max: 60 }), (sizes, range) => {
      const r = searchChunkSize(sizes, { searchRange: range, searchInterval: 1 });
      const b = bruteForce(sizes, range);
      expect([r.chunkSize, r.wasteElements]).toEqual([b.size, b.waste]);
    }));
  });

  it("starts at the largest parameter rounded up to the interval and respects the minimum", () => {
    const r = searchChunkSize([5, 17, 3], { searchRange: 20, searchInterval: 8, minChunkSize: 1 });
    expect(r.candidates.map((x) => x.chunkSize)).toEqual([24, 32, 40]);
    expect(searchChunkSize([5], { searchRange: 0, searchInterval: 4, minChunkSize: 30 }).chunkSize).toBe(32);
    expect(() => searchChunkSize([5], { searchRange: 0, searchInterval: 0 })).toThrow(/^searchInterval must be an integer >= 1, got 0$/);
  });
});

describe("recordMemStats(model, rows) and simulateGemini(config) on lib/nn's model", () => {
  const model = createModel({ ...DEFAULT_MODEL, vocabSize: corpus().vocab.size });
  const sizes = model.params.map((p) => p.data.length);
  const ops = recordMemStats(model, 128);
  const chunkSize = searchChunkSize(sizes, { searchRange: 4096, searchInterval: 32 }).chunkSize;
  const peakNonModel = Math.max(...ops.map((o) => o.nonModelBytes));
  const modelBytes = 2 * sizes.reduce((a, b) => a + b, 0);

  it("records forward in layer order then backward in reverse, each operator with its own layer's parameters", () => {
    expect(ops.map((o) => o.name)).toEqual([...model.layers.map((l) => `forward ${l.name}`), ...[...model.layers].reverse().map((l) => `backward ${l.name}`)]);
    expect(ops[0].params.map((i) => model.params[i])).toEqual(model.layers[0].params);
    expect(ops.every((o) => o.nonModelBytes > 0)).toBe(true);
  });

  it("with room for everything, auto keeps every chunk on the GPU after the first step: no moves in the steady step", () => {
    const r = simulateGemini({ sizes, ops, chunkSize, policy: "auto", gpuCapacityBytes: 10 * (modelBytes + peakNonModel) });
    expect(r.fits).toBe(true);
    expect(r.perStep[1]).toEqual({ h2dMoves: 0, d2hMoves: 0, h2dBytes: 0, d2hBytes: 0 });
  });

  it("cpu moves every used chunk in and out at every operator, and its GPU holds one operator's chunks at most", () => {
    const r = simulateGemini({ sizes, ops, chunkSize, policy: "cpu", gpuCapacityBytes: 10 * (modelBytes + peakNonModel) });
    const used = ops.reduce((a, _, i) => a + new Set(ops[i].params.map((p) => r.chunks.findIndex((c) => c.params.includes(p)))).size, 0);
    expect(r.perStep[0].h2dMoves).toBe(used);
    expect(r.perStep[0].d2hMoves).toBe(used);
    expect(Math.max(...r.events.map((e) => e.onGpu.length))).toBeLessThanOrEqual(Math.max(...ops.map((o) => o.params.length)));
  });

  it("the chapter's scenario: auto fits as recorded, runs out of memory when non-model data grows ×1.2 after warm-up; cpu fits and moves more", () => {
    const d = geminiDemo();
    const run = (policy: "auto" | "cpu", g: number) => simulateGemini({ sizes: d.sizes, ops: d.ops, chunkSize: d.search.chunkSize, policy, gpuCapacityBytes: d.gpuCapacityBytes, nonModelGrowth: g });
    expect(run("auto", 1).fits).toBe(true);
    const auto = run("auto", d.nonModelGrowth);
    expect(auto.fits).toBe(false);
    expect(auto.oom?.reason).toBe("cuda");
    const cpu = run("cpu", d.nonModelGrowth);
    expect(cpu.fits).toBe(true);
    expect(cpu.perStep[1].h2dMoves).toBeGreaterThan(run("auto", 1).perStep[1].h2dMoves);
  });

  it("static with fraction 1 never moves a chunk; with fraction 0 it moves what cpu moves", () => {
    const big = 10 * (modelBytes + peakNonModel);
    expect(simulateGemini({ sizes, ops, chunkSize, policy: "static", gpuFraction: 1, gpuCapacityBytes: big }).perStep[0].h2dMoves).toBe(0);
    const s0 = simulateGemini({ sizes, ops, chunkSize, policy: "static", gpuFraction: 0, gpuCapacityBytes: big });
    const cpu = simulateGemini({ sizes, ops, chunkSize, policy: "cpu", gpuCapacityBytes: big });
    expect(s0.perStep).toEqual(cpu.perStep);
  });

  it("chunks follow the parameters' own order (GeminiDDP's \"param initialized order\"), first use only with paramOrder: \"runtime\"", () => {
    // Four parameters created 0, 1, 2, 3 but used 3, 1, 2, 0: chunks of 6 elements.
    const sz = [3, 4, 2, 5], op = (name: string, params: number[]) => ({ name, phase: "forward" as const, layer: params[0]!, params, nonModelBytes: 0 });
    const ops4 = [op("a", [3]), op("b", [1]), op("c", [2]), op("d", [0])];
    const run4 = (paramOrder?: "initialized" | "runtime") => simulateGemini({ sizes: sz, ops: ops4, chunkSize: 6, policy: "cpu", gpuCapacityBytes: 1e9, numSteps: 1, paramOrder }).chunks.map((c) => c.params);
    expect(run4()).toEqual([[0], [1, 2], [3]]); // packChunks([3, 4, 2, 5], 6), the worked example above
    expect(run4("runtime")).toEqual([[3], [1, 2], [0]]); // sizes 5 | 4 + 2 | 3
    expect(() => simulateGemini({ sizes: sz, ops: ops4, chunkSize: 6, policy: "cpu", gpuCapacityBytes: 1e9, paramOrder: "first-use" as never })).toThrow(/^paramOrder must be "initialized" or "runtime", got "first-use"$/);
  });

  it("bad input names the field", () => {
    expect(() => simulateGemini({ sizes, ops, chunkSize: 1, policy: "cpu", gpuCapacityBytes: 1e9 })).toThrow(/^chunkSize must be >= the largest parameter/);
    expect(() => simulateGemini({ sizes, ops, chunkSize, policy: "cuda" as never, gpuCapacityBytes: 1e9 })).toThrow(/^policy must be/);
    expect(() => simulateGemini({ sizes, ops, chunkSize, policy: "static", gpuFraction: 2, gpuCapacityBytes: 1e9 })).toThrow(/^gpuFraction must be a number in \[0, 1\], got 2$/);
    expect(() => simulateGemini({ sizes, ops, chunkSize, policy: "cpu", gpuCapacityBytes: 0 })).toThrow(/^gpuCapacityBytes must be a number >= 1, got 0$/);
  });
});
