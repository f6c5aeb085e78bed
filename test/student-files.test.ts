// npm test does not depend on the student's edits: type errors in the student's exercise files are
// shown but do not fail the type check (scripts/student-files.mjs, used by scripts/test.mjs).
import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { isStudentFile, splitTypeErrors } from "../scripts/student-files.mjs";

const STUB = `export function f(): number {\n  return notImplemented("1.2");\n}\n`;

describe("isStudentFile(path, text)", () => {
  it("is a written stub or a helper under exercises/<chapter>/, never a shipped stub, grader, mutant, the harness or lib", () => {
    expect(isStudentFile("exercises/precision/round-bf16.ts", "export const roundToBf16 = (x: number) => x;")).toBe(true);
    expect(isStudentFile("exercises/precision/my-helpers.ts", "export const two = 2;")).toBe(true);
    expect(isStudentFile("exercises/precision/round-bf16.ts", STUB)).toBe(false);
    expect(isStudentFile("exercises/precision/round-bf16.test.ts", "")).toBe(false);
    expect(isStudentFile("exercises/precision/mutants/round-bf16.ts", "")).toBe(false);
    expect(isStudentFile("exercises/harness/cli.ts", "")).toBe(false);
    expect(isStudentFile("exercises/grade.ts", "")).toBe(false);
    expect(isStudentFile("lib/precision/round.ts", "")).toBe(false);
  });
  it("property: nothing outside exercises/<chapter>/ is the student's", () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z]{1,8}(\/[a-z-]{1,8}){0,3}\.ts$/), (p) => {
      fc.pre(!p.startsWith("exercises/"));
      expect(isStudentFile(p, "")).toBe(false);
    }));
  });
});

describe("splitTypeErrors(output, read)", () => {
  const files: Record<string, string> = {
    "exercises/precision/round-bf16.ts": "export const roundToBf16 = (x) => x;",
    "exercises/memory/count-parameters.ts": STUB,
    "lib/precision/round.ts": "",
  };
  const read = (f: string) => { if (!(f in files)) throw new Error("no such file"); return files[f]; };
  it("sends errors in a written stub to the student, every other error (with its continuation lines) to the course", () => {
    const out = [
      "exercises/precision/round-bf16.ts(1,28): error TS7006: Parameter 'x' implicitly has an 'any' type.",
      "lib/precision/round.ts(3,1): error TS2322: Type 'string' is not assignable to type 'number'.",
      "  Type 'string' is not assignable to type 'number'.",
      "exercises/memory/count-parameters.ts(2,3): error TS2304: Cannot find name 'notImplemented'.",
      "exercises/gone.ts(1,1): error TS2307: Cannot find module.",
      "",
    ].join("\n");
    const { student, course } = splitTypeErrors(out, read);
    expect(student).toEqual(["exercises/precision/round-bf16.ts(1,28): error TS7006: Parameter 'x' implicitly has an 'any' type."]);
    expect(course).toEqual([
      "lib/precision/round.ts(3,1): error TS2322: Type 'string' is not assignable to type 'number'.\n  Type 'string' is not assignable to type 'number'.",
      "exercises/memory/count-parameters.ts(2,3): error TS2304: Cannot find name 'notImplemented'.",
      "exercises/gone.ts(1,1): error TS2307: Cannot find module.",
    ]);
  });
  it("keeps a line it cannot read as an error (a failure of tsc itself) on the course's side", () => {
    expect(splitTypeErrors("error TS5058: The specified path does not exist: 'x'.", read)).toEqual({ student: [], course: ["error TS5058: The specified path does not exist: 'x'."] });
    expect(splitTypeErrors("", read)).toEqual({ student: [], course: [] });
  });
});
