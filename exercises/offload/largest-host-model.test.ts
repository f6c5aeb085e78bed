import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, property } from "../harness/index.js";
import { largestHostModel as lib, type HostModelSetup } from "../../lib/offload/index.js";
import type { largestHostModel } from "./largest-host-model.js";

type F = typeof largestHostModel;
const reference: F = (h, s) => lib(h, s);
const SECTION = "host-memory-the-plain-count-and-deep-speeds-estimators";
const HINT = `see the page's section "Host memory: the plain count and DeepSpeed's estimators" (src/offload.md#${SECTION})`;
const same = (f: F, h: number, s: HostModelSetup, hint = HINT) => expectSame(f, reference, [h, s], { hint, name: "largestHostModel" });

export default defineExercise<F>({
  id: "9.3",
  kind: "concept",
  title: "how large a model can a node's host memory offload?",
  chapter: "offload",
  section: SECTION,
  file: "exercises/offload/largest-host-model.ts",
  exportName: "largestHostModel",
  signature: "largestHostModel(hostBytes: number, setup: {stage, offloadParams?, zeroInit?, gpusPerNode, numNodes}): number",
  summary: "The inverse of DeepSpeed's host-memory estimators: the largest model whose offloaded states fit a node's host memory as estimate_zero2/3_model_states_mem_needs count them (bytes per parameter × 1.5, their max terms in GPUs and nodes, truncated like Python's int()). Equal fits; the float product decides at the boundary.",
  solution: ["lib/offload/largestHostModel.ts", "lib/memory/deepspeedEstimators.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => { await expectCall(f, [2 ** 40, { stage: 3, gpusPerNode: 8, numNodes: 1 }], 45_812_984_490, { name: "largestHostModel", hint: `the stub's example; ${HINT}` }); } },
    { name: "ZeRO-2: 4 bytes per GPU of the node's processes", points: 2, run: async (f) => {
        for (const [n, nodes] of [[1, 1], [8, 1], [8, 2], [2, 1]] as const) await same(f, 512 * 2 ** 30, { stage: 2, gpusPerNode: n, numNodes: nodes }, "the ZeRO-2 estimator takes the larger of 16 and 4 × all GPUs");
    } },
    { name: "ZeRO-3: zero.Init and the nodes, parameters offloaded or not", points: 3, run: async (f) => {
        for (const s of [{ offloadParams: false, zeroInit: true }, { offloadParams: true, zeroInit: true }, { offloadParams: false, zeroInit: false }, { offloadParams: true, zeroInit: false }]) {
          for (const [n, nodes] of [[8, 1], [8, 4], [2, 1]] as const) await same(f, 2 ** 40, { stage: 3, ...s, gpusPerNode: n, numNodes: nodes }, "with zero.Init the host holds 16 (18 with parameters) bytes per parameter divided by the nodes; without it, the larger of 4 per GPU of the node and that");
        }
    } },
    { name: "the float product at the boundary: equal fits", points: 2, run: async (f) => {
        // 1/3 of a node's share: Ψ × 16 × (1/3) × 1.5 is not exactly 8Ψ in floating point, and int() truncates
        for (const [h, nodes] of [[8e12, 3], [8e12 + 7, 3], [999_999_999_999, 7], [2 ** 42, 5]] as const) await same(f, h, { stage: 3, gpusPerNode: 8, numNodes: nodes }, "count as the estimator does (Ψ × bytes × 1.5 in floating point, truncated): a division of the memory by the bytes per parameter can be one off");
    } },
    { name: "no memory; a node too small for one parameter", points: 1, run: async (f) => {
        for (const h of [0, 1, 23]) await same(f, h, { stage: 3, gpusPerNode: 8, numNodes: 1 }, "below one parameter's bytes: 0");
    } },
    { name: "random nodes and setups", points: 2, run: (f) => property(
        fc.record({ stage: fc.constantFrom(2, 3) as fc.Arbitrary<2 | 3>, p: fc.boolean(), z: fc.boolean(), n: fc.integer({ min: 1, max: 16 }), nodes: fc.integer({ min: 1, max: 9 }), h: fc.integer({ min: 0, max: 2 ** 44 }) }),
        async (r) => { await same(f, r.h, { stage: r.stage, ...(r.stage === 3 ? { offloadParams: r.p, zeroInit: r.z } : {}), gpusPerNode: r.n, numNodes: r.nodes }); }, { numRuns: 150 }) },
    { name: "bad input names the field", points: 1, run: async (f) => {
        const s: HostModelSetup = { stage: 3, gpusPerNode: 8, numNodes: 1 };
        for (const [args, re] of [[[-1, s], /hostBytes/], [[1.5, s], /hostBytes/], [[1e9, { ...s, stage: 1 }], /stage/], [[1e9, { ...s, stage: 2, offloadParams: true }], /offloadParams/], [[1e9, { ...s, gpusPerNode: 0 }], /\bgpusPerNode/], [[1e9, { ...s, numNodes: 0 }], /numNodes/]] as const) {
          await expectThrows(f, args as unknown as Parameters<F>, re, { class: RangeError, name: "largestHostModel", hint: "the stub's contract lists the errors" });
        }
    } },
  ],
});
