// Data loader (Node, build time): the chapter's Gemini scenario on lib/nn's
// model (parameter sizes, warm-up statistics per operator, the chunk-size
// search); the page places the chunks live with simulateGemini.
import { geminiDemo, GEMINI_DEMO_ROWS } from "../../lib/offload/index.js";

process.stdout.write(JSON.stringify({ rows: GEMINI_DEMO_ROWS, ...geminiDemo() }));
