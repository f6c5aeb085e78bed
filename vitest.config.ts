import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Library tests live beside their modules (lib/**/*.test.ts) or in test/.
// Files under exercises/<chapter>/ named *.test.ts are graders, not vitest
// suites: they are run by the grading harness and proved by test/graders.test.ts.
// The harness's own tests sit beside it (exercises/harness/harness.test.ts).
//
// Two groups, one after the other:
// 1. "timed": tests that run code in worker threads under a deadline (the
//    harness, the grader self-checks): one file at a time, each in a fresh
//    process, so that no other test file competes for the CPU while a
//    deadline runs (measured: run beside other files on this 2-core machine,
//    harness tests timed out).
// 2. "lib and site": everything else, one file per core (vitest's default in
//    a run is cores − 1: a single worker here), in reused processes
//    (isolate: false: lib modules, fast-check and gpu.js are imported once
//    per process, not once per file; these tests share no mutable state:
//    no mocks, stubs or fake timers).
const TIMED = ["exercises/harness/*.test.ts", "test/graders.test.ts"];
const EXCLUDE = ["node_modules/**", "dist/**", "src/**", "test/fixtures/**"];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: { name: "timed", include: TIMED, exclude: EXCLUDE, maxWorkers: 1, isolate: true, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: {
          name: "lib and site",
          include: ["lib/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...EXCLUDE, ...TIMED],
          maxWorkers: availableParallelism(),
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
