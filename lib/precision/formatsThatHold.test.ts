import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { formatsThatHold } from "./formatsThatHold.js";
import { FORMAT_NAMES, FORMATS } from "./formats.js";
import { isRepresentable } from "./round.js";
import { decode } from "./decode.js";

describe("formatsThatHold(values)", () => {
  it("worked example: 2^-20 is an fp16 subnormal, below both fp8 formats", () => {
    expect(formatsThatHold([0.5, -3, 2 ** -20])).toEqual(["fp32", "tf32", "bf16", "fp16"]);
  });
  it("the published largest values: fp16 65504, E5M2 57344, E4M3 448 (OCP FP8 v1.0), and the next value above each", () => {
    expect(formatsThatHold([65504])).toEqual(["fp32", "tf32", "fp16"]); // 1.1111111111₂ · 2^15: ten fraction bits
    expect(formatsThatHold([57344])).toEqual(["fp32", "tf32", "bf16", "fp16", "fp8-e5m2"]);
    expect(formatsThatHold([448])).toEqual([...FORMAT_NAMES]);
    expect(formatsThatHold([480])).toEqual(["fp32", "tf32", "bf16", "fp16"]); // E4M3's S.1111.111 is NaN; 1.111₂ · 2^8 needs three fraction bits
    expect(formatsThatHold([65536])).toEqual(["fp32", "tf32", "bf16"]);
  });
  it("edge cases: nothing, ±0, NaN, ±Infinity, float64 values outside fp32", () => {
    expect(formatsThatHold([])).toEqual([...FORMAT_NAMES]);
    expect(formatsThatHold([-0, NaN])).toEqual([...FORMAT_NAMES]);
    expect(formatsThatHold([-Infinity])).toEqual(FORMAT_NAMES.filter((f) => f !== "fp8-e4m3"));
    expect(formatsThatHold([0.1])).toEqual([]);
    expect(formatsThatHold([FORMATS.fp32.minSubnormal])).toEqual(["fp32"]);
    expect(formatsThatHold([FORMATS.fp32.minSubnormal / 2])).toEqual([]);
    expect(() => formatsThatHold([1, "2" as unknown as number])).toThrow(/^values\[1\] must be a number, got string$/);
  });
  it("property: equals the definition, every value representable (isRepresentable), on values of random formats", () => {
    const values = fc.array(fc.tuple(fc.constantFrom(...FORMAT_NAMES), fc.nat()).map(([f, b]) => decode(f, b % 2 ** FORMATS[f].bits)), { maxLength: 8 });
    fc.assert(fc.property(values, (xs) => {
      expect(formatsThatHold(xs)).toEqual(FORMAT_NAMES.filter((f) => xs.every((x) => isRepresentable(f, x))));
    }), { numRuns: 500, seed: 7 });
  });
});
