// Plain-JS entry of the grading worker: registers tsx's TypeScript loader in
// this thread, then runs worker.ts. (Workers do not inherit the loader of the
// process that starts them, under tsx or under vitest.)
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
