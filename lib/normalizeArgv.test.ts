import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { normalizeArgv } from "./normalizeArgv.js";

describe("normalizeArgv(argv)", () => {
  it("joins a negative value to its flag, so the flag's range check answers", () => {
    expect(normalizeArgv(["--gpus", "-8", "--seq", "4096"])).toEqual(["--gpus=-8", "--seq", "4096"]);
    expect(normalizeArgv(["--headroom", "-.1"])).toEqual(["--headroom=-.1"]);
    expect(normalizeArgv(["--json", "--top", "3"])).toEqual(["--json", "--top", "3"]);
  });
  it("refuses a flag given twice, whatever its spelling", () => {
    expect(() => normalizeArgv(["--top", "0", "--top", "2"])).toThrow("--top is given twice; give each option once");
    expect(() => normalizeArgv(["--top=1", "--top", "2"])).toThrow(/--top is given twice/);
  });
  it("property: leaves arguments without negative values unchanged, in a new array", () => {
    fc.assert(fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 6 }), fc.array(fc.nat(1e6), { minLength: 6, maxLength: 6 }), (names, values) => {
      const argv = names.flatMap((n, i) => [`--${n}`, String(values[i])]);
      const out = normalizeArgv(argv);
      expect(out).toEqual(argv);
      expect(out).not.toBe(argv);
    }), { seed: 3, numRuns: 100 });
  });
});
