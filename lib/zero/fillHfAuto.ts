/**
 * What the Hugging Face Trainer (and Accelerate under it) does to a DeepSpeed
 * config before DeepSpeed reads it: fill `"auto"`, refuse a value that
 * contradicts its arguments, and add an fp16/bf16 block for `--fp16`/`--bf16`.
 */

/** The Trainer arguments `"auto"` is filled from (TrainingArguments names); an absent field was not given. */
export interface HfTrainerArgs {
  /** Data-parallel world size (GPUs). */
  world_size: number;
  per_device_train_batch_size?: number;
  gradient_accumulation_steps?: number;
  max_grad_norm?: number;
  learning_rate?: number;
  adam_beta1?: number;
  adam_beta2?: number;
  adam_epsilon?: number;
  weight_decay?: number;
  fp16?: boolean;
  bf16?: boolean;
  /** The model's hidden_size (for the ZeRO bucket sizes set to "auto"). */
  hidden_size?: number;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Fills `"auto"` values as transformers' `HfTrainerDeepSpeedConfig` does
 * (`trainer_config_process`, `trainer_config_finalize`), and refuses a value
 * that contradicts a Trainer argument that was given (its "Please correct the
 * following DeepSpeed config values that mismatch TrainingArguments"). A
 * Trainer argument left out is not checked; `"auto"` then takes the value in
 * `autoDefaults` (the caller's default, said in a note) or is an error.
 * With `--fp16`/`--bf16` given and no such block in the config, Accelerate's
 * `DeepSpeedPlugin.set_mixed_precision` adds `{enabled: true}` (and refuses
 * the other dtype enabled in the file).
 *
 * @param config the config as parsed JSON
 * @param t the Trainer's arguments (undefined: no Trainer, "auto" is an error)
 * @param autoDefaults values for "auto" when the matching argument is absent
 * @param notes receives one line per default used or key added
 * @returns a deep copy with every "auto" it knows filled
 * @throws TypeError `train_batch_size is "auto": only the Hugging Face Trainer fills it (from …); pass the Trainer's arguments`;
 *   RangeError `train_micro_batch_size_per_gpu is 4 but --per_device_train_batch_size is 2 (the Hugging Face Trainer refuses the mismatch)`;
 *   `--bf16 cannot be used when fp16 is enabled in the DeepSpeed config (Accelerate's set_mixed_precision)`
 * @example fillHfAuto({ train_micro_batch_size_per_gpu: "auto" }, { world_size: 8, per_device_train_batch_size: 4 }, {}, []).train_micro_batch_size_per_gpu // 4
 * @see huggingface/transformers src/transformers/integrations/deepspeed.py (HfTrainerDeepSpeedConfig) at 02348331;
 *   huggingface/accelerate src/accelerate/utils/dataclasses.py `DeepSpeedPlugin.set_mixed_precision` at 16cb6eb
 */
export function fillHfAuto(config: Json, t: HfTrainerArgs | undefined, autoDefaults: Partial<HfTrainerArgs>, notes: string[]): Json {
  const c: Json = structuredClone(config);
  const fill = (obj: Json | undefined, key: string, path: string, given: unknown, fallback: unknown, arg: string) => {
    if (!obj || !(key in obj)) return;
    if (obj[key] === "auto") {
      if (!t) throw new TypeError(`${path} is "auto": only the Hugging Face Trainer fills it (from ${arg}); pass the Trainer's arguments`);
      const v = given ?? fallback;
      if (v === undefined) throw new TypeError(`${path} is "auto" but ${arg} is not given`);
      if (given === undefined) notes.push(`${path} is "auto": filled with ${JSON.stringify(v)} (${arg} not given: the default)`);
      obj[key] = v;
    } else if (t && given !== undefined && JSON.stringify(obj[key]) !== JSON.stringify(given)) {
      throw new RangeError(`${path} is ${JSON.stringify(obj[key])} but ${arg} is ${JSON.stringify(given)} (the Hugging Face Trainer refuses the mismatch)`);
    }
  };
  const d = autoDefaults;
  const micro = t?.per_device_train_batch_size, gas = t?.gradient_accumulation_steps;
  fill(c, "train_micro_batch_size_per_gpu", "train_micro_batch_size_per_gpu", micro, d.per_device_train_batch_size, "--per_device_train_batch_size");
  fill(c, "gradient_accumulation_steps", "gradient_accumulation_steps", gas, d.gradient_accumulation_steps ?? 1, "--gradient_accumulation_steps");
  const total = (m: number | undefined, g: number | undefined) => (t && m !== undefined && g !== undefined ? t.world_size * m * g : undefined);
  fill(c, "train_batch_size", "train_batch_size", total(micro, gas), total(micro ?? d.per_device_train_batch_size, gas ?? d.gradient_accumulation_steps ?? 1),
    "world_size × --per_device_train_batch_size × --gradient_accumulation_steps");
  fill(c, "gradient_clipping", "gradient_clipping", t?.max_grad_norm, 1, "--max_grad_norm");
  if (t && (t.fp16 || t.bf16)) {
    const want = t.fp16 ? "fp16" : "bf16", other = t.fp16 ? "bf16" : "fp16";
    const otherOn = isObj(c[other]) ? String((c[other] as Json).enabled).toLowerCase() === "true" : other === "bf16" && isObj(c.bfloat16) && String(c.bfloat16.enabled).toLowerCase() === "true";
    if (otherOn) throw new RangeError(`--${want} cannot be used when ${other} is enabled in the DeepSpeed config (Accelerate's set_mixed_precision refuses it)`);
    if (!(want in c) && !(want === "bf16" && "bfloat16" in c)) {
      c[want] = want === "fp16" ? { enabled: true, auto_cast: true } : { enabled: true };
      notes.push(`no ${want} block: the Hugging Face Trainer (Accelerate's DeepSpeedPlugin.set_mixed_precision) adds ${JSON.stringify(c[want])} for --${want}; deepspeed.initialize on this file alone would train in fp32`);
    }
  }
  const flag = (k: "fp16" | "bf16") => (t && (t.fp16 !== undefined || t.bf16 !== undefined) ? Boolean(t[k]) : undefined);
  if (isObj(c.fp16)) fill(c.fp16, "enabled", "fp16.enabled", flag("fp16"), false, "--fp16");
  for (const k of ["bf16", "bfloat16"] as const) if (isObj(c[k])) fill(c[k] as Json, "enabled", `${k}.enabled`, flag("bf16"), false, "--bf16");
  const op = isObj(c.optimizer) && isObj(c.optimizer.params) ? c.optimizer.params : undefined;
  fill(op, "lr", "optimizer.params.lr", t?.learning_rate, 5e-5, "--learning_rate");
  fill(op, "betas", "optimizer.params.betas", t && (t.adam_beta1 !== undefined || t.adam_beta2 !== undefined) ? [t.adam_beta1 ?? 0.9, t.adam_beta2 ?? 0.999] : undefined, [0.9, 0.999], "--adam_beta1/--adam_beta2");
  fill(op, "eps", "optimizer.params.eps", t?.adam_epsilon, 1e-8, "--adam_epsilon");
  fill(op, "weight_decay", "optimizer.params.weight_decay", t?.weight_decay, 0, "--weight_decay");
  const zo = isObj(c.zero_optimization) ? c.zero_optimization : undefined;
  if (zo) {
    const h = t?.hidden_size;
    for (const [key, v] of [["reduce_bucket_size", h && h * h], ["stage3_prefetch_bucket_size", h && Math.floor(0.9 * h * h)], ["stage3_param_persistence_threshold", h && 10 * h]] as const) {
      if (zo[key] !== "auto") continue;
      if (key !== "reduce_bucket_size" && zo.stage !== 3) { delete zo[key]; notes.push(`zero_optimization.${key} is "auto" at stage ${JSON.stringify(zo.stage ?? 0)}: the Trainer fills it only at stage 3 (the number); unused here`); continue; }
      if (!h) throw new TypeError(`zero_optimization.${key} is "auto": the Trainer fills it from the model's hidden_size; give hidden_size`);
      zo[key] = v;
    }
  }
  if (isObj(c.scheduler) && isObj(c.scheduler.params)) for (const [k, v] of Object.entries(c.scheduler.params)) if (v === "auto") notes.push(`scheduler.params.${k} is "auto": the Trainer fills it from the run's length; not simulated`);
  return c;
}
