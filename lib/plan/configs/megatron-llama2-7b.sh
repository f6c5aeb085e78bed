#!/bin/bash
# Llama-2-7B pretraining with Megatron-LM on 2 nodes of 8 GPUs (tensor 2 × pipeline 2 × data 4).
# The flags follow Megatron-LM's examples/llama and docs/llama_mistral.md.

GPUS_PER_NODE=8
NNODES=2
TP=2
PP=2
MBS=2
GBS=$((MBS*4*16))

DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NNODES
    --master_addr localhost
    --master_port 6000
)

MODEL_ARGS=(
    --num-layers 32
    --hidden-size 4096
    --ffn-hidden-size 11008
    --num-attention-heads 32
    --seq-length 4096
    --max-position-embeddings 4096
    --position-embedding-type rope
    --normalization RMSNorm
    --swiglu
    --untie-embeddings-and-output-weights
    --disable-bias-linear
    --tokenizer-type Llama2Tokenizer
    --tokenizer-model /data/tokenizer.model
    --vocab-size 32000
    --make-vocab-size-divisible-by 1
)

TRAINING_ARGS=(
    --micro-batch-size $MBS
    --global-batch-size $GBS
    --train-iters 250000
    --lr 3.0e-4
    --min-lr 3.0e-5
    --lr-decay-style cosine
    --weight-decay 0.1
    --clip-grad 1.0
    --bf16
    --use-distributed-optimizer
    --recompute-activations
)

MODEL_PARALLEL_ARGS=(
    --tensor-model-parallel-size $TP
    --pipeline-model-parallel-size $PP
    --sequence-parallel
)

torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py \
    ${MODEL_ARGS[@]} \
    ${TRAINING_ARGS[@]} \
    ${MODEL_PARALLEL_ARGS[@]} \
    --data-path /data/llama_text_document \
    --save /checkpoints --load /checkpoints
