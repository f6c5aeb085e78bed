import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { wrapUnits } from "../../lib/zero/wrapUnits.js";
import type { sizeBasedWrap } from "./size-based-wrap.js";

type F = typeof sizeBasedWrap;
const reference: F = (layerParams, minNumParams) => {
  if (!Array.isArray(layerParams) || layerParams.length === 0) throw new RangeError("layerParams must hold at least one layer");
  layerParams.forEach((n, i) => { if (!Number.isInteger(n) || n < 0) throw new RangeError(`layerParams[${i}] must be an integer >= 0, got ${n}`); });
  if (!Number.isInteger(minNumParams) || minNumParams < 1) throw new RangeError(`minNumParams must be an integer >= 1, got ${minNumParams}`);
  const units = wrapUnits(layerParams.map((n, i) => ({ name: `l${i}`, params: [{ name: `l${i}.W`, numel: n }] })), { minNumParams }, 0);
  return { units: units.map((u) => u.layers), maxUnitParams: Math.max(...units.map((u) => u.gatheredElements)) };
};
const HINT = "see the page's section \"FSDP wrapping units\"";
const same = async (f: F, args: Parameters<F>, hint = HINT) => { await expectSame(f, reference, args, { hint, name: "sizeBasedWrap" }); };

export default defineExercise<F>({
  id: "8.4",
  kind: "transcription",
  title: "FSDP units by size",
  chapter: "zero",
  section: "fsdp-wrapping-units",
  file: "exercises/zero/size-based-wrap.ts",
  exportName: "sizeBasedWrap",
  signature: "sizeBasedWrap(layerParams: number[], minNumParams: number): {units: number[][], maxUnitParams}",
  summary: "Group consecutive layers into FSDP units until each holds at least min_num_params (the rest stays with the root), and return the largest unit's parameter count, which bounds what FULL_SHARD gathers at once.",
  solution: ["lib/zero/wrapUnits.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => { await same(f, [[3, 5, 2, 7, 1], 6]); } },
    { name: "a group closes when it reaches min_num_params (not when it passes it)", points: 2, run: async (f) => {
        await same(f, [[2, 4, 6, 1, 5], 6], "a group holding exactly min_num_params is complete");
        await same(f, [[10, 10, 10], 10]);
    } },
    { name: "the remainder stays in the root's unit", points: 2, run: async (f) => {
        await same(f, [[1, 1, 1], 100], "nothing reaches min_num_params: one unit, the root");
        await same(f, [[8, 1, 1], 5], "the last layers form their own (root) unit even when small");
    } },
    { name: "random layers (property)", points: 2, run: (f) => property(fc.tuple(fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 120 })), async ([ls, m]) => { await same(f, [ls, m]); }, { numRuns: 150 }) },
    { name: "bad input", points: 1, run: async (f) => {
        await expectThrows(f, [[], 5], /^layerParams must hold at least one layer$/, { class: RangeError, hint: HINT });
        await expectThrows(f, [[3, 4, -1], 5], /^layerParams\[2\] must be an integer >= 0, got -1$/, { class: RangeError, hint: HINT });
        await expectThrows(f, [[3], 0], /^minNumParams must be an integer >= 1, got 0$/, { class: RangeError, hint: HINT });
    } },
  ],
});
