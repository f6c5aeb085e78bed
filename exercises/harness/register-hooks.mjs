// Registers the resolution of `llm-training-course/…` for graders outside the
// repository (resolve-hook.mjs). Imported by the grade command and each grading
// worker after tsx's loader, so that it runs first.
import { register } from "node:module";

register("./resolve-hook.mjs", import.meta.url);
