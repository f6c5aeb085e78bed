/**
 * The chapters' glossaries (术语), read from their pages: the markdown table
 * under each page's `## Glossary (术语)` heading, with the columns
 * `| English | 中文 (from the notes) | meaning |`. The single source of the
 * site-wide glossary page (src/glossary.md.ts).
 */

/** The heading of a chapter's glossary section. */
export const GLOSSARY_HEADING = "## Glossary (术语)";

/** One row of a chapter's glossary. */
export interface GlossaryTerm {
  /** The English term, as written (inline markdown kept). */
  english: string;
  /** The notes' Chinese term ("—" or a † mark where the page has one). */
  chinese: string;
  /** What it means, as written. */
  meaning: string;
}

/** Splits a markdown table row into its cells (`\|` is a pipe inside a cell). */
function cells(row: string): string[] {
  const body = row.trim().replace(/^\|/, "").replace(/\|$/, "");
  return body.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
}

/**
 * The rows of the glossary table of a chapter page: the first table under the
 * `## Glossary (术语)` heading, before the next heading (a paragraph may precede it).
 * Code fences are skipped when looking for the heading.
 * @param markdown the page's source (src/<slug>.md)
 * @returns the terms in page order
 * @throws {Error} `no "## Glossary (术语)" heading` when the page has none;
 *   `the glossary table's header must be | English | 中文 … | meaning |, got …` when the table's columns differ;
 *   `the glossary has no table` when no table follows the heading
 * @example parseGlossary("## Glossary (术语)\n\n| English | 中文 (from the notes) | meaning |\n|---|---|---|\n| loss scaling | 损失缩放 | multiplying the loss |\n")
 *   // [{ english: "loss scaling", chinese: "损失缩放", meaning: "multiplying the loss" }]
 * @see src/glossary.md.ts (the page that lists every chapter's terms)
 */
export function parseGlossary(markdown: string): GlossaryTerm[] {
  const lines = markdown.split("\n");
  let fence = false, start = -1;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i])) fence = !fence;
    else if (!fence && lines[i].trim() === GLOSSARY_HEADING) { start = i; break; }
  }
  if (start < 0) throw new Error(`no "${GLOSSARY_HEADING}" heading`);
  let i = start + 1;
  while (i < lines.length && !lines[i].trim().startsWith("|") && !/^#{1,6}\s/.test(lines[i])) i++;
  if (i >= lines.length || !lines[i].trim().startsWith("|")) throw new Error("the glossary has no table");
  const header = cells(lines[i]);
  if (header.length !== 3 || header[0] !== "English" || !header[1].startsWith("中文") || header[2] !== "meaning") {
    throw new Error(`the glossary table's header must be | English | 中文 … | meaning |, got ${lines[i].trim()}`);
  }
  const out: GlossaryTerm[] = [];
  for (i += 2; i < lines.length && lines[i].trim().startsWith("|"); i++) {
    const [english = "", chinese = "", meaning = ""] = cells(lines[i]);
    out.push({ english, chinese, meaning });
  }
  return out;
}
