// The workload sections of an evaluation: memory (serving budget or the per-stage training
// breakdown), compute (serving latency and throughput, or the training step from its parts) and
// the parallel layout.
#include <algorithm>
#include <cmath>

#include "sim/calc/compute.h"
#include "sim/calc/memory.h"
#include "sim/calc/parallelism.h"
#include "sim/evaluate_context.h"

namespace sim::detail {
namespace {

bool training(const Context& c) {
  return c.scenario.workload.kind == "training";
}

// Capacity, required bytes, fit and the margin either way.
void fitOutputs(Writer& w, double required, double capacity) {
  w.flag("fits", required <= capacity);
  w.num("headroom_bytes", std::max(0.0, capacity - required), "B");
  w.num("shortfall_bytes", std::max(0.0, required - capacity), "B");
}

void stageOutputs(Writer& w, const std::string& prefix, const calc::StageMemory& m) {
  w.num(prefix + "_index", m.stage, "count");
  w.num(prefix + "_layers", m.layers, "count");
  w.num(prefix + "_in_flight_micro_batches", m.inFlightMicroBatches, "count");
  w.num(prefix + "_weights_bytes", m.weights_bytes, "B");
  w.num(prefix + "_gradients_bytes", m.gradients_bytes, "B");
  w.num(prefix + "_optimizer_bytes", m.optimizer_bytes, "B");
  w.num(prefix + "_activations_bytes", m.activations_bytes, "B");
  w.num(prefix + "_logits_bytes", m.logits_bytes, "B");
  w.num(prefix + "_gathered_bytes", m.gathered_bytes, "B");
  w.num(prefix + "_total_bytes", m.total_bytes, "B");
}

// Tokens in flight for the MLP's matmul to reach the ridge. A GEMM's intensity never exceeds
// 2DF / (b (D + F)): on a device whose ridge is higher it stays memory-bound at any batch, and
// there is no such count to print (the key is left out rather than printed as infinity).
void criticalBatch(const Context& c, Writer& w, double peak_flops, double bytesPerElement) {
  const double tokens = calc::criticalTokens(c.model.hidden, c.model.intermediate, bytesPerElement,
                                             calc::ridgePoint(peak_flops, c.gpu.hbmBandwidth_Bps));
  if (std::isfinite(tokens)) w.num("critical_batch_tokens", tokens, "tokens");
}

void servingMemory(const Context& c, Writer& w) {
  const WorkloadDesc& wl = c.scenario.workload;
  const calc::ServingDesc d = servingDesc(c, c.gpu);
  const calc::ServingResult r = serve(c, c.gpu);
  const double requested = wl.batch > 0 ? wl.batch : std::max(r.maxConcurrency, 1.0);
  const double perToken = calc::kvCacheBytesPerToken(c.model, c.kv);
  const double tokens = wl.promptTokens + wl.outputTokens;  // reserved whole: no preemption
  const double kvPerGpu =
      requested * tokens * calc::kvBytesPerTokenPerGpu(c.shape, wl.tp, d.kvBytes) / wl.pp;
  const double weightsPerGpu = calc::servingWeightsPerGpu(d);
  const double required = weightsPerGpu + d.reserve_bytes + kvPerGpu;
  const double budget = d.usable_bytes * d.memoryFraction;
  w.num("weights_per_gpu_bytes", weightsPerGpu, "B");
  w.num("kv_cache_bytes_per_token", perToken, "B");
  w.num("kv_cache_bytes", calc::kvCacheBytes(perToken, tokens, requested), "B");
  w.num("kv_cache_per_gpu_bytes", kvPerGpu, "B");
  w.num("framework_reserve_bytes", d.reserve_bytes, "B");
  w.num("serving_budget_per_gpu_bytes", budget, "B");
  w.num("inference_per_gpu_bytes", required, "B");
  w.num("kv_capacity_tokens", calc::kvCapacityTokens(d), "tokens");
  w.num("max_batch", r.maxConcurrency, "count");
  fitOutputs(w, required, budget);
}

void trainingMemory(const Context& c, Writer& w) {
  const calc::TrainingDesc d = trainingDesc(c);
  const std::vector<calc::StageMemory> stages = calc::stageMemory(d);
  const auto peak = std::max_element(stages.begin(), stages.end(),
                                     [](const calc::StageMemory& a, const calc::StageMemory& b) {
                                       return a.total_bytes < b.total_bytes;
                                     });
  const WorkloadDesc& wl = c.scenario.workload;
  const double tokens = wl.microBatch * wl.seqLen / wl.cp;
  w.num("training_state_bytes", calc::trainingStateBytes(c.params, c.hw.rules.adamBytesPerParam),
        "B");
  w.num("model_state_per_gpu_bytes",
        peak->weights_bytes + peak->gradients_bytes + peak->optimizer_bytes, "B");
  w.num("activation_bytes_per_layer",
        calc::layerActivationBytes(c.shape, d.activations, tokens, wl.seqLen, wl.tp), "B");
  w.num("activations_per_gpu_bytes", peak->activations_bytes + peak->logits_bytes, "B");
  w.num("framework_reserve_bytes", d.reserve_bytes, "B");
  w.num("training_per_gpu_bytes", peak->total_bytes, "B");
  stageOutputs(w, "first_stage", stages.front());
  stageOutputs(w, "peak_stage", *peak);
  stageOutputs(w, "last_stage", stages.back());
  fitOutputs(w, peak->total_bytes, c.gpu.hbmUsable_bytes);
}

void servingCompute(const Context& c, Writer& w) {
  const WorkloadDesc& wl = c.scenario.workload;
  const double peak = denseFlops(c.gpu, c.compute);
  const double elem = bytesPerElement(c.weights);
  const calc::ServingResult r = serve(c, c.gpu);
  const calc::ServingDesc d = servingDesc(c, c.gpu);
  const double perReplica = r.outputTokensPerSecond;
  criticalBatch(c, w, peak, elem);
  w.num("flops_per_token", calc::inferenceFlopsPerToken(c.activeParams), "FLOP");
  w.num("prefill_intensity_flops_per_byte",
        calc::gemmIntensity(std::max(1, wl.batch) * wl.promptTokens, c.model.hidden,
                            c.model.intermediate, elem),
        "FLOP/B");
  w.num(
      "decode_intensity_flops_per_byte",
      calc::gemmIntensity(std::max(r.concurrency, 1.0), c.model.hidden, c.model.intermediate, elem),
      "FLOP/B");
  w.text("batching", wl.batching);
  w.num("max_concurrency", r.maxConcurrency, "count");
  w.num("concurrency", r.concurrency, "count");
  w.num("replicas", wl.dp, "count");
  if (r.maxConcurrency < 1) {
    // Nothing is served, so no request has a latency and no iteration a time: the keys are left
    // out (0 s would read as infinitely fast) and the reason said instead.
    w.text("latency",
           "not applicable: not one request fits in the serving budget beside the "
           "weights (memory.fits is false)");
    return;
  }
  w.num("ttft_s", r.ttft_s, "s");
  w.num("tpot_s", r.tpot_s, "s");
  w.num("tokens_per_s_per_sequence", r.tpot_s > 0 ? 1.0 / r.tpot_s : 0.0, "tokens/s");
  w.num("request_latency_s", r.latency_s, "s");
  w.num("requests_per_s", r.requestsPerSecond, "requests/s");
  w.num("output_tokens_per_s", perReplica, "tokens/s");
  w.num("output_tokens_per_s_per_gpu", perReplica / replicaGpus(c), "tokens/s");
  const double batch = wl.batch > 0 ? wl.batch : std::max(r.maxConcurrency, 1.0);
  w.num(
      "continuous_batching_tokens_per_s",
      calc::continuousBatching(d, wl.promptTokens, wl.outputTokens, batch, 0).outputTokensPerSecond,
      "tokens/s");
  w.num("static_batching_tokens_per_s",
        calc::staticBatching(d, wl.promptTokens, wl.outputTokens, batch).outputTokensPerSecond,
        "tokens/s");
  w.num("iteration_s", r.iteration.total_s, "s");
  w.num("iteration_matmul_s", r.iteration.matmul_s, "s");
  w.num("iteration_attention_s", r.iteration.attention_s, "s");
  w.num("iteration_elementwise_s", r.iteration.elementwise_s, "s");
  w.num("iteration_tp_comm_s", r.iteration.tpComm_s, "s");
  w.num("iteration_fixed_s", r.iteration.fixed_s, "s");
  w.num("prefill_s", r.prefill.total_s, "s");
  w.num("cluster_tokens_per_s", wl.dp * perReplica, "tokens/s");
}

void trainingCompute(const Context& c, Writer& w) {
  const calc::TrainingDesc d = trainingDesc(c);
  const calc::TrainingStep s = calc::trainingStep(d);
  const double gpus = replicaGpus(c) * c.scenario.workload.dp;
  const double tokens = trainingTokens(c);
  const double time = trainingTime_s(c, s);
  criticalBatch(c, w, d.peak_flops, bytesPerElement(c.weights));
  w.num("model_flops_per_token", s.modelFlopsPerToken, "FLOP");
  w.num("layer_compute_s", s.layerCompute_s, "s");
  w.num("layer_matmul_s", s.layerMatmul_s, "s");
  w.num("layer_attention_s", s.layerAttention_s, "s");
  w.num("layer_elementwise_s", s.layerElementwise_s, "s");
  w.num("layer_tp_comm_s", s.layerTpComm_s, "s");
  w.num("layer_cp_comm_s", s.layerCpComm_s, "s");
  w.num("head_s", s.headCompute_s, "s");
  w.num("stage_layers", s.stageLayers, "count");
  w.num("pp_send_s", s.ppSend_s, "s");
  w.num("micro_batch_slot_s", s.slot_s, "s");
  w.num("pipeline_s", s.pipeline_s, "s");
  w.num("bubble_s", s.pipeline_s - c.scenario.workload.microBatches * s.slot_s, "s");
  w.num("dp_reduce_scatter_s", s.dpReduceScatter_s, "s");
  w.num("dp_all_gather_s", s.dpAllGather_s, "s");
  w.num("dp_overlap_window_s", s.dpOverlapWindow_s, "s");
  w.num("dp_exposed_s", s.dpExposed_s, "s");
  w.num("sharded_layer_all_gather_s", s.shardedLayerAllGather_s, "s");
  w.num("sharded_layer_reduce_scatter_s", s.shardedLayerReduceScatter_s, "s");
  w.num("sharded_forward_exposed_s", s.shardedForwardExposed_s, "s");
  w.num("sharded_backward_exposed_s", s.shardedBackwardExposed_s, "s");
  w.num("optimizer_s", s.optimizer_s, "s");
  w.num("step_time_s", s.step_s, "s");
  w.num("tokens_per_step", s.tokensPerStep, "tokens");
  w.num("tokens_per_s_per_gpu", s.tokensPerSecondPerGpu, "tokens/s");
  w.num("model_flops_per_gpu_flops", s.modelFlopsPerGpu_flops, "FLOP/s");
  w.num("mfu", s.mfu, "share");
  w.num("training_tokens", tokens, "tokens");
  w.num("training_flops", tokens * s.modelFlopsPerToken, "FLOP");
  w.num("training_flops_6nd", calc::trainingFlops(c.activeParams, tokens, false), "FLOP");
  w.num("effective_training_time_fraction", c.hw.rules.effectiveTrainingTime, "share");
  w.num("training_time_s", time, "s");
  w.num("megatron_time_s",
        calc::megatronTrainingTime_s(tokens, c.activeParams, gpus, s.modelFlopsPerGpu_flops), "s");
  w.num("gpu_hours", time * gpus / 3600.0, "h");
}

}  // namespace

double trainingTokens(const Context& c) {
  return c.scenario.workload.trainingTokens > 0 ? c.scenario.workload.trainingTokens
                                                : c.model.trainingTokens;
}

double trainingTime_s(const Context& c, const calc::TrainingStep& s) {
  // At least one step: a run of fewer tokens than a step holds still takes a whole step.
  const double steps = std::max(1.0, trainingTokens(c) / s.tokensPerStep);
  return steps * s.step_s / c.hw.rules.effectiveTrainingTime;
}

calc::ServingDesc servingDesc(const Context& c, const GpuSpec& gpu) {
  const WorkloadDesc& wl = c.scenario.workload;
  calc::ServingDesc d;
  d.model = c.shape;
  d.tp = wl.tp;
  d.pp = wl.pp;
  d.weightBytes = bytesPerElement(c.weights);
  d.kvBytes = bytesPerElement(c.kv);
  d.kvReadPerQueryHead = wl.decodeAttention == "per_query_head";
  HardwareInputs hw = c.hw;
  hw.gpu = gpu;
  applyHardware(d, hw, c.compute);
  return d;
}

calc::ServingResult serve(const Context& c, const GpuSpec& gpu) {
  const WorkloadDesc& wl = c.scenario.workload;
  const calc::ServingDesc d = servingDesc(c, gpu);
  if (wl.batching == "static") {
    const double maxBatch =
        std::floor(calc::kvCapacityTokens(d) / (wl.promptTokens + wl.outputTokens));
    return calc::staticBatching(d, wl.promptTokens, wl.outputTokens,
                                wl.batch > 0 ? wl.batch : std::max(maxBatch, 1.0));
  }
  return calc::continuousBatching(d, wl.promptTokens, wl.outputTokens, wl.batch,
                                  wl.requestRate_per_s);
}

calc::TrainingDesc trainingDesc(const Context& c) {
  const WorkloadDesc& wl = c.scenario.workload;
  calc::TrainingDesc d;
  d.model = c.shape;
  d.tp = wl.tp;
  d.cp = wl.cp;
  d.pp = wl.pp;
  d.dp = wl.dp;
  d.zeroStage = wl.zeroStage;
  d.microBatch = wl.microBatch;
  d.microBatches = wl.microBatches;
  d.virtualStages = wl.virtualStages;
  d.seqLen = wl.seqLen;
  d.activations = *calc::parseActivationStrategy(wl.activations);
  applyHardware(d, c.hw, c.compute);
  return d;
}

void memory(const Context& c, Writer& w) {
  const double weights = calc::weightBytes(c.params, c.weights);
  w.section("memory");
  w.num("params", c.params, "count");
  w.num("active_params", c.activeParams, "count");
  w.num("weights_bytes", weights, "B");
  if (training(c)) {
    trainingMemory(c, w);
  } else {
    servingMemory(c, w);
  }
}

void compute(const Context& c, Writer& w) {
  w.section("compute");
  if (training(c)) {
    trainingCompute(c, w);
  } else {
    servingCompute(c, w);
  }
}

void parallelism(const Context& c, Writer& w) {
  const WorkloadDesc& wl = c.scenario.workload;
  const double peak = denseFlops(c.gpu, c.compute);
  const double elem = bytesPerElement(c.compute);
  const double seq = training(c) ? wl.seqLen / wl.cp : wl.promptTokens;
  const double micro = training(c) ? wl.microBatch : std::max(1, wl.batch);
  const double tpBytes = calc::tpAllReduceBytes(micro, seq, c.model.hidden, elem);
  const double layersPerStage = static_cast<double>(c.model.layers) / wl.pp;
  const int allReducesPerLayer = training(c) ? calc::tpAllReducesPerLayer() : 2;
  w.section("parallelism");
  w.num("tp", wl.tp, "count");
  w.num("cp", wl.cp, "count");
  w.num("pp", wl.pp, "count");
  w.num("dp", wl.dp, "count");
  w.num("ep", wl.ep, "count");
  w.num("layout_gpus", replicaGpus(c) * wl.dp, "count");
  w.num("bubble_fraction", calc::bubbleFraction1F1B(wl.pp, wl.microBatches), "ratio");
  w.num("bubble_share_of_iteration", calc::bubbleShareOfIteration(wl.pp, wl.microBatches), "share");
  w.num("interleaved_bubble_fraction",
        calc::bubbleFractionInterleaved(wl.pp, wl.microBatches, wl.virtualStages), "ratio");
  w.num("tp_all_reduce_bytes", wl.tp > 1 ? tpBytes : 0.0, "B");
  w.num("tp_traffic_per_micro_batch_bytes",
        wl.tp > 1 ? tpBytes * allReducesPerLayer * layersPerStage : 0.0, "B");
  w.num("pp_activation_bytes",
        wl.pp > 1 ? calc::ppActivationBytes(micro, seq, c.model.hidden, elem) : 0.0, "B");
  if (isMoe(c.model)) {
    w.num("moe_all_to_all_bytes_per_layer",
          calc::moeAllToAllBytes(micro * seq, c.model.expertsPerToken, c.model.hidden, elem), "B");
  }
  if (nodeEgress_Bps(c) > 0) {
    w.num("dp_compute_bound_tokens_per_gpu",
          calc::dpComputeBoundTokensPerGpu(peak, nodeEgress_Bps(c)), "tokens");
  }
  w.num("tp_compute_bound_max_degree",
        calc::tpComputeBoundMaxDegree(c.model.intermediate, peak, scaleUpPerDirection_Bps(c.gpu)),
        "count");
}

}  // namespace sim::detail
