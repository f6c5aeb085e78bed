// Which files of a submission are the student's: stubs and helpers under a
// chapter folder, from a copy of exercises/, a clone, or loose stub files;
// never a grader, a mutants file, the harness, or another folder's files.
import { describe, it, expect } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { copySubmission, submissionFiles } from "./submission.js";

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "sub-"));
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}
const STUBS = ["exercises/memory/count-parameters.ts", "exercises/precision/round-bf16.ts"];

describe("submissionFiles", () => {
  it("a clone: its exercises/<chapter>/ files, not graders, mutants, the harness, node_modules or other folders", () => {
    const dir = tree({
      "exercises/memory/count-parameters.ts": "a", "exercises/memory/my-helpers.ts": "h",
      "exercises/memory/count-parameters.test.ts": "grader", "exercises/memory/mutants/count-parameters.ts": "m",
      "exercises/harness/index.ts": "x", "lib/memory/index.ts": "ref", "node_modules/exercises/memory/x.ts": "n", "README.md": "r",
    });
    try {
      expect(submissionFiles(dir, STUBS).map((f) => f.to)).toEqual(["exercises/memory/count-parameters.ts", "exercises/memory/my-helpers.ts"]);
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });

  it("a copy of exercises/ (<chapter>/<file>) and loose stub files; a loose file does not replace one in a folder", () => {
    const dir = tree({ "memory/count-parameters.ts": "in a folder", "count-parameters.ts": "loose", "round-bf16.ts": "loose bf16", "notes.ts": "not a stub" });
    try {
      expect(submissionFiles(dir, STUBS).map((f) => [f.to, readFileSync(f.from, "utf8")])).toEqual([
        ["exercises/memory/count-parameters.ts", "in a folder"], ["exercises/precision/round-bf16.ts", "loose bf16"],
      ]);
      const root = tree({ "exercises/precision/round-bf16.ts": "stub" });
      try {
        copySubmission(dir, root, STUBS);
        expect(readFileSync(join(root, "exercises/precision/round-bf16.ts"), "utf8")).toBe("loose bf16");
      } finally { rmSync(root, { recursive: true, force: true }); }
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });

  it("throws when the folder does not exist", () => {
    expect(() => submissionFiles("/no/such/folder", STUBS)).toThrow(/no submission folder at \/no\/such\/folder/);
  });
});
