import { describe, expect, it } from "vitest";
import { FORMATS, FORMAT_NAMES, getFormat } from "./formats.js";

// Published figures, typed in from the sources (not computed by the module).
describe("FORMATS", () => {
  it("FORMATS.fp16 has the IEEE 754 binary16 constants", () => {
    const f = FORMATS.fp16;
    expect([f.bits, f.exponentBits, f.mantissaBits, f.bias]).toEqual([16, 5, 10, 15]);
    expect(f.maxFinite).toBe(65504);
    expect(f.minNormal).toBe(6.103515625e-5); // 2^-14
    expect(f.minSubnormal).toBe(5.960464477539063e-8); // 2^-24, the "5.96e-8" of the notes
    expect(f.machineEpsilon).toBe(0.0009765625); // 2^-10
  });

  it("FORMATS.fp32 has the IEEE 754 binary32 constants (equal to JavaScript's float32)", () => {
    const f = FORMATS.fp32;
    expect([f.bits, f.exponentBits, f.mantissaBits, f.bias]).toEqual([32, 8, 23, 127]);
    expect(f.maxFinite).toBe(3.4028234663852886e38);
    expect(f.minNormal).toBe(1.1754943508222875e-38);
    expect(f.minSubnormal).toBe(1.401298464324817e-45);
    expect(f.machineEpsilon).toBe(1.1920928955078125e-7);
    expect(Math.fround(f.maxFinite)).toBe(f.maxFinite);
    expect(Math.fround(f.minSubnormal / 2 + f.minSubnormal / 4)).toBe(f.minSubnormal);
  });

  it("FORMATS.bf16 has fp32's range and 8 bits of precision (max ≈ 3.3895e38)", () => {
    const f = FORMATS.bf16;
    expect([f.bits, f.exponentBits, f.mantissaBits, f.bias]).toEqual([16, 8, 7, 127]);
    expect(f.maxFinite).toBeCloseTo(3.3895e38, -34);
    expect(f.maxFinite).toBe((2 - 2 ** -7) * 2 ** 127);
    expect(f.minNormal).toBe(FORMATS.fp32.minNormal);
    expect(f.machineEpsilon).toBe(0.0078125);
  });

  it("FORMATS.tf32 has 8 exponent bits and 10 mantissa bits (A100 whitepaper), 19 bits in all", () => {
    const f = FORMATS.tf32;
    expect([f.bits, f.exponentBits, f.mantissaBits]).toEqual([19, 8, 10]);
    expect(f.machineEpsilon).toBe(FORMATS.fp16.machineEpsilon);
    expect(f.minNormal).toBe(FORMATS.fp32.minNormal);
  });

  it("FORMATS['fp8-e4m3'] is OCP E4M3: bias 7, max 448, min normal 2^-6, min subnormal 2^-9, no infinity, NaN on overflow", () => {
    const f = FORMATS["fp8-e4m3"];
    expect([f.bits, f.exponentBits, f.mantissaBits, f.bias]).toEqual([8, 4, 3, 7]);
    expect(f.maxFinite).toBe(448);
    expect(f.minNormal).toBe(0.015625);
    expect(f.minSubnormal).toBe(0.001953125);
    expect(f.hasInfinity).toBe(false);
    expect(f.overflow).toBe("nan");
  });

  it("FORMATS['fp8-e5m2'] is OCP E5M2: bias 15, max 57344, min normal 2^-14, min subnormal 2^-16, infinities", () => {
    const f = FORMATS["fp8-e5m2"];
    expect([f.bits, f.exponentBits, f.mantissaBits, f.bias]).toEqual([8, 5, 2, 15]);
    expect(f.maxFinite).toBe(57344);
    expect(f.minNormal).toBe(6.103515625e-5);
    expect(f.minSubnormal).toBe(1.52587890625e-5);
    expect(f.hasInfinity).toBe(true);
  });

  it("FORMAT_NAMES lists every format once", () => {
    expect([...FORMAT_NAMES].sort()).toEqual(Object.keys(FORMATS).sort());
  });

  it("getFormat(name) rejects an unknown name with a message listing the formats", () => {
    expect(() => getFormat("fp64")).toThrow(/format must be one of fp32, tf32, bf16, fp16, fp8-e5m2, fp8-e4m3, got "fp64"/);
    expect(() => getFormat(undefined as unknown as string)).toThrow(TypeError);
    expect(() => getFormat("toString")).toThrow(TypeError);
  });
});
