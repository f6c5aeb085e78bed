// The repository stands alone: readers of the published site and clones have
// no folder beside it, so no tracked file may point into one (the notes are
// described on the notes page instead, src/notes.md.ts).
import { describe, it, expect } from "vitest";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../exercises/harness/discover.js";

// Built from pieces so that this file does not match itself.
const SHARED = "sha" + "red";
const PATTERNS = [new RegExp(`\\.\\./${SHARED}/`), new RegExp(`/work/${SHARED}\\b`), new RegExp(`(^|[\\s\`'"(])${SHARED}/(notes|reviews|design\\.md|sources\\.md|student-experience\\.md)`)];
const BINARY = /\.(png|jpe?g|gif|ico|woff2?|gz|br|zip|pdf)$/i;

function trackedFiles(): string[] {
  return execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter((f) => f && !BINARY.test(f) && f !== "package-lock.json");
}

describe("the repository stands alone", () => {
  it("no tracked file points into a shared folder outside the repository", () => {
    const hits: string[] = [];
    for (const f of trackedFiles()) {
      let text: string;
      try { text = readFileSync(join(ROOT, f), "utf8"); } catch { continue; } // deleted in the work tree
      text.split("\n").forEach((line, i) => {
        if (PATTERNS.some((p) => p.test(line))) hits.push(`${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(hits).toEqual([]);
  });
});
