// Serving a decoder model: one engine iteration priced from its parts (matmuls against the
// weights streamed from HBM, attention over the KV cache and the new tokens, non-matmul
// kernels, TP all-reduces on the scale-up links, a fixed cost per layer), and continuous
// batching built on it: every admitted request pays its prefill inside the iterations (chunked
// prefill mixed with decode, as vLLM and TensorRT-LLM schedule), concurrency is capped by the KV
// cache that fits beside the weights in the usable HBM. Static batching for comparison.
// ISL / OSL / concurrency are the benchmark tables' language. Units: tokens, bytes, seconds.
#pragma once

#include "sim/calc/collectives.h"
#include "sim/calc/transformer.h"
#include "sim/specs.h"

namespace sim::calc {

/// One replica and the hardware it runs on.
struct ServingDesc {
  TransformerShape model;
  int tp = 1;  // GPUs of the replica, inside one scale-up domain
  int pp = 1;  // pipeline stages: memory splits over them; they serve in turn (time as tp alone)
  double weightBytes = 2;       // per parameter
  double kvBytes = 2;           // per KV element
  double activationBytes = 2;   // per activation element (all-reduces, non-matmul kernels)
  double gemm_flops = 0;        // achieved matmul rate per GPU in the math precision
  double attention_flops = 0;   // achieved attention rate per GPU
  double hbm_Bps = 0;           // achieved HBM streaming per GPU
  double usable_bytes = 0;      // HBM per GPU the driver reports
  double reserve_bytes = 0;     // the runtime's own HBM per GPU
  double memoryFraction = 0.9;  // of the usable HBM the engine takes (weights, reserve, KV)
  double maxNumTokens = 8192;   // tokens one iteration may schedule
  double kernelsPerLayer = 0;   // kernels a layer launches besides its all-reduces
  double kernelLaunch_s = 0;    // the shortest a kernel can take
  // Whether each query head of a decode step loads its KV head's cache itself (TensorRT-LLM's
  // masked multi-head attention before XQA, v0.7), so a GPU reads each cached K/V element once
  // per query head it holds that shares it; false: once for the whole GQA group (XQA,
  // FlashDecoding, FlashInfer).
  bool kvReadPerQueryHead = false;
  CollectiveTopology tpTopology;  // the replica's TP group
  CollectiveSpec collectives;
};

/// The parts of one iteration's time on one replica.
struct IterationCost {
  double matmul_s = 0;       // max(FLOPs / achieved rate, weight bytes / achieved HBM)
  double attention_s = 0;    // KV read(s) of the decoding sequences + prefill attention FLOPs
  double elementwise_s = 0;  // norms, residuals, RoPE, activation over the new tokens
  double tpComm_s = 0;       // 2 all-reduces per layer of the new tokens' activations
  double fixed_s = 0;        // layers x kernels x the shortest kernel
  double total_s = 0;
};

/// One iteration that processes `tokens` new tokens (decode tokens + prefill chunk), of which
/// `logitTokens` need the output head, with decoding sequences holding `kvTokens` of context in
/// total and prefill attention of `prefillAttentionFlops` (forward, whole replica).
IterationCost iterationCost(const ServingDesc& d, double tokens, double logitTokens,
                            double kvTokens, double prefillAttentionFlops);

/// Weights per GPU (bytes): all parameters / (tp pp).
double servingWeightsPerGpu(const ServingDesc& d);
/// KV cache tokens one replica holds: (usable x memory fraction - reserve - weights) per GPU /
/// KV bytes per token per GPU (vLLM's gpu_memory_utilization rule); 0 when nothing fits.
double kvCapacityTokens(const ServingDesc& d);

struct ServingResult {
  double maxConcurrency = 0;         // requests whose whole ISL + OSL KV fits (no preemption)
  double concurrency = 0;            // requests decoding together
  double ttft_s = 0;                 // time to first token of a request at this load (prefill)
  double tpot_s = 0;                 // time per output token (one mixed iteration)
  double latency_s = 0;              // ttft + (osl - 1) tpot
  double outputTokensPerSecond = 0;  // one replica
  double requestsPerSecond = 0;
  IterationCost iteration;  // the steady-state iteration
  IterationCost prefill;    // a lone request's prefill
};

/// Continuous batching at `concurrency` requests in flight (0 = as many as the KV cache holds),
/// or, with `requestRate_per_s` > 0, at the concurrency that rate sustains (Little's law; capped
/// by the KV cache). In steady state each iteration decodes one token of every request and
/// prefills concurrency x ISL / OSL prompt tokens (the admissions that replace the finishers).
ServingResult continuousBatching(const ServingDesc& d, double isl, double osl, double concurrency,
                                 double requestRate_per_s);

/// Static batching: the batch's prompts prefill together, then OSL decode iterations with the
/// context growing (priced at its mean); throughput = batch x OSL / total.
ServingResult staticBatching(const ServingDesc& d, double isl, double osl, double batch);

}  // namespace sim::calc
