// What src/expert-parallel.md takes from lib/ (scripts/bundle.ts makes it one module, expert-parallel.js).
export { meanSquare } from "../../lib/expert-parallel/index.js";
