import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { flashSharedElements, webgpuFlashTiles } from "./webgpuFlashTiles.js";
import { flashBlockSizes } from "../../flash-attention/flashBlockSizes.js";
import { flashAttentionWgsl } from "./flashAttentionWgsl.js";

describe("webgpuFlashTiles", () => {
  it("webgpuFlashTiles(16384, 64) gives WebGPU's default 16 KiB the tiles of chapter 10's rule: B_c = ⌈4096/256⌉ = 16, B_r = 16", () => {
    expect(webgpuFlashTiles(16384, 64)).toEqual({ M: 4096, Bc: 16, Br: 16, G: 16, threads: 256, colsPerThread: 4, sharedElements: 3376 });
    expect(flashSharedElements(16, 16, 64) * 4).toBe(13504); // bytes: under 16,384
  });

  it("webgpuFlashTiles equals flashBlockSizes(M, d) (Algorithm 1's rule, the oracle) when those tiles fit, else the largest B_c below it that fits", () => {
    for (const [bytes, d] of [[16384, 128], [32768, 64], [16384, 16]] as const) {
      const t = webgpuFlashTiles(bytes, d);
      expect({ Bc: t.Bc, Br: t.Br }).toEqual(flashBlockSizes(bytes / 4, d));
    }
    // d = 32: the rule's 32×32 tiles need 4,192 elements with the score tile, over M = 4096
    const rule = flashBlockSizes(4096, 32);
    expect(flashSharedElements(rule.Br, rule.Bc, 32)).toBe(4192);
    const t = webgpuFlashTiles(16384, 32);
    expect([t.Bc, t.Br, t.sharedElements]).toEqual([31, 31, 4030]);
    expect(flashSharedElements(32, 32, 32)).toBeGreaterThan(t.M);
  });

  it("webgpuFlashTiles keeps every declared tile within M, the threads within the device and every column owned (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1024, max: 65536 }), fc.integer({ min: 1, max: 200 }), fc.constantFrom(32, 64, 128, 256, 1024), (bytes, d, inv) => {
      fc.pre(3 * d + 4 <= Math.floor(bytes / 4));
      const t = webgpuFlashTiles(bytes, d, inv);
      expect(t.sharedElements).toBeLessThanOrEqual(t.M);
      expect(t.threads).toBeLessThanOrEqual(inv);
      expect(t.Br).toBeLessThanOrEqual(Math.min(t.Bc, d));
      expect(t.G & (t.G - 1)).toBe(0);
      expect(t.G * t.colsPerThread).toBeGreaterThanOrEqual(d);
      expect(t.Bc).toBeGreaterThanOrEqual(1);
    }), { seed: 7, numRuns: 300 });
  });

  it("webgpuFlashTiles rejects bad limits and a head too large for workgroup memory, naming the field", () => {
    expect(() => webgpuFlashTiles(0, 64)).toThrow("storageBytes must be an integer >= 4, got 0");
    expect(() => webgpuFlashTiles(16384, 0)).toThrow("d must be an integer >= 1, got 0");
    expect(() => webgpuFlashTiles(16384, 64, 0)).toThrow("maxInvocations must be an integer >= 1, got 0");
    expect(() => webgpuFlashTiles(16384, 2000)).toThrow("d = 2000 does not fit: one query row and one key row (3·d + 4 elements) exceed M = 4096");
  });
});

describe("flashAttentionWgsl", () => {
  it("flashAttentionWgsl(d, tiles) declares exactly the workgroup tiles webgpuFlashTiles counted, and one thread per (row, column group)", () => {
    for (const d of [3, 16, 64, 128]) {
      const t = webgpuFlashTiles(16384, d);
      const src = flashAttentionWgsl(d, t);
      const declared = [...src.matchAll(/var<workgroup> \w+: array<f32, (\d+)>/g)].reduce((s, m) => s + Number(m[1]), 0);
      expect(declared).toBe(t.sharedElements);
      expect(src).toContain(`@workgroup_size(${t.threads})`);
      expect(src).toContain(`var<workgroup> Kj: array<f32, ${t.Bc * d}>`);
    }
  });
});
