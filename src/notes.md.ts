// The notes page, written at build time (an Observable Framework page loader:
// its output is the page's Markdown). What each study note covers is written
// here in the course's own words; the errata table is generated from
// lib/corrections.ts, the entries that the chapters' correction boxes carry
// (test/corrections.test.ts keeps boxes and entries one to one).
import { CHAPTERS, chapterBySlug } from "../lib/chapters.js";
import { CORRECTIONS } from "../lib/corrections.js";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
/** Escaped text with `code` spans kept. */
const inline = (s: string) => esc(s).replace(/`([^`]+)`/g, "<code>$1</code>");

/** A chapter's name, linked when its page is written. */
function chapterLink(slug: string): string {
  const c = chapterBySlug(slug);
  const name = `${c.number}. ${esc(c.title)}`;
  return c.status === "written" ? `<a href="./${c.slug}">${name}</a>` : `${name} <span class="muted">(coming)</span>`;
}

interface Note {
  id: string;
  title: string;
  titleZh: string;
  about: string;
  /** Chapter slug → what the note says that the chapter takes up. */
  covers: [string, string][];
}

const NOTES: Note[] = [
  {
    id: "000",
    title: "Reading LLM papers: techniques for training models",
    titleZh: "LLM论文阅读——模型训练技巧",
    about: "A survey of why training needs so much GPU memory and of the techniques that reduce it or spread it over many GPUs, each in a few paragraphs, with short PyTorch examples.",
    covers: [
      ["precision", "The bit layouts of fp32, fp16 and bf16 (sign, exponent, mantissa), and that bf16 keeps fp32's range with fewer mantissa bits."],
      ["memory", "What occupies memory in training: parameters, gradients, Adam's two moments (counted in fp32, four bytes each) and activations that grow with batch size and sequence length; and a list of remedies (a smaller batch, mixed precision, accumulation, checkpointing, parameter-efficient fine-tuning, offload)."],
      ["accumulation-checkpointing", "The gradient-accumulation loop (loss divided by the number of micro-batches, one optimizer step per window) with the claim that it equals a large batch and speeds training up; activation checkpointing with `torch.utils.checkpoint` on a three-layer example."],
      ["amp", "Why fp16 alone fails (overflow, underflow, rounding of small updates) and the three remedies: an fp32 master copy of the weights, loss scaling, fp32 accumulation inside matrix products; the step-by-step recipe; a PyTorch example with `autocast`, `GradScaler` and `unscale_` before gradient clipping."],
      ["data-parallel", "Ring all-reduce against a parameter server; PyTorch's DataParallel (one process, threads, the main GPU as bottleneck) against DistributedDataParallel (one process per GPU, parameters broadcast from rank 0, a reducer that overlaps the all-reduce with the backward pass)."],
      ["tensor-parallel", "Splitting a layer's weight matrices by rows or by columns; Megatron-LM's one-dimensional scheme and Colossal-AI's multi-dimensional ones."],
      ["pipeline-parallel", "Placing consecutive layers on different GPUs; a naive pipeline and one with micro-batches."],
      ["zero", "DeepSpeed's ZeRO: the three kinds of model state (optimizer states, gradients, parameters) and the three stages that shard them in turn."],
      ["offload", "ZeRO-Offload (forward and backward on the GPU, the optimizer step on the CPU) and an ordering of the stages, with and without offload, by speed and by memory."],
    ],
  },
  {
    id: "003",
    title: "Fully sharded data-parallel training with FSDP",
    titleZh: "基于FSDP实现完全分片数据并行训练",
    about: "A tutorial whose outline runs from prerequisites through FSDP, a small implementation, fine-tuning, merging and inference; the copy the course follows holds the prerequisites: precision formats and mixed-precision training.",
    covers: [
      ["precision", "fp32, fp16, bf16 and tf32: where each comes from (bf16 from Google Brain's TPUs), fp16's range, and tf32 as a 19-bit format in which tensor cores multiply fp32 inputs rounded to a 10-bit mantissa and accumulate in fp32; integer formats for quantized inference."],
      ["amp", "Mixed precision as two copies of the model state: fp32 parameters and optimizer states that take the update, and an fp16 copy for forward and backward, made again after each step; its gains in speed, activation memory and communication."],
      ["zero", "Fully sharded data parallelism (FSDP), named as the note's subject; its sections on FSDP itself are listed in its outline."],
    ],
  },
  {
    id: "004",
    title: "LLM pre-training performance under several schemes",
    titleZh: "探索多种方案下 LLM 的预训练性能",
    about: "A benchmark on one node of 8 GPUs: one epoch of pre-training through the Hugging Face Trainer (or ColossalAI), with the launch commands, the DeepSpeed configuration and the reported run time and samples per second of each scheme. The tokenizer is Llama-2-13B's; the model's own config.json is not shown.",
    covers: [
      ["memory", "The peak GPU and CPU memory that ColossalAI's Gemini logs during the run."],
      ["accumulation-checkpointing", "The baseline's settings: 8 micro-batches accumulated per step, activation checkpointing on."],
      ["amp", "fp16 training through the Trainer's `--fp16`, and DeepSpeed's fp16 loss-scaler settings (window, initial power, hysteresis, minimum scale)."],
      ["data-parallel", "PyTorch DDP as the baseline every other scheme is compared with."],
      ["zero", "FSDP (`full_shard auto_wrap`), ZeRO-2 and ZeRO-3 runs against the baseline."],
      ["offload", "ZeRO-3 with offload, and ColossalAI's Gemini, which moves tensors between CPU and GPU memory from statistics gathered in warm-up iterations (run with a different batch size)."],
      ["flash-attention", "FlashAttention patched into Llama's attention, alone and with FSDP, DeepSpeed and Gemini."],
      ["sophia", "A paragraph on the Sophia optimizer: a clipped update preconditioned by an estimate of the Hessian's diagonal, and its reported savings over Adam on GPT-2."],
    ],
  },
];

const order = (slug: string) => chapterBySlug(slug).number;

/** Chapters, or sections of chapters, that go beyond the notes: no note covers them (chapter slug → what it adds). */
const BEYOND_NOTES: [string, string][] = [
  ["amp", "Its section \"FP8 training\": E4M3/E5M2 GEMMs on the course's model, Transformer Engine's delayed and current scaling, DeepSeek-V3's block-wise scaling and MXFP8, from Transformer Engine's source and the DeepSeek-V3 report (the notes name no FP8 format)."],
  ["context-parallel", "Ring attention over a sequence split across GPUs, its load balance under a causal mask, the all-gather that Llama 3 used and DeepSpeed-Ulysses, from the papers and Megatron-LM's and Transformer Engine's source."],
  ["expert-parallel", "Mixture-of-experts layers (routing, capacity, load balancing) and expert parallelism with its all-to-alls, from the papers and Megatron-LM's source."],
];

const beyond = `## Beyond the notes

