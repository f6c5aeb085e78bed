/**
 * Tensor parallelism (Megatron-LM 1D, Shoeybi et al. 2019) on T simulated
 * ranks: column- and row-parallel linear layers with forward and backward, the
 * conjugate operators f and g, the transformer MLP and head-split attention
 * (with grouped-query attention, Megatron's fused QKV layout and its all-gather when T exceeds
 * the KV heads), sequence parallelism (Korthikanti et al.
 * 2022), vocabulary padding and valid T for a config, the communication per
 * layer (closed forms, checked against the World's event log), the
 * vocabulary-parallel cross-entropy, Colossal-AI's 2D (SUMMA), 2.5D and 3D layouts with
 * their per-rank costs against 1D (multiDimTpCosts), and a
 * lib/nn model trained tensor-parallel to the same weights as one device.
 * The collectives run on lib/collectives' World.
 */
export { TpComm, checkT, type TpCollective, type TpCommRecord } from "./comm.js";
export { MAPPINGS, fForward, fBackward, gForward, gBackward, spAllGather, spReduceScatter } from "./mappings.js";
export { divide, splitColumns, splitRows, concatColumns, concatRows } from "./shard.js";
export { ColumnParallelLinear, type ParallelLinearOptions } from "./ColumnParallelLinear.js";
export { RowParallelLinear } from "./RowParallelLinear.js";
export { addBiasRows, columnSums, checkRows } from "./shard.js";
export { TensorParallelMlp, type MlpWeights } from "./TensorParallelMlp.js";
export { attentionForward, attentionBackward, type AttentionShape, type AttentionWeights, type AttentionGrads } from "./attention.js";
export { tensorParallelAttentionForward, tensorParallelAttentionBackward, type TpAttentionGrads } from "./tensorParallelAttention.js";
export { fuseQkv, unfuseQkv, fusedQkvWidth, splitQkvGroups, joinQkvGroups } from "./fusedQkv.js";
export { paddedVocabSize, checkTensorParallelSize, validTensorParallelSizes, tpModelConfig, GQA_RULE_VERSION, MAKE_VOCAB_SIZE_DIVISIBLE_BY, type TpModelConfig, type GqaRule, type TpRuleOptions } from "./config.js";
export { tpCommPerLayer, tpTimePerLayer, NVLINK_A100, INFINIBAND_HDR, A100_BF16_FLOPS, type TpCommRow, type TpCommOptions, type TpTimeOptions } from "./cost.js";
export { tpCollectiveTime, type TpOverlap } from "./tpCollectiveTime.js";
export { tensorParallelBlock, trainTensorParallel, type TpTrainOptions } from "./train.js";
export { vocabParallelCrossEntropy, type VocabParallelCrossEntropyResult } from "./vocabParallelCrossEntropy.js";
export { summa2d, type SummaResult } from "./summa2d.js";
export { summa25d } from "./summa25d.js";
export { linear3d, type Linear3dResult } from "./linear3d.js";
export { multiDimTpCosts, type TpMode, type TpModeCost } from "./multiDimTpCosts.js";
