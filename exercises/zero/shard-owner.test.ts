import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { shardOwner as libShardOwner } from "../../lib/zero/shardRanges.js";
import type { shardOwner } from "./shard-owner.js";

type F = typeof shardOwner;
const reference: F = (n, P, i) => libShardOwner(n, P, i);
const HINT = "see the page's section \"Who owns which shard\"";
const same = (f: F, args: Parameters<F>, hint = HINT) => expectSame(f, reference, args, { hint, name: "shardOwner" });

export default defineExercise<F>({
  id: "8.1",
  kind: "concept",
  title: "who owns a parameter",
  chapter: "zero",
  section: "who-owns-which-shard",
  file: "exercises/zero/shard-owner.ts",
  exportName: "shardOwner",
  signature: "shardOwner(numParams: number, numRanks: number, index: number): {rank, offset}",
  summary: "Under ZeRO's flat partition (numpy.array_split of the Ψ parameters into P shards), return the rank owning element `index` and its offset in that shard, in O(1). Bad P, Ψ or index: RangeErrors naming the field.",
  solution: ["lib/zero/shardRanges.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => { await same(f, [10, 4, 7]); } },
    { name: "P divides Ψ", points: 3, run: (f) => property(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 8 }), fc.nat()), async ([k, P, i]) => { await same(f, [k * P, P, i % (k * P)]); }, { numRuns: 60 }) },
    { name: "P does not divide Ψ: the first Ψ mod P shards are one longer", points: 4, run: (f) => property(fc.tuple(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 2, max: 9 }), fc.nat()).filter(([n, P]) => n % P !== 0), async ([n, P, i]) => { await same(f, [n, P, i % n], "the first Ψ mod P shards hold one element more"); }, { numRuns: 150 }) },
    { name: "more ranks than parameters; every boundary", points: 2, run: async (f) => {
        for (const [n, P] of [[3, 8], [1, 5], [17, 4], [7, 7]]) for (let i = 0; i < n; i++) await same(f, [n, P, i], "the first Ψ mod P shards are one element longer; when Ψ < P the last ones are empty");
    } },
    { name: "large Ψ in O(1)", points: 1, run: async (f) => {
        await same(f, [7_500_000_001, 64, 7_500_000_000]);
        await same(f, [7_500_000_001, 64, 117_187_501]);
    } },
    { name: "bad input", points: 1, run: async (f) => {
        await expectThrows(f, [10, 0, 1], /^numRanks must be an integer >= 1, got 0$/, { class: RangeError, hint: HINT });
        await expectThrows(f, [0, 2, 0], /^numParams must be an integer >= 1, got 0$/, { class: RangeError, hint: HINT });
        await expectThrows(f, [10, 4, 10], /^index must be an integer in \[0, 10\), got 10$/, { class: RangeError, hint: HINT });
        await expectThrows(f, [10, 4, -1], /^index must be an integer in \[0, 10\), got -1$/, { class: RangeError, hint: HINT });
    } },
  ],
});
