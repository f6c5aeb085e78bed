// The errata of the study notes exist once, as data (lib/corrections.ts), and
// appear twice: as a box on the chapter's page and as a row of the notes
// page's table (generated from the same entries). This keeps the boxes and
// the entries one to one: every box labelled "Correction…" has an entry with
// its id and title, and every entry has its box on its chapter's page.
import { describe, it, expect } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CHAPTERS } from "../lib/chapters.js";
import { CORRECTIONS } from "../lib/corrections.js";
import { ROOT } from "../exercises/harness/discover.js";

interface Box { id: string | null; label: string; tag: string }

/** Every element of a page whose label starts with "Correction", with its id. */
function correctionBoxes(md: string): Box[] {
  return [...md.matchAll(/<(div|p|aside)\b[^>]*\blabel="(Correction[^"]*)"[^>]*>/g)].map((m) => ({
    tag: m[0],
    label: m[2],
    id: /\bid="correction-([^"]+)"/.exec(m[0])?.[1] ?? null,
  }));
}

const pages = CHAPTERS.filter((c) => existsSync(join(ROOT, "src", `${c.slug}.md`)));

describe("corrections of the notes: lib/corrections.ts and the page boxes, one to one", () => {
  it("entries have unique kebab-case ids, a known chapter and every field filled", () => {
    const ids = CORRECTIONS.map((c) => c.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i), "duplicate ids").toEqual([]);
    for (const c of CORRECTIONS) {
      expect(c.id, `id ${c.id}`).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(CHAPTERS.map((ch) => ch.slug), `chapter of ${c.id}`).toContain(c.chapter);
      for (const f of ["title", "claim", "correction", "source"] as const) expect(c[f].trim(), `${c.id}.${f}`).not.toBe("");
    }
  });

  for (const c of pages) {
    it(`src/${c.slug}.md: every correction box has its entry, and every entry of ${c.slug} its box`, () => {
      const boxes = correctionBoxes(readFileSync(join(ROOT, "src", `${c.slug}.md`), "utf8"));
      const entries = CORRECTIONS.filter((e) => e.chapter === c.slug);
      const problems: string[] = [];
      for (const b of boxes) {
        if (!b.id) { problems.push(`box ${b.tag} has no id="correction-<id>" (add an entry to lib/corrections.ts and the id to the box)`); continue; }
        const e = entries.find((x) => x.id === b.id);
        if (!e) problems.push(`box id="correction-${b.id}" has no entry with chapter "${c.slug}" in lib/corrections.ts`);
        else if (b.label !== `Correction: ${e.title}`) problems.push(`box id="correction-${b.id}" is labelled "${b.label}"; its entry's title gives "Correction: ${e.title}"`);
        if (!b.tag.startsWith('<div class="warning"')) problems.push(`box id="correction-${b.id}" must be <div class="warning" …> (it is ${b.tag})`);
      }
      for (const e of entries) if (!boxes.some((b) => b.id === e.id)) problems.push(`entry "${e.id}" has no box <div class="warning" id="correction-${e.id}" label="Correction: ${e.title}"> on src/${c.slug}.md`);
      expect(problems).toEqual([]);
    });
  }

  it("every entry's chapter has a page", () => {
    const orphans = CORRECTIONS.filter((e) => !pages.some((p) => p.slug === e.chapter)).map((e) => `${e.id} (chapter ${e.chapter})`);
    expect(orphans).toEqual([]);
  });
});
