import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { CP_LAYOUTS, checkShards, sequenceShards } from "./sequenceShards.js";

describe("sequenceShards", () => {
  it("sequenceShards(8, 2, layout) gives Megatron's zig-zag pairs and Striped Attention's stripes (worked example)", () => {
    expect(sequenceShards(8, 2, "contiguous")).toEqual([[0, 1, 2, 3], [4, 5, 6, 7]]);
    expect(sequenceShards(8, 2, "zigzag")).toEqual([[0, 1, 6, 7], [2, 3, 4, 5]]);
    expect(sequenceShards(8, 2, "striped")).toEqual([[0, 2, 4, 6], [1, 3, 5, 7]]);
  });
  it("sequenceShards zigzag matches Megatron's docstring (CP = 2: chunks 0 and 3 on GPU 0, 1 and 2 on GPU 1) and Transformer Engine's chunk order", () => {
    // Megatron-LM megatron/core/utils.py _get_batch_on_this_cp_rank_per_sequence_balancing, commit d98e8a6
    const chunk = 3, C = 2;
    const byChunks = (ids: number[]) => ids.flatMap((c) => Array.from({ length: chunk }, (_, i) => c * chunk + i));
    expect(sequenceShards(4 * chunk, C, "zigzag")).toEqual([byChunks([0, 3]), byChunks([1, 2])]);
    // Transformer Engine get_seq_chunk_ids_for_reordering_after_attn: chunk_ids[2r] = r, chunk_ids[2r + 1] = 2C − r − 1 (commit d0067d0)
    for (const cp of [1, 3, 8]) {
      const teOrder = Array.from({ length: cp }, (_, r) => [r, 2 * cp - r - 1]).flat();
      expect(sequenceShards(2 * cp, cp, "zigzag").flat()).toEqual(teOrder);
    }
  });
  it("sequenceShards with cpSize = 1 is the whole sequence in every layout", () => {
    for (const layout of CP_LAYOUTS) expect(sequenceShards(6, 1, layout)).toEqual([[0, 1, 2, 3, 4, 5]]);
  });
  it("sequenceShards rejects a sequence the layout cannot split, naming the field", () => {
    expect(() => sequenceShards(10, 4, "zigzag")).toThrow(/^seqLen \(10\) must be divisible by 2·cpSize \(8\) for the zigzag layout$/);
    expect(() => sequenceShards(12, 4, "zigzag")).toThrow(RangeError);
    expect(() => sequenceShards(10, 4, "striped")).toThrow(/^seqLen \(10\) must be divisible by cpSize \(4\)$/);
    expect(() => sequenceShards(8, 0, "contiguous")).toThrow(/^cpSize must be an integer >= 1, got 0$/);
    expect(() => sequenceShards(8, 2, "ring" as never)).toThrow(/^layout must be contiguous, zigzag or striped, got "ring"$/);
  });
  it("sequenceShards deals every position exactly once, n per rank, ascending (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 6 }), fc.constantFrom(...CP_LAYOUTS), (C, k, layout) => {
      const N = 2 * C * k;
      const shards = sequenceShards(N, C, layout);
      expect(checkShards(shards)).toBe(N);
      for (const s of shards) expect([...s].sort((a, b) => a - b)).toEqual(s);
    }), { seed: 13, numRuns: 200 });
  });
});

describe("checkShards", () => {
  it("checkShards returns N and names what is wrong", () => {
    expect(checkShards([[0, 3], [1, 2]])).toBe(4);
    expect(() => checkShards([])).toThrow(/one array per rank/);
    expect(() => checkShards([[0, 1], [2]])).toThrow(/^shards\[1\] has 1 positions, shards\[0\] has 2/);
    expect(() => checkShards([[0, 1], [1, 2]])).toThrow(/^position 1 appears twice \(shards\[1\]\)$/);
    expect(() => checkShards([[0, 9]])).toThrow(/^shards\[0\]\[1\] = 9 is not a position of a 2-token sequence$/);
  });
});
