// What src/context-parallel.md takes from lib/ (scripts/bundle.ts makes it one module, context-parallel.js).
export { meanSquare } from "../../lib/context-parallel/index.js";
