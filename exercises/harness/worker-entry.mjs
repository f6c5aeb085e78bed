// Plain-JS entry of the grading worker: registers tsx's TypeScript loader in
// this thread, then the resolution of `llm-training-course/…` for graders
// outside the repository, then runs worker.ts. (Workers do not inherit the
// loader of the process that starts them, under tsx or under vitest.)
import { register } from "tsx/esm/api";

register();
await import("./register-hooks.mjs");
await import("./worker.ts");
