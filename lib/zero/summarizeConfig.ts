/**
 * A pasted configuration file, read by the parser of its framework, as plain
 * data a page can show (and a build can precompute): each setting read, what
 * is not modelled or ignored, or the error naming the key.
 */
import { parseDeepSpeedConfig } from "./parseDeepSpeedConfig.js";
import { readHfFsdpConfig } from "./hfFsdpConfig.js";
import { readAccelerateConfig } from "./readAccelerateConfig.js";
import { fsdpWords } from "./parseHfTrainerArgs.js";
import { fsdpToZero } from "./fsdpStrategy.js";

/** Which framework's file it is. */
export type ConfigKind = "deepspeed" | "hf-fsdp" | "accelerate";

/** What {@link summarizeConfig} returns: JSON-safe. */
export type ConfigSummary =
  | { ok: true; kind: ConfigKind; settings: { setting: string; value: string }[]; notModelled: string[]; ignored: string[]; deprecated: string[]; notes: string[] }
  | { ok: false; kind: ConfigKind; error: string };

const onOff = (b: boolean) => (b ? "on" : "off");

/**
 * Reads one file as its framework reads it: a DeepSpeed JSON config
 * (parseDeepSpeedConfig, "auto" filled as the HF Trainer fills it from a run on
 * `worldSize` GPUs with its other arguments left out), an HF Trainer
 * `--fsdp_config` JSON with the Trainer's `--fsdp` words, or an accelerate
 * config (YAML or JSON). Never throws: an error comes back as `{ok: false, error}`,
 * its message naming the key and the allowed values.
 * @param kind "deepspeed" | "hf-fsdp" | "accelerate"
 * @param text the file's text
 * @param o `worldSize` (GPUs of data parallelism, for DeepSpeed's batch rule), `hiddenSize` (the model's, for ZeRO-3 buckets set to "auto"), `fsdpWords` (the Trainer's --fsdp, for hf-fsdp)
 * @returns {@link ConfigSummary}
 * @example summarizeConfig("deepspeed", '{"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 3}}', { worldSize: 8 }).settings?.[0]
 *   // { setting: "ZeRO stage", value: "3" }
 * @see lib/zero/parseDeepSpeedConfig.ts, hfFsdpConfig.ts, readAccelerateConfig.ts (each with its framework's source and commit)
 */
