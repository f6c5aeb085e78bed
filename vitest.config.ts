import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Library tests live beside their modules (lib/**/*.test.ts) or in test/.
// Files under exercises/<chapter>/ named *.test.ts are graders, not vitest
// suites: they are run by the grading harness and proved by test/graders.test.ts.
// The harness's own tests sit beside it (exercises/harness/harness.test.ts).
//
// Three groups, one after the other (`npm test` runs the first two):
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
// 3. "integration": the teaching tools end to end (a new chapter scaffolded and type-checked
//    in a copy of the repository; the Gradescope zip built, unpacked and graded): 27 s of the
//    suite's 105 s. `npm test` leaves them out (issue 9: under 90 s on the 2-core machine);
//    `npm run test:integration` runs them, and so does .ci/run, as its own step.
const INTEGRATION = ["test/scaffold.test.ts", "exercises/harness/gradescope.test.ts"];
const EXCLUDE = ["node_modules/**", "dist/**", "src/**", "test/fixtures/**"];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: { name: "timed", include: TIMED, exclude: [...EXCLUDE, ...INTEGRATION], maxWorkers: 1, isolate: true, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: {
          name: "lib and site",
          include: ["lib/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...EXCLUDE, ...TIMED, ...INTEGRATION],
          maxWorkers: availableParallelism(),
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: { name: "integration", include: INTEGRATION, exclude: EXCLUDE, maxWorkers: 1, isolate: true, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
