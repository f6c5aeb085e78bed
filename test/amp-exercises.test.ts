// The amp graders accept every correct solution their contracts allow: 4.1's
// tolerance admits rounding once and PyTorch's own arithmetic (the review's
// failing case: master 0.0001689911150606349, g 0.002910614013671875, scale 1, lr 0.1).
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import slugify from "@sindresorhus/slugify";
import { findGraderFiles, loadGrader } from "../exercises/harness/discover.js";
import { gradeExercise, totalPoints } from "../exercises/harness/index.js";
import sgdStep from "../exercises/amp/amp-sgd-step.test.js";
import type { ampSgdStep } from "../exercises/amp/amp-sgd-step.js";

type F = typeof ampSgdStep;
const checkScale = (s: number) => { if (!(s > 0 && Number.isFinite(s))) throw new RangeError(`scale must be a positive finite number, got ${s}`); };
/** A correct solution with its own rounding of the update. */
const solution = (update: (w: number, g: number, lr: number) => number): F => (m, g16, s, lr) => {
  checkScale(s);
  if (g16.some((v) => !Number.isFinite(v))) return { master: m.slice(), skipped: true };
  const inv = Math.fround(1 / s);
  return { master: m.map((w, i) => update(w, Math.fround(g16[i]! * inv), lr)), skipped: false };
};

describe("exercise 4.1 accepts every rounding its contract allows", () => {
  const orders: [string, F][] = [
    ["lr·g rounded to float32, then the difference (the reference's order)", solution((w, g, lr) => Math.fround(w - Math.fround(lr * g)))],
    ["master − lr·g rounded once", solution((w, g, lr) => Math.fround(w - lr * g))],
    ["PyTorch: alpha = fp32(−lr), one fused multiply-add", solution((w, g, lr) => Math.fround(w + Math.fround(-lr) * g))],
  ];
  for (const [name, impl] of orders) {
    it(`4.1 gives full marks to: ${name}`, async () => {
      const r = await gradeExercise(sgdStep, impl);
      expect(r.checks.filter((c) => c.status !== "passed").map((c) => c.name)).toEqual([]);
      expect(r.earned).toBe(totalPoints(sgdStep));
    });
  }

  it("the review's case differs between the orders by more than one ulp of the result, so a 1-ulp tolerance was wrong", () => {
    const w = Math.fround(0.0001689911150606349), g = Math.fround(0.002910614013671875), lr = 0.1;
    const a = Math.fround(w - Math.fround(lr * g)), b = Math.fround(w - lr * g);
    expect(a).not.toBe(b);
  });
});

describe("amp graders point to the page", () => {
  it("every amp exercise's section and every '#anchor' in its hints is a heading id of src/amp.md (Framework slugifies headings)", async () => {
    const page = readFileSync(new URL("../src/amp.md", import.meta.url), "utf8");
    const ids = new Set([...page.matchAll(/^#{2,3} (.+)$/gm)].map((m) => slugify(m[1]!.replace(/`/g, ""))));
    for (const file of findGraderFiles().filter((f) => f.includes("/exercises/amp/"))) {
      const { exercise } = await loadGrader(file);
      expect(ids, `${exercise.id}: section ${exercise.section}`).toContain(exercise.section);
      for (const m of readFileSync(file, "utf8").matchAll(/section #([a-z0-9-]+)/g)) expect(ids, `${file}: #${m[1]}`).toContain(m[1]);
    }
  });
});