No note covers these chapters (or, where a chapter the notes do cover is named, the section given); they follow the primary sources their pages cite.

<table class="notes-coverage">
<thead><tr><th scope="col">chapter</th><th scope="col">what it adds</th></tr></thead>
<tbody>
${[...BEYOND_NOTES].sort((a, b) => order(a[0]) - order(b[0])).map(([slug, text]) => `<tr><th scope="row">${chapterLink(slug)}</th><td>${inline(text)}</td></tr>`).join("\n")}
</tbody>
</table>
`;

const noteSections = NOTES.map((n) => `## Note ${n.id}: ${n.title}

*${n.titleZh}*

${n.about}

<table class="notes-coverage">
<thead><tr><th scope="col">chapter</th><th scope="col">what the note covers</th></tr></thead>
<tbody>
${[...n.covers].sort((a, b) => order(a[0]) - order(b[0])).map(([slug, text]) => `<tr><th scope="row">${chapterLink(slug)}</th><td>${inline(text)}</td></tr>`).join("\n")}
</tbody>
</table>
`).join("\n");

const errata = CORRECTIONS.length === 0
  ? "No correction is recorded yet."
  : `<table class="errata">
<thead><tr><th scope="col">chapter</th><th scope="col">the notes say</th><th scope="col">the correction</th><th scope="col">source</th></tr></thead>
<tbody>
${CORRECTIONS.map((c) => `<tr id="erratum-${esc(c.id)}"><th scope="row">${chapterLink(c.chapter)}<br><a href="./${c.chapter}#correction-${esc(c.id)}">${esc(c.title)}</a></th><td>${inline(c.claim)}</td><td>${inline(c.correction)}</td><td>${inline(c.source)}</td></tr>`).join("\n")}
</tbody>
</table>`;

const byChapter = CHAPTERS.filter((c) => CORRECTIONS.some((e) => e.chapter === c.slug)).map((c) => `${c.title} ${CORRECTIONS.filter((e) => e.chapter === c.slug).length}`).join(", ");

process.stdout.write(`---
toc: true
---

# The study notes and their errata

The course follows three study notes, written in Chinese by others and not
part of this repository. This page says, in the course's words, what each
note covers and where the course takes it up; each chapter's glossary keeps
the notes' Chinese terms. Where a note is wrong or out of date, the chapter
says so in a box headed *Correction*, with the primary source; the table at
the end lists every such box.

${noteSections}
${beyond}
## Errata

Every place where the course corrects the notes${CORRECTIONS.length ? ` (${CORRECTIONS.length}: ${byChapter})` : ""}, from the same
data as the chapters' correction boxes; the title links to the box, which
gives the whole argument.

${errata}

<style>
.notes-coverage th[scope="row"], .errata th[scope="row"] { text-align: left; font-weight: normal; vertical-align: top; min-width: 8rem; }
.notes-coverage td, .errata td { vertical-align: top; }
.errata td { min-width: 12rem; }
</style>
`);
