import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { LINK_PRESETS, linkCostModel } from "./linkPresets.js";
import { DEFAULT_COST_MODEL, validateCostModel } from "./costModel.js";
import { collectiveCost } from "./collectiveCost.js";

const B = (id: string) => LINK_PRESETS.find((p) => p.id === id)!.bandwidthBytesPerS;

describe("LINK_PRESETS", () => {
  it("PCIe 4.0 ×16 is about 31.5 GB/s per direction (16 GT/s, 128b/130b, 16 lanes)", () => {
    // published figure: PCI-SIG quotes ≈ 31.5 GB/s per direction for ×16 Gen4
    expect(B("pcie4-x16") / 1e9).toBeCloseTo(31.5, 1);
    expect(B("pcie4-x16") / 1e9).toBeCloseTo(31.5077, 3);
    expect(B("pcie5-x16")).toBeCloseTo(2 * B("pcie4-x16"), 0); // twice the transfer rate, same encoding
  });
  it("the NVSwitch nodes give 12 and 18 times one NVLink link (A100: 600 GB/s total, H100: 900 GB/s total)", () => {
    expect(B("a100-nvswitch") / B("nvlink3-link")).toBe(12);
    expect(B("h100-nvswitch") / B("nvlink3-link")).toBe(18);
    expect(2 * B("a100-nvswitch")).toBe(600e9);
    expect(2 * B("h100-nvswitch")).toBe(900e9);
  });
  it("the default link is one NVLink-3 link per direction, below PCIe 4.0 ×16, and equal to a 200 Gb/s NIC", () => {
    expect(DEFAULT_COST_MODEL.bandwidthBytesPerS).toBe(B("nvlink3-link"));
    expect(DEFAULT_COST_MODEL.bandwidthBytesPerS).toBeLessThan(B("pcie4-x16"));
    expect(DEFAULT_COST_MODEL.bandwidthBytesPerS).toBe(B("net-200g"));
  });
  it("network presets are the line rate divided by 8 bits", () => {
    expect([B("net-50g"), B("net-100g"), B("net-200g"), B("net-400g")]).toEqual([6.25e9, 12.5e9, 25e9, 50e9]);
  });
  it("B200's NVLink 5 is twice the H100's 900 GB/s; the MI300X's seven 128 GB/s links give 448 GB/s per direction", () => {
    expect(B("b200-nvswitch")).toBe(2 * B("h100-nvswitch"));
    expect(B("mi300x-infinity-fabric")).toBe((7 * 128e9) / 2);
  });
  it("every preset is a valid cost model with a derivation and a source, and ids are unique", () => {
    expect(new Set(LINK_PRESETS.map((p) => p.id)).size).toBe(LINK_PRESETS.length);
    for (const p of LINK_PRESETS) {
      expect(() => validateCostModel(p)).not.toThrow();
      expect(p.derivation.length).toBeGreaterThan(10);
      expect(p.source.length).toBeGreaterThan(10);
    }
  });
});

describe("linkCostModel(id)", () => {
  it("returns a new cost model for a known id", () => {
    const a = linkCostModel("net-100g");
    expect(a).toEqual({ alphaS: 5e-6, bandwidthBytesPerS: 12.5e9 });
    a.alphaS = 1;
    expect(linkCostModel("net-100g").alphaS).toBe(5e-6);
  });
  it("throws a RangeError naming the known ids for an unknown one", () => {
    expect(() => linkCostModel("nvlink5")).toThrow(RangeError);
    expect(() => linkCostModel("nvlink5")).toThrow(/unknown link preset "nvlink5"; known: pcie4-x16/);
  });
  it("a faster preset never makes a ring all-reduce slower (property)", () => {
    const sorted = [...LINK_PRESETS].sort((a, b) => a.bandwidthBytesPerS - b.bandwidthBytesPerS);
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e7 }), fc.integer({ min: 1, max: 64 }), (n, P) => {
      const t = sorted.map((p) => collectiveCost("ring-all-reduce", n, P, linkCostModel(p.id)).timeS);
      return t.every((x, i) => i === 0 || x <= t[i - 1]);
    }));
  });
});
