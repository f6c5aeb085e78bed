// A grader's hint that names a page section, "see the page's section "Title" (src/<slug>.md#id)",
// must name a heading that exists, with its title: a student follows it to the derivation.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pageSections } from "../exercises/harness/explain.js";
import { ROOT } from "../exercises/harness/discover.js";

const graders = readdirSync(join(ROOT, "exercises"), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== "harness")
  .flatMap((d) => readdirSync(join(ROOT, "exercises", d.name)).filter((f) => f.endsWith(".test.ts")).map((f) => join("exercises", d.name, f)));

describe("graders' hints name page sections that exist", () => {
  it("every (src/<page>.md#<id>) in a grader is a heading of that page, and a quoted title before it is the heading's", async () => {
    const sections = new Map<string, Awaited<ReturnType<typeof pageSections>>>();
    const bad: string[] = [];
    let seen = 0;
    for (const file of graders) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const m of text.matchAll(/(?:\\?"([^"\\]+)\\?" )?\(src\/([\w-]+)\.md#([\w-]+)\)/g)) {
        const [, title, page, id] = m;
        seen++;
        if (!sections.has(page)) sections.set(page, await pageSections(readFileSync(join(ROOT, "src", `${page}.md`), "utf8")));
        const s = sections.get(page)!.find((x) => x.id === id);
        if (!s) bad.push(`${file}: src/${page}.md has no heading #${id}`);
        else if (title && !/\$\{/.test(title) && s.title.replace(/`/g, "") !== title) bad.push(`${file}: #${id} is "${s.title}", the hint says "${title}"`);
      }
    }
    expect(seen, "hints found (the pattern still matches the graders' hints)").toBeGreaterThan(20);
    expect(bad).toEqual([]);
  });
});