export function summarizeConfig(kind: ConfigKind, text: string, o: { worldSize: number; fsdpWords?: string; hiddenSize?: number }): ConfigSummary {
  try {
    if (kind === "deepspeed") {
      const c = parseDeepSpeedConfig(text, { world_size: o.worldSize, hidden_size: o.hiddenSize }, { release: "v0.17.0", autoDefaults: { per_device_train_batch_size: 1 } });
      const off = c.offloadOptimizer;
      const settings = [
        { setting: "ZeRO stage", value: String(c.stage) },
        { setting: "precision", value: c.precision === "fp32" ? "fp32 (no fp16 or bf16 block enabled: DeepSpeed's default)" : c.precision },
        { setting: "train_batch_size", value: `${c.trainBatchSize} = ${c.microBatchPerGpu} × ${c.gradientAccumulationSteps} × ${c.dataParallelSize} (micro × accumulation × data parallel)` },
        { setting: "optimizer offload", value: off ? `${off.device}${off.device === "nvme" ? ` (pipeline_read ${onOff(off.pipeline_read)}, pipeline_write ${onOff(off.pipeline_write)}, ${off.buffer_count} buffers)` : ""}${off.ratio < 1 ? `, ratio ${off.ratio}` : ""}` : "none" },
        { setting: "parameter offload", value: c.offloadParam ? c.offloadParam.device : "none" },
        { setting: "overlap_comm / contiguous_gradients", value: `${c.knobs.overlap_comm} / ${c.knobs.contiguous_gradients}` },
        ...(c.aio ? [{ setting: "aio", value: `block_size ${c.aio.block_size}, queue_depth ${c.aio.queue_depth}, intra_op_parallelism ${c.aio.intra_op_parallelism}, single_submit ${c.aio.single_submit}, overlap_events ${c.aio.overlap_events}, use_gds ${c.aio.use_gds}` }] : []),
        ...(c.optimizerType ? [{ setting: "optimizer", value: c.optimizerType }] : []),
      ];
      const rest = c.notes.filter((n) => !/^(deprecated|not modelled|ignored): /.test(n));
      return { ok: true, kind, settings, notModelled: c.notModelled, ignored: c.ignored, deprecated: c.deprecated, notes: rest };
    }
    if (kind === "hf-fsdp") {
      let json: unknown;
      try { json = JSON.parse(text); } catch (e) { return { ok: false, kind, error: `not valid JSON (the Trainer reads --fsdp_config with json.load): ${(e as Error).message}` }; }
      const w = fsdpWords(o.fsdpWords ?? "full_shard auto_wrap");
      const c = readHfFsdpConfig(json);
      const strategy = c.version === 2 ? (c.reshardAfterForward === true ? "reshard_after_forward true (FULL_SHARD-like)" : `reshard_after_forward ${c.reshardAfterForward === null ? "absent: the Trainer's default false" : "false"} (SHARD_GRAD_OP-like)`) : w.fsdp;
      const stage = c.version === 2 ? (c.reshardAfterForward === true ? 3 : 2) : fsdpToZero(w.fsdp, Math.max(o.worldSize, 1)).zeroAnalogue;
      const settings = [
        { setting: "FSDP version", value: String(c.version) }, { setting: "sharding", value: `${strategy}: like ZeRO-${stage}` },
        { setting: "CPU offload", value: onOff(w.offload) }, { setting: "wrapping", value: c.transformerLayerClsToWrap ? `by layer class: ${c.transformerLayerClsToWrap.join(", ")}` : c.minNumParams > 0 ? `by size: ${c.minNumParams} parameters` : w.autoWrap ? "auto_wrap without a class or size (accelerate's default policy)" : "one unit (no auto_wrap)" },
        { setting: "backward_prefetch / forward_prefetch", value: `${c.backwardPrefetch} / ${c.forwardPrefetch}` },
        { setting: "use_orig_params / sync_module_states / cpu_ram_efficient_loading", value: `${c.useOrigParams} / ${c.syncModuleStates} / ${c.cpuRamEfficientLoading}` },
        { setting: "activation checkpointing", value: onOff(c.activationCheckpointing) },
      ];
      return { ok: true, kind, settings, notModelled: [], ignored: c.ignored, deprecated: [], notes: c.notes };
    }
    const a = readAccelerateConfig(text, "the pasted file");
    const settings = [
      { setting: "distributed_type", value: a.distributedType }, { setting: "mixed_precision", value: a.mixedPrecision ?? "absent (accelerate launch: no)" },
      { setting: "processes", value: a.numProcesses === null ? "not given" : `${a.numProcesses} on ${a.numMachines} machine${a.numMachines > 1 ? "s" : ""}` },
      ...(a.fsdp ? [
        { setting: "FSDP version / strategy", value: `${a.fsdp.version} / ${a.fsdp.strategy}` }, { setting: "CPU offload (fsdp_offload_params)", value: onOff(a.fsdp.offloadParams) },
        { setting: "activation checkpointing", value: onOff(a.fsdp.activationCheckpointing) },
      ] : []),
      ...(a.deepspeed ? [{ setting: "deepspeed_config", value: JSON.stringify(a.deepspeed) }] : []),
    ];
    return { ok: true, kind, settings, notModelled: [], ignored: a.notes.filter((n) => n.includes("ignored")), deprecated: [], notes: a.notes.filter((n) => !n.includes("ignored")) };
  } catch (e) {
    return { ok: false, kind, error: (e as Error).message };
  }
}
