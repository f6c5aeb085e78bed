// Every name a page imports from lib/ (or from its components) exists: a
// renamed or removed lib export fails `npm test`, before any browser runs.
// (The e2e run then executes every cell in Chromium.) Covers static imports,
// including multi-line ones, and dynamic `await import("./lib/…")`.
import { describe, it, expect } from "vitest";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "../exercises/harness/discover.js";

const pages = readdirSync(join(ROOT, "src")).filter((f) => f.endsWith(".md"));

/** The JavaScript of a page's ```js fences. */
function codeOf(md: string): string {
  return [...md.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).join("\n");
}

/** Source file behind a page import such as "./lib/memory/index.js" (TypeScript or JavaScript). */
function fileOf(spec: string): string {
  const p = resolve(ROOT, "src", spec);
  const ts = p.replace(/\.js$/, ".ts");
  return existsSync(ts) ? ts : p;
}

describe("pages import what lib exports", () => {
  it("finds the chapter pages", () => expect(pages.length).toBeGreaterThan(1));
  for (const page of pages) {
    it(`src/${page}: every imported name exists in its module`, async () => {
      const code = codeOf(readFileSync(join(ROOT, "src", page), "utf8"));
      const imports = [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(\.\/[^"]+)"/g)].map((m) => ({
        names: m[1].split(",").map((n) => n.trim().split(/\s+as\s+/)[0].replace(/^type\s+/, "")).filter(Boolean),
        spec: m[2],
      }));
      const dynamic = [...code.matchAll(/import\(\s*"(\.\/[^"]+)"\s*\)/g)].map((m) => ({ names: [] as string[], spec: m[1] }));
      for (const { names, spec } of [...imports, ...dynamic]) {
        const file = fileOf(spec);
        expect(existsSync(file), `${page} imports ${spec}, which does not exist`).toBe(true);
        if (!/\.(ts|js)$/.test(file)) continue;
        const mod = await import(pathToFileURL(file).href);
        const missing = names.filter((n) => !(n in mod));
        expect(missing, `${page} imports from ${spec} names it does not export`).toEqual([]);
      }
    });
  }
});
