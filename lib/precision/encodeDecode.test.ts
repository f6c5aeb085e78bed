import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { encode, toHex, formatWithBits } from "./encode.js";
import { decode } from "./decode.js";
import { round } from "./round.js";
import { FORMAT_NAMES, FORMATS } from "./formats.js";
import { fp32Bits } from "./c10Casts.js";

describe("encode(format, x) and decode(format, bits)", () => {
  it("encode/decode: worked examples of fp16 and bf16 (IEEE 754 and bfloat16 tables)", () => {
    expect(encode("fp16", 1)).toBe(0x3c00);
    expect(encode("fp16", -2)).toBe(0xc000);
    expect(encode("fp16", 65504)).toBe(0x7bff);
    expect(encode("fp16", 2 ** -24)).toBe(0x0001);
    expect(encode("fp16", 2 ** -14)).toBe(0x0400);
    expect(encode("fp16", Infinity)).toBe(0x7c00);
    expect(encode("fp16", -0)).toBe(0x8000);
    expect(encode("fp16", NaN)).toBe(0x7e00);
    expect(encode("fp16", 1 / 3)).toBe(0x3555);
    expect(encode("bf16", 1)).toBe(0x3f80);
    expect(encode("bf16", 1.01171875)).toBe(0x3f82);
    expect(encode("fp8-e4m3", 448)).toBe(0x7e);
    expect(encode("fp8-e5m2", 57344)).toBe(0x7b);
    expect(decode("fp16", 0x3555)).toBe(0.333251953125);
    expect(decode("fp16", 0x8000)).toBe(-0);
    expect(toHex("fp16", 1)).toBe("0x0001");
  });

  it("encode('fp32', x) equals the float32 pattern from a Float32Array for any float32", () => {
    fc.assert(fc.property(fc.float({ noNaN: true }), (x) => {
      expect(encode("fp32", x)).toBe(fp32Bits(x));
    }), { seed: 7, numRuns: 5000 });
  });

  it("every fp16 bit pattern round-trips: encode(decode(b)) = b (NaNs decode to NaN)", () => {
    let nans = 0;
    for (let b = 0; b < 0x10000; b++) {
      const v = decode("fp16", b);
      if (Number.isNaN(v)) { nans++; continue; }
      if (encode("fp16", v) !== b) throw new Error(`fp16 pattern ${toHex("fp16", b)} decodes to ${v}, encodes to ${toHex("fp16", encode("fp16", v))}`);
    }
    expect(nans).toBe(2 * (2 ** 10 - 1)); // exponent 11111 with a non-zero fraction, both signs
  });

  it("every bf16 and both fp8 bit patterns round-trip; decoded values are ordered like the patterns", () => {
    for (const fmt of ["bf16", "fp8-e4m3", "fp8-e5m2"]) {
      const half = 2 ** (FORMATS[fmt as "bf16"].bits - 1);
      let prev = -Infinity;
      const bad: string[] = [];
      for (let b = 0; b < 2 * half; b++) {
        const v = decode(fmt, b);
        if (Number.isNaN(v)) continue;
        if (encode(fmt, v) !== b) bad.push(`${fmt} ${toHex(fmt, b)} → ${v} → ${toHex(fmt, encode(fmt, v))}`);
        if (b < half && b > 0 && !(v > prev)) bad.push(`${fmt} ${toHex(fmt, b)} = ${v} is not above the previous pattern's ${prev}`);
        if (b < half) prev = v;
      }
      expect(bad.slice(0, 5)).toEqual([]);
    }
  });

  // OCP 8-bit Floating Point Specification (OFP8) rev. 1.0, Table 1, applied to every byte.
  it("decode('fp8-e4m3', byte) follows the OCP table for all 256 bytes", () => {
    for (let b = 0; b < 256; b++) {
      const s = b >> 7, e = (b >> 3) & 0xf, m = b & 0x7;
      const sign = s ? -1 : 1;
      const v = decode("fp8-e4m3", b);
      if (e === 0xf && m === 0x7) expect(v).toBeNaN(); // S.1111.111 is the only NaN; no infinities
      else if (e === 0) expect(v).toBe(sign * (m / 8) * 2 ** -6);
      else expect(v).toBe(sign * (1 + m / 8) * 2 ** (e - 7));
    }
    expect(decode("fp8-e4m3", 0b0_1111_110)).toBe(448);
    expect(decode("fp8-e4m3", 0b0_0001_000)).toBe(2 ** -6);
    expect(decode("fp8-e4m3", 0b0_0000_111)).toBe(0.875 * 2 ** -6);
    expect(decode("fp8-e4m3", 0b0_0000_001)).toBe(2 ** -9);
    expect(Object.is(decode("fp8-e4m3", 0x80), -0)).toBe(true);
  });

  it("decode('fp8-e5m2', byte) follows the OCP table for all 256 bytes", () => {
    for (let b = 0; b < 256; b++) {
      const s = b >> 7, e = (b >> 2) & 0x1f, m = b & 0x3;
      const sign = s ? -1 : 1;
      const v = decode("fp8-e5m2", b);
      if (e === 0x1f) { if (m === 0) expect(v).toBe(sign * Infinity); else expect(v).toBeNaN(); }
      else if (e === 0) expect(v).toBe(sign * (m / 4) * 2 ** -14);
      else expect(v).toBe(sign * (1 + m / 4) * 2 ** (e - 15));
    }
    expect(decode("fp8-e5m2", 0b0_11110_11)).toBe(57344);
    expect(decode("fp8-e5m2", 0b0_00001_00)).toBe(2 ** -14);
    expect(decode("fp8-e5m2", 0b0_00000_11)).toBe(0.75 * 2 ** -14);
    expect(decode("fp8-e5m2", 0b0_00000_01)).toBe(2 ** -16);
  });

  it("decode(format, bits) of the largest finite pattern is FORMATS[format].maxFinite", () => {
    expect(decode("fp32", 0x7f7fffff)).toBe(FORMATS.fp32.maxFinite);
    expect(decode("bf16", 0x7f7f)).toBe(FORMATS.bf16.maxFinite);
    expect(decode("tf32", 0x3fbff)).toBe(FORMATS.tf32.maxFinite);
    expect(decode("fp16", 0x7bff)).toBe(65504);
  });

  it("encode(format, x) = encode(format, round(format, x)) (encode rounds first)", () => {
    for (const fmt of FORMAT_NAMES) {
      fc.assert(fc.property(fc.double(), (x) => {
        expect(encode(fmt, x)).toBe(encode(fmt, round(fmt, x)));
      }), { seed: 11, numRuns: 500 });
    }
  });

  it("decode(format, -0) is +0: the number −0 is the pattern 0, not the sign bit", () => {
    for (const f of FORMAT_NAMES) expect(Object.is(decode(f, -0), 0), f).toBe(true);
    expect(Object.is(decode("fp16", 0x8000), -0)).toBe(true);
  });

  it("decode rejects patterns outside [0, 2^bits) and non-integers, naming the range", () => {
    expect(() => decode("fp16", 70000)).toThrow("bits must be an integer in [0, 65535] for fp16, got 70000");
    expect(() => decode("fp8-e4m3", -1)).toThrow(RangeError);
    expect(() => decode("fp8-e4m3", 1.5)).toThrow(RangeError);
    expect(() => decode("fp16", "1" as unknown as number)).toThrow(RangeError);
    expect(() => encode("fp99", 1)).toThrow(TypeError);
  });

  it("formatWithBits shows a value's own pattern, and none for a value outside the format", () => {
    expect(formatWithBits("fp16", 2048)).toBe("2048 (0x6800)");
    expect(formatWithBits("fp16", 2049)).toBe("2049 (not a fp16 value)"); // not 0x6800, the pattern of the rounded 2048
    expect(formatWithBits("fp16", -0)).toBe("-0 (0x8000)");
    expect(formatWithBits("bf16", NaN)).toBe(`NaN (${toHex("bf16", FORMATS.bf16.nanBits)})`);
    expect(formatWithBits("fp16", "1")).toBe('string "1"');
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xffff }), (b) => {
      const v = decode("fp16", b);
      return Number.isNaN(v) || formatWithBits("fp16", v).endsWith(`(${toHex("fp16", b)})`);
    }), { seed: 9, numRuns: 500 });
  });
});
