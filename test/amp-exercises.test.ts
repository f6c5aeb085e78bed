// The amp graders point to the page: every section they name and every anchor in their hints.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import slugify from "@sindresorhus/slugify";
import { findGraderFiles, loadGrader } from "../exercises/harness/discover.js";

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
