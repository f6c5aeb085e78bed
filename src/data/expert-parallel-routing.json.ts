// Data loader (Node, build time): copies of a token that leave its rank under DeepSeek-V3's
// node-limited routing, for every choice of the page's control (M = 1, 2, 4, 8), computed by
// lib/expert-parallel meanTokenCopies (groupLimitedTopK and tokenCopies).
import { meanTokenCopies } from "../../lib/expert-parallel/index.js";

const setup = { numExperts: 256, epSize: 64, ranksPerNode: 8, topK: 8, tokens: 400, seed: 11 };
process.stdout.write(JSON.stringify({ setup, byM: [1, 2, 4, 8].map((groupTopK) => ({ groupTopK, ...meanTokenCopies({ ...setup, groupTopK }) })) }));
