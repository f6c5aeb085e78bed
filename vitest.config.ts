import { defineConfig } from "vitest/config";

// Library tests live beside their modules (lib/**/*.test.ts) or in test/.
// Files under exercises/<chapter>/ named *.test.ts are graders, not vitest
// suites: they are run by the grading harness and proved by test/graders.test.ts.
// The harness's own tests sit beside it (exercises/harness/harness.test.ts).
export default defineConfig({
  test: {
    include: ["lib/**/*.test.ts", "test/**/*.test.ts", "exercises/harness/*.test.ts"],
    exclude: ["node_modules/**", "dist/**", "src/**", "test/fixtures/**"],
    testTimeout: 60_000,
    pool: "forks",
  },
});
