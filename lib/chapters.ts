/**
 * The course's chapter map, in reading order: the single source for the home
 * page, the site navigation (observablehq.config.ts) and the scorecard.
 *
 * `status: "written"` chapters have a page `src/<slug>.md`, a `lib/<slug>/`
 * and exercises; "coming" chapters are listed on the home page only.
 */

/**
 * One chapter of the course.
 * @see src/notes.md.ts (the notes page: which study note each chapter follows)
 */
export interface Chapter {
  /** 1-based position; exercise ids start with it ("1.2"). */
  number: number;
  /** Folder and file name in src/, lib/, exercises/. */
  slug: string;
  title: string;
  /** One sentence shown on the home page. */
  summary: string;
  status: "written" | "coming";
}

/**
 * Every chapter of the course, in order.
 * @example CHAPTERS.map((c) => c.slug).indexOf("flash-attention") + 1 // 10 (its chapter number)
 * @see src/notes.md.ts (the notes page: which study note each chapter follows); each chapter page's references (its primary sources)
 */
export const CHAPTERS: readonly Chapter[] = [
  { number: 1, slug: "precision", title: "Precision formats", summary: "fp32, fp16, bf16, tf32 and fp8: bits, range, rounding, and why accumulation needs more precision than storage.", status: "written" },
  { number: 2, slug: "memory", title: "Memory budget", summary: "Parameters, gradients, optimizer states and activations, per GPU, from a real config.json.", status: "written" },
  { number: 3, slug: "accumulation-checkpointing", title: "Gradient accumulation and checkpointing", summary: "Larger batches without more memory, and trading compute for activation memory.", status: "written" },
  { number: 4, slug: "amp", title: "Mixed precision (AMP)", summary: "fp32 master weights, loss scaling and GradScaler, step by step on a model that trains; then FP8 training with Transformer Engine's and DeepSeek-V3's scaling.", status: "written" },
  { number: 5, slug: "data-parallel", title: "Data parallelism (DP, DDP)", summary: "Collectives, ring all-reduce, parameter servers, and DDP's bucketed overlap.", status: "written" },
  { number: 6, slug: "tensor-parallel", title: "Tensor parallelism", summary: "Megatron-LM's column and row parallel layers and their communication.", status: "written" },
  { number: 7, slug: "pipeline-parallel", title: "Pipeline parallelism", summary: "GPipe, 1F1B and interleaved schedules, and the bubble.", status: "written" },
  { number: 8, slug: "zero", title: "ZeRO and FSDP", summary: "Sharding optimizer states, gradients and parameters across data-parallel ranks.", status: "written" },
  { number: 9, slug: "offload", title: "Offload (ZeRO-Offload, Gemini)", summary: "Using CPU memory for optimizer states and parameters, statically or with a chunk manager.", status: "written" },
  { number: 10, slug: "flash-attention", title: "FlashAttention", summary: "Tiled attention with the online softmax: exact, and far less slow-memory traffic.", status: "written" },
  { number: 11, slug: "sophia", title: "The Sophia optimizer", summary: "A clipped diagonal second-order optimizer, against AdamW.", status: "written" },
  { number: 12, slug: "plan", title: "Planning a training run", summary: "Putting it together: a planner that searches every layout of a model on a cluster, judged for memory and speed, against published runs and the notes' benchmark.", status: "written" },
  { number: 13, slug: "context-parallel", title: "Context parallelism", summary: "Ring attention over a sequence split across GPUs: exact, load-balanced with zig-zag shards, against the all-gather of Llama 3 and DeepSpeed-Ulysses.", status: "written" },
  { number: 14, slug: "expert-parallel", title: "Expert parallelism (mixture of experts)", summary: "Routing tokens to experts, capacity and load balancing, and experts spread over GPUs with two all-to-alls per layer.", status: "written" },
];

/**
 * The chapter with this slug.
 * @param slug a chapter's folder name, e.g. "data-parallel"
 * @returns its {@link Chapter} entry
 * @throws {Error} `unknown chapter "tp"; chapters: precision, memory, …` when no chapter has that slug
 * @example chapterBySlug("data-parallel").number // 5
 * @see {@link CHAPTERS}
 */
export function chapterBySlug(slug: string): Chapter {
  const c = CHAPTERS.find((ch) => ch.slug === slug);
  if (!c) throw new Error(`unknown chapter "${slug}"; chapters: ${CHAPTERS.map((ch) => ch.slug).join(", ")}`);
  return c;
}
