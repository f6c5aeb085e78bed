import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { causalMaskRows, isCausalAllowed } from "./isCausalAllowed.js";

describe("isCausalAllowed", () => {
  it("isCausalAllowed(i, j, 2, 5) reproduces the flash-attn README mask for seqlen_q = 2, seqlen_k = 5", () => {
    expect(causalMaskRows(2, 5)).toEqual([[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]);
  });
  it("isCausalAllowed(i, j, 5, 2) leaves the first three rows fully masked (README, seqlen_q = 5, seqlen_k = 2)", () => {
    expect(causalMaskRows(5, 2)).toEqual([[0, 0], [0, 0], [0, 0], [1, 0], [1, 1]]);
  });
  it("isCausalAllowed(…, 'top-left') is torch.tril(ones(3, 4)) as in PyTorch's CausalVariant docs", () => {
    expect(causalMaskRows(3, 4, "top-left")).toEqual([[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0]]);
    expect(causalMaskRows(3, 4, "bottom-right")).toEqual([[1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]]);
  });
  it("isCausalAllowed(i, j, Nq, Nk) is the top-left mask of the last Nq rows of an Nk×Nk causal mask (KV-cache reading)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }), (Nq, Nk) => {
      for (let i = 0; i < Nq; i++) for (let j = 0; j < Nk; j++) {
        const br = isCausalAllowed(i, j, Nq, Nk);
        if (Nq === Nk && br !== isCausalAllowed(i, j, Nq, Nk, "top-left")) return false;
        const row = i + Nk - Nq; // position of query i among Nk tokens
        if (br !== (row >= 0 && isCausalAllowed(row, j, Nk, Nk, "top-left"))) return false;
      }
      return true;
    }), { seed: 7, numRuns: 100 });
  });
  it("isCausalAllowed throws a RangeError naming the field for out-of-range indices", () => {
    expect(() => isCausalAllowed(2, 0, 2, 5)).toThrow("i must be an integer in [0, 2), got 2");
    expect(() => isCausalAllowed(0, -1, 2, 5)).toThrow("j must be an integer in [0, 5), got -1");
    expect(() => isCausalAllowed(0, 0, 0, 5)).toThrow("Nq must be an integer >= 1, got 0");
  });
});
