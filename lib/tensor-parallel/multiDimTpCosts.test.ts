import { describe, expect, it } from "vitest";
import { mulberry32, gaussian } from "../nn/index.js";
import { ringAllReduce } from "../collectives/index.js";
import { multiDimTpCosts } from "./multiDimTpCosts.js";
import { summa2d } from "./summa2d.js";
import { summa25d } from "./summa25d.js";
import { linear3d } from "./linear3d.js";

const rand = (k: number, rng: () => number) => Float32Array.from({ length: k }, () => gaussian(rng));

describe("multiDimTpCosts against simulations on the World (small cases)", () => {
  it("lists the modes that fit P", () => {
    expect(multiDimTpCosts(64, 8).map((r) => `${r.mode} ${r.grid}`)).toEqual(["1D 64", "2D 8 × 8", "3D 4 × 4 × 4"]); // 64/2 = 32 is not a square
    expect(multiDimTpCosts(8, 4).map((r) => r.mode)).toEqual(["1D", "2.5D", "3D"]); // 8 = 2²·2 = 2³, not a square
    expect(multiDimTpCosts(64, 8, 4).map((r) => r.grid)).toEqual(["64", "8 × 8", "4 × 4 × 4", "4 × 4 × 4"]);
  });

  it.each([4, 8, 16])("1D on P = %i: one ring all-reduce of (n, n) per linear, from the event log", (P) => {
    const n = 8, rng = mulberry32(P);
    const r = ringAllReduce(Array.from({ length: P }, () => rand(n * n, rng)));
    const perRank = r.events.reduce((s, e) => s + e.bytes, 0) / 4 / P;
    expect(multiDimTpCosts(P, n)[0].stepElements).toBeCloseTo(perRank, 9);
  });

  it.each([2, 3, 4])("2D on q = %i: the forward equals summa2d's event log per rank; the step is three such products", (q) => {
    const n = 12, rng = mulberry32(q);
    const r = summa2d(rand(n * n, rng), rand(n * n, rng), n, n, n, q);
    const row = multiDimTpCosts(q * q, n).find((x) => x.mode === "2D")!;
    expect(row.forwardElements).toBeCloseTo(r.bytes / 4 / (q * q), 9);
    expect(row.stepElements).toBeCloseTo(3 * row.forwardElements, 9);
    expect(row.memoryElements).toBe(3 * n * n / (q * q));
    expect(row.colossalBandwidth * n * n / q).toBeCloseTo(row.stepElements, 9); // the printed factor is q times ours
  });

  it.each([[2, 2], [2, 3], [3, 2]])("2.5D on q = %i, d = %i: the forward equals summa25d's event log per rank", (q, d) => {
    const n = 12, rng = mulberry32(q * 10 + d);
    const r = summa25d(rand(n * n, rng), rand(n * n, rng), n, n, n, q, d);
    const row = multiDimTpCosts(q * q * d, n, d).find((x) => x.mode === "2.5D")!;
    expect(row.forwardElements).toBeCloseTo(r.bytes / 4 / (q * q * d), 9);
    expect(row.colossalBandwidth * n * n / q).toBeCloseTo(row.stepElements, 9);
    expect(row.colossalActivations).toBe(1 / (d * q * q));
  });

  it.each([2, 3])("3D on q = %i: forward and backward equal linear3d's event log per rank, and Colossal's 6(q−1)/q³ · n²", (q) => {
    const n = 36, rng = mulberry32(q);
    const r = linear3d(rand(n * n, rng), rand(n * n, rng), rand(n * n, rng), n, n, n, q);
    const row = multiDimTpCosts(q ** 3, n).find((x) => x.mode === "3D")!;
    expect(row.forwardElements).toBeCloseTo(r.bytes.forward / 4 / q ** 3, 9);
    expect(row.stepElements).toBeCloseTo((r.bytes.forward + r.bytes.backward) / 4 / q ** 3, 9);
    expect(row.stepElements).toBeCloseTo(row.colossalBandwidth * n * n, 9);
    expect(row.memoryElements).toBe(r.elementsPerRank);
  });

  it("names a bad P", () => {
    expect(() => multiDimTpCosts(0, 4)).toThrow("P must be an integer >= 1, got 0");
  });
});
