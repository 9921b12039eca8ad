// Parallelism calculators: TP/PP/DP/EP layouts, pipeline bubbles (GPipe arXiv:1811.06965;
// Narayanan et al. arXiv:2104.04473), Megatron TP traffic (Shoeybi et al. arXiv:1909.08053;
// Korthikanti et al.), compute-bound thresholds (JAX scaling book) and training time (8TP/(nX)).
// Units: bytes, seconds, FLOP/s, tokens.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sim::calc {

/// Degrees of tensor, pipeline, data, expert and context parallelism (EP splits the DP ranks'
/// experts; CP splits each sequence).
struct ParallelLayout {
  int tp = 1;
  int pp = 1;
  int dp = 1;
  int ep = 1;
  int cp = 1;
};
/// GPUs the layout occupies: tp x cp x pp x dp, multiplied in 64 bits; nullopt when a degree is
/// below 1 or the product passes 2^63 (so no layout wraps to a small or negative count).
std::optional<int64_t> layoutGpus(const ParallelLayout& layout);
/// "" when the layout is valid (all >= 1, ep divides dp, heads divisible by tp, layers by pp),
/// otherwise a message naming the offending degree.
std::string checkLayout(const ParallelLayout& layout, int heads, int layers, int experts);

/// 1F1B / GPipe bubble relative to ideal compute: (p - 1) / m.
double bubbleFraction1F1B(int stages, int microBatches);
/// Bubble as a share of the whole iteration: (p - 1) / (m + p - 1).
double bubbleShareOfIteration(int stages, int microBatches);
/// Interleaved 1F1B with v virtual stages per device: (p - 1) / (v m).
double bubbleFractionInterleaved(int stages, int microBatches, int virtualStages);

/// Layers on pipeline stage `stage` of `stages`: an even split, the remainder going to the
/// middle stages first, so the first stage (embedding) and the last (output head and loss) get
/// fewer layers when there are spare ones (Llama 3, arXiv:2407.21783 §3.3.2: one layer less on
/// each of the first and last stages).
int stageLayers(int layers, int stages, int stage);
/// Micro-batches whose activations stage `stage` holds at its peak, in units of the whole
/// stage: 1F1B keeps min(m, p - s) (Narayanan et al. arXiv:2104.04473 §2.2); interleaving keeps
/// min(m v, 2 (p - s - 1) + (v - 1) p + 1) chunks of 1/v of the stage (Megatron-LM's warm-up).
double inFlightMicroBatches(int stage, int stages, int microBatches, int virtualStages);

/// Megatron TP all-reduces per transformer layer per micro-batch: 2 forward + 2 backward.
int tpAllReducesPerLayer();
/// Bytes of one TP all-reduce: microBatch x seqLen x hidden x bytesPerElement.
double tpAllReduceBytes(double microBatch, double seqLen, double hidden, double bytesPerElement);
/// Pipeline point-to-point bytes per stage boundary per micro-batch (forward activation):
/// microBatch x seqLen x hidden x bytesPerElement.
double ppActivationBytes(double microBatch, double seqLen, double hidden, double bytesPerElement);
/// MoE all-to-all bytes per MoE layer per step (dispatch + combine):
/// 2 x tokens x expertsPerToken x hidden x bytesPerElement.
double moeAllToAllBytes(double tokens, double expertsPerToken, double hidden,
                        double bytesPerElement);

/// Data-parallel compute-bound threshold: tokens per GPU per step > C / W (scaling book).
double dpComputeBoundTokensPerGpu(double peak_flops, double bandwidth_Bps);
/// Largest TP degree that stays compute bound for an FFN of width F: F x W / C (scaling book).
double tpComputeBoundMaxDegree(double ffn, double peak_flops, double bandwidth_Bps);

/// Megatron end-to-end training time with recompute: 8 T P / (n X) (arXiv:2104.04473 §5.1).
double megatronTrainingTime_s(double tokens, double params, double gpus, double flopsPerGpu);

}  // namespace sim::calc
