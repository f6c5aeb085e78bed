import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { torchChunk, shardDim0, flatParameterLayout } from "./shardDim0.js";
import { deviceMesh, resolveReshardAfterForward, postForwardGroups } from "./deviceMesh.js";
import { chunkBounds } from "../collectives/index.js";

const sizes = (rows: number, n: number) => torchChunk(rows, n).map((c) => c.end - c.start);

describe("torchChunk and shardDim0: FSDP2's per-parameter Shard(0)", () => {
  it("torchChunk equals torch.chunk's documented examples, padded with empty chunks as _chunk_with_empty", () => {
    // PyTorch docs: torch.arange(11).chunk(6) → 2,2,2,2,2,1; arange(12).chunk(6) → six of 2; arange(13).chunk(6) → 3,3,3,3,1 (five chunks)
    expect(sizes(11, 6)).toEqual([2, 2, 2, 2, 2, 1]);
    expect(sizes(12, 6)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(sizes(13, 6)).toEqual([3, 3, 3, 3, 1, 0]);
    // numpy.array_split (the course's ZeRO partition) cuts 13 differently
    expect(chunkBounds(13, 6).map((c) => c.end - c.start)).toEqual([3, 2, 2, 2, 2, 2]);
  });

  it("a parameter with fewer rows than ranks: one row each, then empty chunks (shape [3, 5] on 8 ranks)", () => {
    const l = shardDim0([3, 5], 8);
    expect(l.rows.map((r) => r.end - r.start)).toEqual([1, 1, 1, 0, 0, 0, 0, 0]);
    expect(l.paddedShardElements).toBe(5); // every rank keeps a padded chunk of one row: 8 × 5 = 40 elements gathered for 15
    expect(l.rows[5]).toEqual({ start: 3, end: 3 });
  });

  it("the worked example of the page: a 2-layer model on P = 4, by hand", () => {
    // layer a: W [5, 2], b [3]; layer b: W [2, 4], b [4]
    expect(shardDim0([5, 2], 4)).toEqual({ shape: [5, 2], rowElements: 2, rows: [{ start: 0, end: 2 }, { start: 2, end: 4 }, { start: 4, end: 5 }, { start: 5, end: 5 }], paddedRows: 2, paddedShardElements: 4 });
    expect(shardDim0([3], 4).paddedShardElements).toBe(1);
    expect(shardDim0([2, 4], 4).rows.map((r) => r.end - r.start)).toEqual([1, 1, 0, 0]);
    expect(shardDim0([2, 4], 4).paddedShardElements).toBe(4);
    // FSDP1 flattens each unit: a = 13 elements → ⌈13/4⌉ = 4 per rank (3 of padding); FSDP2 pads each parameter: 4 + 1 = 5 per rank (7 of padding)
    expect(flatParameterLayout([10, 3], 4).paddedShardElements).toBe(4);
  });

  it("P = 1: one chunk holding everything, no padding", () => {
    expect(shardDim0([7, 3], 1)).toMatchObject({ rows: [{ start: 0, end: 7 }], paddedShardElements: 21 });
  });

  it("property: the chunks tile the rows in order, all but the tail have ⌈n/P⌉ rows, and FSDP2's padding is at least FSDP1's", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 16 }), (rows, cols, P) => {
      const l = shardDim0([rows, cols], P), c = Math.ceil(rows / P);
      expect(l.rows[0].start).toBe(0);
      expect(l.rows[P - 1].end).toBe(rows);
      l.rows.forEach((r, k) => {
        if (k > 0) expect(r.start).toBe(l.rows[k - 1].end);
        expect(r.end - r.start).toBeLessThanOrEqual(c);
        if (r.end < rows) expect(r.end - r.start).toBe(c);
      });
      expect(l.paddedShardElements * P).toBeGreaterThanOrEqual(rows * cols);
      expect(flatParameterLayout([rows * cols], P).paddedShardElements).toBeLessThanOrEqual(l.paddedShardElements);
    }), { numRuns: 300, seed: 7 });
  });

  it("errors name the field", () => {
    expect(() => torchChunk(-1, 2)).toThrow("rows must be an integer >= 0, got -1");
    expect(() => torchChunk(4, 0)).toThrow("numChunks must be an integer >= 1, got 0");
    expect(() => shardDim0([0, 3], 2)).toThrow("shape must be a list of integers >= 1, got [0,3]");
    expect(() => flatParameterLayout([3, 0], 2)).toThrow("numels must be integers >= 1, got [3,0]");
  });
});

describe("deviceMesh and reshard_after_forward", () => {
  it("an HSDP mesh of 2 replicas × 4 shards: shard groups are nodes of consecutive ranks, replicate groups strided", () => {
    const m = deviceMesh({ replicate: 2, shard: 4 });
    expect(m.numRanks).toBe(8);
    expect(m.shardGroups).toEqual([[0, 1, 2, 3], [4, 5, 6, 7]]);
    expect(m.replicateGroups).toEqual([[0, 4], [1, 5], [2, 6], [3, 7]]);
  });

  it("reshard_after_forward as PyTorch resolves it: null is true but false for the root, 1 is false, the shard size is true", () => {
    expect(resolveReshardAfterForward(null, 8, false)).toBe(true);
    expect(resolveReshardAfterForward(null, 8, true)).toBe(false);
    expect(resolveReshardAfterForward(true, 8, true)).toBe(true);
    expect(resolveReshardAfterForward(1, 8, false)).toBe(false);
    expect(resolveReshardAfterForward(8, 8, false)).toBe(true);
    expect(resolveReshardAfterForward(4, 8, false)).toBe(4);
  });

  it("an int that does not divide the shard size is refused, with PyTorch's rule in the message", () => {
    expect(() => resolveReshardAfterForward(3, 4, false)).toThrow("reshard_after_forward as an int must be a factor of 4 (the shard group size), not 3");
    expect(() => resolveReshardAfterForward(16, 8, false)).toThrow("must be a factor of 8");
    expect(() => resolveReshardAfterForward(0, 8, false)).toThrow("must be a factor of 8");
    expect(() => resolveReshardAfterForward(2.5, 8, false)).toThrow('reshard_after_forward must be true, false, an integer or null, got 2.5');
    expect(() => deviceMesh({ shard: 0 })).toThrow("mesh.shard must be an integer >= 1, got 0");
    expect(() => deviceMesh({ shard: 2, replicate: 0 })).toThrow("mesh.replicate must be an integer >= 1, got 0");
  });

  it("post-forward groups are the mesh viewed as (−1, g), across replicas too", () => {
    expect(postForwardGroups(deviceMesh({ shard: 8 }), 4)).toEqual([[0, 1, 2, 3], [4, 5, 6, 7]]);
    expect(postForwardGroups(deviceMesh({ replicate: 2, shard: 4 }), 2)).toEqual([[0, 1], [2, 3], [4, 5], [6, 7]]);
    expect(() => postForwardGroups(deviceMesh({ shard: 4 }), 3)).toThrow("post-forward group size 3 must divide the shard size 4");
  });
});
