/**
 * The chapter's Gemini scenario on lib/nn's model: one place for the page,
 * its data loader and the tests.
 */
import { corpus, createModel, DEFAULT_MODEL } from "../nn/index.js";
import { recordMemStats, type OperatorStat } from "./recordMemStats.js";
import { searchChunkSize, type ChunkSearchResult } from "./searchChunkSize.js";

/** The scenario. */
export interface GeminiDemo {
  /** Parameter names and sizes (elements), as model.params. */
  names: string[];
  sizes: number[];
  /** Warm-up statistics at {@link GEMINI_DEMO_ROWS} tokens per batch. */
  ops: OperatorStat[];
  search: ChunkSearchResult;
  /** A GPU sized so that the chunks can fill half of what the non-model peak leaves: (peak non-model + ½ · all fp16 chunks' bytes) / 0.9. */
  gpuCapacityBytes: number;
  /** Non-model growth after warm-up that breaks `auto` and not `cpu` (×1.2). */
  nonModelGrowth: number;
}

/** Tokens per batch of the scenario: 16 (2 sequences × 8). */
export const GEMINI_DEMO_ROWS = 16;

/**
 * lib/nn's DEFAULT_MODEL, its warm-up statistics for 16 tokens, the chunk size
 * from a search over 1024 elements in steps of 32, and a GPU just large enough
 * for `auto` when the non-model memory stays as recorded.
 * @returns the scenario, new objects
 * @example geminiDemo().search.chunkSize // 2112 elements
 * @see {@link recordMemStats}, {@link searchChunkSize}, {@link simulateGemini}
 */
export function geminiDemo(): GeminiDemo {
  const model = createModel({ ...DEFAULT_MODEL, vocabSize: corpus().vocab.size });
  const sizes = model.params.map((p) => p.data.length);
  const ops = recordMemStats(model, GEMINI_DEMO_ROWS);
  const search = searchChunkSize(sizes, { searchRange: 1024, searchInterval: 32 });
  const peak = Math.max(...ops.map((o) => o.nonModelBytes));
  const chunkBytesAll = 2 * sizes.reduce((a, b) => a + b, 0);
  return { names: model.params.map((p) => p.name), sizes, ops, search, gpuCapacityBytes: Math.round((peak + 0.5 * chunkBytesAll) / 0.9), nonModelGrowth: 1.2 };
}
