import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { parseGlossary } from "./glossary.js";

const page = (table: string, before = "") => `# Page\n\n\`\`\`js\n// ## Glossary (术语) inside code is not the heading\n\`\`\`\n\n## Glossary (术语)\n\n${before}${table}\n## After\n\n| English | 中文 | meaning |\n|---|---|---|\n| not | 这 | a row of another table |\n`;

describe("parseGlossary", () => {
  it("worked example: the rows of the table under the heading, in order, and nothing after the next heading", () => {
    const md = page("| English | 中文 (from the notes) | meaning |\n|---|---|---|\n| loss scaling | 损失缩放 (Loss Scale) | multiplying the loss by S |\n| `autocast` | 自动混合精度 (AMP) | per-op choice |\n");
    expect(parseGlossary(md)).toEqual([
      { english: "loss scaling", chinese: "损失缩放 (Loss Scale)", meaning: "multiplying the loss by S" },
      { english: "`autocast`", chinese: "自动混合精度 (AMP)", meaning: "per-op choice" },
    ]);
  });
  it("takes a paragraph before the table, the header variants of the pages, and an escaped pipe in a cell", () => {
    const md = page("| English | 中文 (from the notes; † the usual term) | meaning |\n|---|---|---|\n| a \\| b | 甲 † | x |\n", "Terms marked † are not in the notes.\n\n");
    expect(parseGlossary(md)).toEqual([{ english: "a | b", chinese: "甲 †", meaning: "x" }]);
  });
  it("throws when the heading, the table or the columns are missing", () => {
    expect(() => parseGlossary("# nothing\n")).toThrow(/no "## Glossary \(术语\)" heading/);
    expect(() => parseGlossary("## Glossary (术语)\n\ntext\n\n## Next\n\n| English | 中文 | meaning |\n")).toThrow(/has no table/);
    expect(() => parseGlossary("## Glossary (术语)\n\n| term | Chinese |\n|---|---|\n")).toThrow(/header must be \| English \| 中文 … \| meaning \|, got \| term \| Chinese \|/);
  });
  it("property: every generated row comes back as written", () => {
    const cell = fc.stringMatching(/^[a-z0-9 ()术语损失]{1,12}$/).map((s) => s.trim()).filter((s) => s.length > 0);
    fc.assert(fc.property(fc.array(fc.tuple(cell, cell, cell), { minLength: 1, maxLength: 8 }), (rows) => {
      const md = page(`| English | 中文 (from the notes) | meaning |\n|---|---|---|\n${rows.map((r) => `| ${r.join(" | ")} |`).join("\n")}\n`);
      expect(parseGlossary(md)).toEqual(rows.map(([english, chinese, meaning]) => ({ english, chinese, meaning })));
    }));
  });
});
