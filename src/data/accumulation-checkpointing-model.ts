// The model of every run on the accumulation-checkpointing page (build time, Node): one definition for its two data
// loaders (accumulation-checkpointing-runs.json.ts, accumulation-checkpointing-defaults.json.ts), which both print it
// as `config`; the page builds its live models from that.
import { corpus } from "../../lib/nn/index.js";

export const { vocab, tokens } = corpus();
export const config = { vocabSize: vocab.size, contextLength: 8, embedDim: 8, width: 32, hiddenDim: 64, numBlocks: 2, seed: 1 };
