// The lib code that src/tensor-parallel.md imports, bundled into one module by scripts/bundle.ts.
export {TpComm, ColumnParallelLinear, RowParallelLinear, TensorParallelMlp, splitColumns, concatColumns, concatRows, attentionForward, tensorParallelAttentionForward, attentionBackward, tensorParallelAttentionBackward, unfuseQkv, fusedQkvWidth, tpCommPerLayer, tpTimePerLayer, paddedVocabSize, NVLINK_A100, INFINIBAND_HDR, A100_BF16_FLOPS, MAKE_VOCAB_SIZE_DIVISIBLE_BY, summa2d, multiDimTpCosts} from "../../lib/tensor-parallel/index.js";
export {matmul, mulberry32, gaussian, residualMlp, FP32} from "../../lib/nn/index.js";
export {activationBytesPerLayer} from "../../lib/memory/index.js";
