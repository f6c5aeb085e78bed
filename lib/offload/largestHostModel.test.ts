import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { largestHostModel, type HostModelSetup } from "./largestHostModel.js";
import { estimateZero2ModelStatesMemNeeds, estimateZero3ModelStatesMemNeeds } from "../memory/deepspeedEstimators.js";

const cpu = (psi: number, s: HostModelSetup) => (s.stage === 2
  ? estimateZero2ModelStatesMemNeeds(psi, true, { numGpusPerNode: s.gpusPerNode, numNodes: s.numNodes }).cpuBytes
  : estimateZero3ModelStatesMemNeeds(psi, 0, { numGpusPerNode: s.gpusPerNode, numNodes: s.numNodes, cpuOffload: true, cpuOffloadParams: s.offloadParams ?? false, zeroInit: s.zeroInit ?? true }).cpuBytes);

describe("largestHostModel(hostBytes, setup)", () => {
  it("worked example: 1 TiB holds 45.8 billion parameters at 16 × 1.5 bytes (ZeRO-3, optimizer offload, zero.Init)", () => {
    expect(largestHostModel(2 ** 40, { stage: 3, gpusPerNode: 8, numNodes: 1 })).toBe(Math.floor(2 ** 40 / 24));
  });
  it("ZeRO-2 counts 4 bytes per GPU of the node's processes: 8 GPUs halve it; more nodes divide ZeRO-3 with zero.Init", () => {
    expect(largestHostModel(2 ** 40, { stage: 2, gpusPerNode: 8, numNodes: 1 })).toBe(Math.floor(2 ** 40 / 48));
    expect(largestHostModel(2 ** 40, { stage: 3, gpusPerNode: 8, numNodes: 4 })).toBe(Math.floor((4 * 2 ** 40) / 24));
  });
  it("edge cases: no memory, the float product at the boundary, bad input", () => {
    expect(largestHostModel(0, { stage: 3, gpusPerNode: 1, numNodes: 1 })).toBe(0);
    const s: HostModelSetup = { stage: 3, gpusPerNode: 8, numNodes: 3 };
    const psi = largestHostModel(1e12, s);
    expect(cpu(psi, s)).toBeLessThanOrEqual(1e12);
    expect(cpu(psi + 1, s)).toBeGreaterThan(1e12);
    expect(() => largestHostModel(-1, s)).toThrow(/hostBytes/);
    expect(() => largestHostModel(1, { ...s, stage: 1 as 2 })).toThrow(/stage must be 2 or 3/);
    expect(() => largestHostModel(1, { ...s, stage: 2, offloadParams: true })).toThrow(/offloadParams needs stage 3/);
    expect(() => largestHostModel(1, { ...s, gpusPerNode: 0 })).toThrow(/^gpusPerNode must be an integer >= 1, got 0$/);
    expect(() => largestHostModel(1, { ...s, numNodes: 1.5 })).toThrow(/^numNodes must be an integer >= 1, got 1\.5$/);
  });
  it("property: the answer fits and one parameter more does not", () => {
    const arb = fc.record({ stage: fc.constantFrom(2, 3) as fc.Arbitrary<2 | 3>, params: fc.boolean(), init: fc.boolean(), n: fc.integer({ min: 1, max: 16 }), nodes: fc.integer({ min: 1, max: 9 }), host: fc.integer({ min: 0, max: 2 ** 44 }) });
    fc.assert(fc.property(arb, (r) => {
      const s: HostModelSetup = { stage: r.stage, offloadParams: r.stage === 3 && r.params, zeroInit: r.init, gpusPerNode: r.n, numNodes: r.nodes };
      const psi = largestHostModel(r.host, s);
      expect(cpu(psi, s)).toBeLessThanOrEqual(r.host);
      expect(cpu(psi + 1, s)).toBeGreaterThan(r.host);
    }), { numRuns: 300, seed: 43 });
  });
});
