#include "sim/evaluate.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/calc/collectives.h"
#include "sim/calc/compute.h"
#include "sim/calc/cost.h"
#include "sim/calc/memory.h"
#include "sim/calc/parallelism.h"
#include "sim/calc/power.h"
#include "sim/model_params.h"
#include "sim/specs.h"

namespace sim {
namespace {

// Everything the sections need, resolved from the scenario and the catalog.
struct Context {
  const ScenarioDesc& scenario;
  const Catalog& catalog;
  SystemSpec system;
  GpuSpec gpu;
  InterconnectSpec nic;
  SwitchSpec fabricSwitch;
  ModelSpec model;
  FacilitySpec facility;
  CostSpec cost;
  RulesSpec rules;
  Precision weights = Precision::BF16;
  Precision kv = Precision::BF16;
  Precision compute = Precision::BF16;
  double params = 0;
  double activeParams = 0;
  double mfu = 0;
  double systems = 0;
  double racks = 0;
};

class Writer {
 public:
  explicit Writer(Evaluation& out) : m_out(out) {}
  void section(std::string name) { m_section = std::move(name); }
  void num(const std::string& key, double value, const std::string& unit) {
    m_out.outputs.push_back({m_section, key, value, unit});
  }
  void flag(const std::string& key, bool value) {
    m_out.outputs.push_back({m_section, key, value, ""});
  }
  void text(const std::string& key, const std::string& value) {
    m_out.outputs.push_back({m_section, key, value, ""});
  }

 private:
  Evaluation& m_out;
  std::string m_section;
};

template <class T>
Result<T> withField(Result<T> result, const std::string& field) {
  if (result) return result;
  return Result<T>::failure(field + ": " + result.error());
}

Result<Context> resolve(const ScenarioDesc& s, const Catalog& catalog) {
  Context c{s, catalog};
  auto system = withField(loadSystem(catalog, s.cluster.system), "cluster.system");
  if (!system) return Result<Context>::failure(system.error());
  c.system = *system;
  auto gpu = withField(loadGpu(catalog, s.cluster.gpu.empty() ? c.system.gpuId : s.cluster.gpu),
                       "cluster.gpu");
  if (!gpu) return Result<Context>::failure(gpu.error());
  c.gpu = *gpu;
  auto nic =
      withField(loadInterconnect(catalog, s.cluster.scaleOutNic.empty() ? c.system.scaleOutNicId
                                                                        : s.cluster.scaleOutNic),
                "cluster.scale_out_nic");
  if (!nic) return Result<Context>::failure(nic.error());
  c.nic = *nic;
  auto fabricSwitch = withField(loadSwitch(catalog, s.cluster.switchId), "cluster.switch");
  if (!fabricSwitch) return Result<Context>::failure(fabricSwitch.error());
  c.fabricSwitch = *fabricSwitch;
  auto model = withField(loadModel(catalog, s.workload.model), "workload.model");
  if (!model) return Result<Context>::failure(model.error());
  c.model = *model;
  auto facility = withField(loadFacility(catalog, s.facility.profile), "facility.profile");
  if (!facility) return Result<Context>::failure(facility.error());
  c.facility = *facility;
  auto cost = withField(loadCost(catalog, s.cost.profile), "cost.profile");
  if (!cost) return Result<Context>::failure(cost.error());
  c.cost = *cost;
  auto rules = loadRules(catalog);
  if (!rules) return Result<Context>::failure(rules.error());
  c.rules = *rules;

  // Scenario overrides of catalog profiles (0 = keep the profile's value).
  if (s.facility.pue > 0) {
    if (s.facility.pue < 1.0) return Result<Context>::failure("facility.pue: must be >= 1");
    c.facility.pue = s.facility.pue;
  }
  if (s.facility.powerBudget_W > 0) c.facility.powerBudget_W = s.facility.powerBudget_W;
  if (s.facility.coolantDeltaT_K > 0) c.facility.coolantDeltaT_K = s.facility.coolantDeltaT_K;
  if (s.facility.coolantDensity_kg_per_m3 > 0) {
    c.facility.coolantDensity_kg_per_m3 = s.facility.coolantDensity_kg_per_m3;
  }
  if (s.facility.electricity_usd_per_kWh > 0) {
    c.facility.electricityPrice_usd_per_kWh = s.facility.electricity_usd_per_kWh;
  }
  c.weights = *parsePrecision(s.workload.weightsDtype);
  c.kv = *parsePrecision(s.workload.kvDtype);
  c.compute = *parsePrecision(s.workload.computeDtype);
  if (s.workload.mfu > 1.0) return Result<Context>::failure("workload.mfu: must be <= 1");
  c.mfu = s.workload.mfu > 0 ? s.workload.mfu : c.rules.mfu;
  if (s.workload.zeroStage > 3) {
    return Result<Context>::failure("workload.zero_stage: must be 0, 1, 2 or 3");
  }
  const calc::ParallelLayout layout{s.workload.tp, s.workload.pp, s.workload.dp, s.workload.ep};
  if (std::string error = calc::checkLayout(layout, c.model.heads, c.model.layers, c.model.experts);
      !error.empty()) {
    return Result<Context>::failure("workload: " + error);
  }
  if (calc::layoutGpus(layout) > s.cluster.gpus) {
    return Result<Context>::failure(
        "workload: tp x pp x dp = " + std::to_string(calc::layoutGpus(layout)) +
        " exceeds cluster.gpus = " + std::to_string(s.cluster.gpus));
  }
  c.params = paramCount(c.model);
  c.activeParams = activeParamCount(c.model);
  c.systems = std::ceil(static_cast<double>(s.cluster.gpus) / c.system.gpus);
  c.racks = std::ceil(c.systems / s.cluster.systemsPerRack);
  return c;
}

double replicaGpus(const Context& c) {
  return static_cast<double>(c.scenario.workload.tp) * c.scenario.workload.pp;
}

// IT power of the cluster: each GPU carries its share of its system's power (CPUs, NICs, fans,
// switch trays), so a partly used system counts only its used share.
double clusterItPower_W(const Context& c) {
  return static_cast<double>(c.scenario.cluster.gpus) * c.system.maxPower_W / c.system.gpus;
}

double nodeEgress_Bps(const Context& c) {
  return c.system.scaleOutNics * c.nic.linkPerDirection_Bps;
}

void hardware(const Context& c, Writer& w) {
  const double peak = denseFlops(c.gpu, c.compute);
  const double domain = std::min(c.system.scaleUpDomainGpus, c.scenario.cluster.gpus);
  // NICs serving the cluster's GPUs (a partly filled last system counts only its GPUs' NICs).
  const double nics =
      static_cast<double>(c.scenario.cluster.gpus) * c.system.scaleOutNics / c.system.gpus;
  w.section("hardware");
  w.text("gpu", c.gpu.id);
  w.text("system", c.system.id);
  w.num("gpu_hbm_capacity_bytes", c.gpu.hbmCapacity_bytes, "B");
  w.num("gpu_hbm_bandwidth_Bps", c.gpu.hbmBandwidth_Bps, "B/s");
  w.num("gpu_dense_flops", peak, "FLOP/s");
  w.num("gpu_ridge_flops_per_byte", calc::ridgePoint(peak, c.gpu.hbmBandwidth_Bps), "FLOP/B");
  w.num("gpu_scale_up_per_direction_Bps", scaleUpPerDirection_Bps(c.gpu), "B/s");
  w.num("gpu_scale_up_bidirectional_Bps", scaleUpBidirectional_Bps(c.gpu), "B/s");
  w.num("system_gpus", c.system.gpus, "count");
  w.num("system_hbm_capacity_bytes", c.system.gpus * c.gpu.hbmCapacity_bytes, "B");
  w.num("system_hbm_bandwidth_Bps", c.system.gpus * c.gpu.hbmBandwidth_Bps, "B/s");
  w.num("system_dense_flops", c.system.gpus * peak, "FLOP/s");
  w.num("system_sparse_flops", c.system.gpus * peak * c.rules.sparseToDenseRatio, "FLOP/s");
  w.num("system_scale_up_bidirectional_Bps", c.system.gpus * scaleUpBidirectional_Bps(c.gpu),
        "B/s");
  w.num("scale_up_domain_gpus", domain, "count");
  w.num("scale_up_domain_bidirectional_Bps", domain * scaleUpBidirectional_Bps(c.gpu), "B/s");
  w.num("cluster_gpus", c.scenario.cluster.gpus, "count");
  w.num("systems", c.systems, "count");
  w.num("racks", c.racks, "count");
  w.text("scale_out_nic", c.nic.id);
  w.num("scale_out_per_system_Bps", nodeEgress_Bps(c), "B/s");
  w.num("cluster_injection_bps", nics * c.nic.linkPerDirection_Bps * 8.0, "bit/s");
  w.num("cluster_bisection_bps", nics * c.nic.linkPerDirection_Bps * 8.0 / 2.0, "bit/s");
}

void memory(const Context& c, Writer& w) {
  const WorkloadDesc& wl = c.scenario.workload;
  const double weights = calc::weightBytes(c.params, c.weights);
  const double shards = replicaGpus(c);
  w.section("memory");
  w.num("params", c.params, "count");
  w.num("active_params", c.activeParams, "count");
  w.num("weights_bytes", weights, "B");
  w.num("weights_per_gpu_bytes", weights / shards, "B");
  double required = 0;
  if (wl.kind == "inference") {
    const double perToken = calc::kvCacheBytesPerToken(c.model, c.kv);
    const double tokens = wl.promptTokens + wl.outputTokens;
    const double kv = calc::kvCacheBytes(perToken, tokens, wl.batch);
    // KV heads split across TP ranks until there are more ranks than heads (then replicated).
    const double kvShards = wl.pp * std::min(wl.tp, c.model.kvHeads);
    required = calc::inferenceMemoryBytes(weights / shards, kv / kvShards,
                                          c.rules.inferenceOverheadFraction);
    w.num("kv_cache_bytes_per_token", perToken, "B");
    w.num("kv_cache_bytes", kv, "B");
    w.num("kv_cache_per_gpu_bytes", kv / kvShards, "B");
    w.num("inference_per_gpu_bytes", required, "B");
    const double fixed = weights / shards * (1.0 + c.rules.inferenceOverheadFraction);
    w.num("max_batch",
          calc::maxBatchForKv(c.gpu.hbmCapacity_bytes, fixed, perToken / kvShards, tokens),
          "count");
  } else {
    const auto strategy = *calc::parseActivationStrategy(wl.activations);
    const double perLayer = calc::activationBytesPerLayer(strategy, wl.seqLen, wl.microBatch,
                                                          c.model.hidden, c.model.heads, wl.tp);
    const double inFlight = std::min(wl.pp, wl.microBatches);  // 1F1B stashes <= p micro-batches
    const double activations = perLayer * c.model.layers / wl.pp * inFlight;
    const double state = calc::zeroModelStateBytesPerGpu(c.params, wl.zeroStage, wl.dp,
                                                         c.rules.adamOptimizerBytesPerParam) /
                         shards;
    required = state + activations;
    w.num("training_state_bytes", calc::trainingStateBytes(c.params, c.rules.adamBytesPerParam),
          "B");
    w.num("model_state_per_gpu_bytes", state, "B");
    w.num("activation_bytes_per_layer", perLayer, "B");
    w.num("activations_per_gpu_bytes", activations, "B");
    w.num("training_per_gpu_bytes", required, "B");
  }
  const calc::MemoryFit fit = calc::checkFit(required, c.gpu.hbmCapacity_bytes);
  w.flag("fits", fit.fits);
  w.num("headroom_bytes", fit.headroom_bytes, "B");
}

// Per-replica decode numbers shared by the compute and cost sections.
struct DecodeNumbers {
  double ttft_s = 0;
  double tpot_s = 0;
  double replicaTokensPerSecond = 0;
};

DecodeNumbers decode(const Context& c, const GpuSpec& gpu) {
  const WorkloadDesc& wl = c.scenario.workload;
  const double weights = calc::weightBytes(c.params, c.weights);
  const double peak = denseFlops(gpu, c.compute);
  const double perToken = calc::kvCacheBytesPerToken(c.model, c.kv);
  // Each decode step reads the KV of the whole context so far; take the mean context length.
  const double kvRead = perToken * (wl.promptTokens + wl.outputTokens / 2.0) * wl.batch;
  DecodeNumbers d;
  d.ttft_s = calc::prefillTime_s(c.activeParams, wl.promptTokens, wl.batch, replicaGpus(c), peak,
                                 c.mfu, weights, gpu.hbmBandwidth_Bps);
  d.tpot_s = calc::decodeStepTime_s(c.activeParams, wl.batch, replicaGpus(c), peak, c.mfu, weights,
                                    kvRead, gpu.hbmBandwidth_Bps);
  d.replicaTokensPerSecond = calc::continuousBatchingTokensPerSecond(wl.batch, d.tpot_s);
  return d;
}

double trainingTokens(const Context& c) {
  return c.scenario.workload.trainingTokens > 0 ? c.scenario.workload.trainingTokens
                                                : c.model.trainingTokens;
}

void compute(const Context& c, Writer& w) {
  const WorkloadDesc& wl = c.scenario.workload;
  const double peak = denseFlops(c.gpu, c.compute);
  const double ridge = calc::ridgePoint(peak, c.gpu.hbmBandwidth_Bps);
  const double elem = bytesPerElement(c.weights);
  w.section("compute");
  w.num("critical_batch_tokens",
        calc::criticalTokens(c.model.hidden, c.model.intermediate, elem, ridge), "tokens");
  if (wl.kind == "inference") {
    const DecodeNumbers d = decode(c, c.gpu);
    const double maxOut = wl.maxOutputTokens > 0 ? wl.maxOutputTokens : 2.0 * wl.outputTokens;
    const double replicas = wl.dp;
    w.num("flops_per_token", calc::inferenceFlopsPerToken(c.activeParams), "FLOP");
    w.num(
        "prefill_intensity_flops_per_byte",
        calc::gemmIntensity(wl.batch * wl.promptTokens, c.model.hidden, c.model.intermediate, elem),
        "FLOP/B");
    w.num("decode_intensity_flops_per_byte",
          calc::gemmIntensity(wl.batch, c.model.hidden, c.model.intermediate, elem), "FLOP/B");
    w.num("ttft_s", d.ttft_s, "s");
    w.num("tpot_s", d.tpot_s, "s");
    w.num("tokens_per_s_per_sequence", 1.0 / d.tpot_s, "tokens/s");
    w.num("continuous_batching_tokens_per_s", d.replicaTokensPerSecond, "tokens/s");
    w.num("static_batching_tokens_per_s",
          calc::staticBatchingTokensPerSecond(wl.batch, wl.outputTokens, maxOut, d.tpot_s),
          "tokens/s");
    w.num("replicas", replicas, "count");
    w.num("cluster_tokens_per_s", replicas * d.replicaTokensPerSecond, "tokens/s");
  } else {
    const double tokens = trainingTokens(c);
    const bool full = wl.activations == "full";
    const double gpus = calc::layoutGpus({wl.tp, wl.pp, wl.dp, wl.ep});
    const double time = calc::trainingTime_s(tokens, c.activeParams, gpus, peak, c.mfu, full);
    w.num("training_tokens", tokens, "tokens");
    w.num("training_flops", calc::trainingFlops(c.activeParams, tokens, full), "FLOP");
    w.num("training_time_s", time, "s");
    w.num("megatron_time_s",
          calc::megatronTrainingTime_s(tokens, c.activeParams, gpus, peak * c.mfu), "s");
    w.num("gpu_hours", time * gpus / 3600.0, "h");
  }
}

void parallelism(const Context& c, Writer& w) {
  const WorkloadDesc& wl = c.scenario.workload;
  const double elem = bytesPerElement(c.compute);
  const double peak = denseFlops(c.gpu, c.compute);
  const double seq = wl.kind == "training" ? wl.seqLen : wl.promptTokens;
  const double micro = wl.kind == "training" ? wl.microBatch : wl.batch;
  const double tpBytes = calc::tpAllReduceBytes(micro, seq, c.model.hidden, elem);
  const double layersPerStage = static_cast<double>(c.model.layers) / wl.pp;
  // Megatron's 2 forward + 2 backward all-reduces per layer; inference runs the forward half.
  const double allReducesPerLayer =
      calc::tpAllReducesPerLayer() / (wl.kind == "training" ? 1.0 : 2.0);
  w.section("parallelism");
  w.num("tp", wl.tp, "count");
  w.num("pp", wl.pp, "count");
  w.num("dp", wl.dp, "count");
  w.num("ep", wl.ep, "count");
  w.num("layout_gpus", calc::layoutGpus({wl.tp, wl.pp, wl.dp, wl.ep}), "count");
  w.num("bubble_fraction", calc::bubbleFraction1F1B(wl.pp, wl.microBatches), "ratio");
  w.num("bubble_share_of_iteration", calc::bubbleShareOfIteration(wl.pp, wl.microBatches), "ratio");
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
  w.num("dp_compute_bound_tokens_per_gpu",
        calc::dpComputeBoundTokensPerGpu(peak, nodeEgress_Bps(c)), "tokens");
  w.num("tp_compute_bound_max_degree",
        calc::tpComputeBoundMaxDegree(c.model.intermediate, peak, scaleUpPerDirection_Bps(c.gpu)),
        "count");
}

void collective(const Context& c, Writer& w) {
  const CollectiveDesc& cd = c.scenario.collective;
  const auto op = *calc::parseCollective(cd.op);
  const int domain = std::min(c.system.scaleUpDomainGpus, c.scenario.cluster.gpus);
  const int ranks = cd.ranks > 0 ? cd.ranks : std::max(domain, 2);
  calc::AlphaBeta link{cd.alpha_s > 0 ? cd.alpha_s : 0.0,
                       cd.bandwidth_Bps > 0 ? cd.bandwidth_Bps : scaleUpPerDirection_Bps(c.gpu)};
  if (cd.alpha_s <= 0) {
    auto scaleUp = loadInterconnect(c.catalog, c.gpu.scaleUpInterconnect);
    link.alpha_s = scaleUp ? scaleUp->latency_s : 0.0;
  }
  double time = 0;
  switch (op) {
    case calc::Collective::AllReduce:
      time = calc::ringAllReduceTime_s(cd.bytes, ranks, link);
      break;
    case calc::Collective::AllGather:
    case calc::Collective::ReduceScatter:
      time = calc::ringAllGatherTime_s(cd.bytes, ranks, link);
      break;
    case calc::Collective::AllToAll:
      time = calc::allToAllTime_s(cd.bytes, ranks, link);
      break;
    case calc::Collective::Broadcast:
    case calc::Collective::Reduce:
      time = calc::pipelinedBroadcastTime_s(cd.bytes, ranks, link);
      break;
  }
  const double algbw =
      cd.algBandwidth_Bps > 0 ? cd.algBandwidth_Bps : calc::algBandwidth_Bps(cd.bytes, time);
  w.section("collective");
  w.text("op", cd.op);
  w.num("ranks", ranks, "count");
  w.num("bytes", cd.bytes, "B");
  w.num("alpha_s", link.alpha_s, "s");
  w.num("bandwidth_Bps", link.bandwidth_Bps, "B/s");
  w.num("bus_bw_factor", calc::busBwFactor(op, ranks), "ratio");
  w.num("time_s", time, "s");
  w.num("alg_bandwidth_Bps", algbw, "B/s");
  w.num("bus_bandwidth_Bps", calc::busBandwidth_Bps(algbw, op, ranks), "B/s");
  if (op == calc::Collective::AllReduce) {
    w.num("nvls_bus_bw_factor", calc::nvlsAllReduceBusBwFactor(ranks), "ratio");
    w.num("tree_all_reduce_time_s", calc::treeAllReduceTime_s(cd.bytes, ranks, link), "s");
    w.num("ring_latency_term_s", calc::ringAllReduceTime_s(0.0, ranks, link), "s");
    w.num("tree_latency_term_s", calc::treeAllReduceTime_s(0.0, ranks, link), "s");
    w.num("in_network_all_reduce_time_s", calc::inNetworkAllReduceTime_s(cd.bytes, link), "s");
    const int nodes = static_cast<int>(
        std::ceil(static_cast<double>(c.scenario.cluster.gpus) / std::max(domain, 1)));
    if (nodes > 1) {
      const calc::AlphaBeta inter{c.nic.latency_s, nodeEgress_Bps(c) / c.system.gpus};
      w.num("hierarchical_all_reduce_time_s",
            calc::hierarchicalAllReduceTime_s(cd.bytes, domain, nodes, link, inter), "s");
    }
  }
}

void power(const Context& c, Writer& w) {
  const FacilitySpec& f = c.facility;
  const double rack = calc::rackPower_W(c.scenario.cluster.systemsPerRack, c.system.maxPower_W, 0);
  const double it = clusterItPower_W(c);
  const double flow =
      calc::coolantMassFlow_kg_per_s(rack, f.coolantSpecificHeat_J_per_kg_K, f.coolantDeltaT_K);
  const double flowPerKw =
      calc::coolantMassFlow_kg_per_s(1000.0, f.coolantSpecificHeat_J_per_kg_K, f.coolantDeltaT_K);
  const double racks = calc::racksWithinBudget(f.powerBudget_W, rack, f.pue);
  w.section("power");
  w.num("gpu_tdp_W", c.gpu.tdp_W, "W");
  w.num("gpus_power_W", c.scenario.cluster.gpus * c.gpu.tdp_W, "W");
  w.num("system_power_W", c.system.maxPower_W, "W");
  w.num("rack_power_W", rack, "W");
  w.num("it_power_W", it, "W");
  w.num("pue", f.pue, "ratio");
  w.num("facility_power_W", calc::facilityPower_W(it, f.pue), "W");
  w.num("facility_overhead_W", calc::facilityOverhead_W(it, f.pue), "W");
  w.num("coolant_flow_per_rack_kg_per_s", flow, "kg/s");
  w.num("coolant_flow_per_rack_L_per_min",
        calc::volumetricFlow_L_per_min(flow, f.coolantDensity_kg_per_m3), "L/min");
  w.num("coolant_flow_per_kW_L_per_min",
        calc::volumetricFlow_L_per_min(flowPerKw, f.coolantDensity_kg_per_m3), "L/min");
  w.num("junction_temperature_C",
        calc::junctionTemperature_C(f.coolantSupply_C, c.gpu.tdp_W, f.junctionToCoolant_K_per_W),
        "C");
  w.num("racks_within_budget", racks, "count");
  w.num("gpus_within_budget", racks * c.scenario.cluster.systemsPerRack * c.system.gpus, "count");
  if (c.scenario.workload.kind == "training") {
    const double gpus = calc::layoutGpus({c.scenario.workload.tp, c.scenario.workload.pp,
                                          c.scenario.workload.dp, c.scenario.workload.ep});
    const double time =
        calc::trainingTime_s(trainingTokens(c), c.activeParams, gpus, denseFlops(c.gpu, c.compute),
                             c.mfu, c.scenario.workload.activations == "full");
    w.num("training_gpu_energy_kWh", calc::joulesToKWh(calc::energy_J(gpus * c.gpu.tdp_W, time)),
          "kWh");
    w.num("training_facility_energy_kWh",
          calc::joulesToKWh(calc::energy_J(calc::facilityPower_W(it, f.pue), time)), "kWh");
    // The model card's GPU-hours were spent on the GPU it names, not on the scenario's.
    const std::string base = "models." + c.model.id + ".";
    const Quantity* hours = c.catalog.find(base + "training_gpu_hours");
    const nlohmann::json* onGpu = c.catalog.json(base + "training_gpu");
    if (hours && onGpu && onGpu->is_string()) {
      if (auto reported = loadGpu(c.catalog, onGpu->get<std::string>()); reported) {
        w.num("reported_training_gpu_energy_kWh",
              calc::joulesToKWh(calc::energy_J(reported->tdp_W, hours->value * 3600.0)), "kWh");
      }
    }
  }
}

// $/GPU-hour of the cluster on `gpu` (0 when it has no price and no cloud price).
double perGpuHour(const Context& c, const GpuSpec& gpu, double gpuPrice_usd) {
  if (gpuPrice_usd <= 0) return gpu.cloudPricePerHourUsd;
  const double gpus = c.scenario.cluster.gpus;
  // Another GPU in the same system: scale the system share by the GPUs' TDP ratio when both known.
  const double ratio = gpu.tdp_W > 0 && c.gpu.tdp_W > 0 ? gpu.tdp_W / c.gpu.tdp_W : 1.0;
  const double it = clusterItPower_W(c) * ratio;
  calc::TcoDesc desc{.gpus = gpus,
                     .gpuCapex_usd = gpuPrice_usd,
                     .networkFractionOfCapex = c.cost.networkFractionOfCapex,
                     .itPower_W = it,
                     .facilityCapex_usd_per_W = c.cost.facilityCapex_usd_per_W,
                     .pue = c.facility.pue,
                     .electricity_usd_per_kWh = c.facility.electricityPrice_usd_per_kWh,
                     .serverAmortization_years = c.cost.serverAmortization_years,
                     .facilityAmortization_years = c.cost.facilityAmortization_years,
                     .utilization = c.cost.utilization};
  return calc::computeTco(desc).perGpuHour_usd;
}

double gpuPrice(const Context& c) {
  if (c.scenario.cost.gpuPrice_usd > 0) return c.scenario.cost.gpuPrice_usd;
  if (c.gpu.priceUsd > 0) return c.gpu.priceUsd;
  return c.system.priceUsd > 0 ? c.system.priceUsd / c.system.gpus : 0.0;
}

void cost(const Context& c, Writer& w) {
  const CostDesc& cd = c.scenario.cost;
  const double price = gpuPrice(c);
  w.section("cost");
  w.num("gpu_price_usd", price, "usd");
  if (price > 0) {
    calc::TcoDesc desc{.gpus = static_cast<double>(c.scenario.cluster.gpus),
                       .gpuCapex_usd = price,
                       .networkFractionOfCapex = c.cost.networkFractionOfCapex,
                       .itPower_W = clusterItPower_W(c),
                       .facilityCapex_usd_per_W = c.cost.facilityCapex_usd_per_W,
                       .pue = c.facility.pue,
                       .electricity_usd_per_kWh = c.facility.electricityPrice_usd_per_kWh,
                       .serverAmortization_years = c.cost.serverAmortization_years,
                       .facilityAmortization_years = c.cost.facilityAmortization_years,
                       .utilization = c.cost.utilization};
    const calc::TcoResult tco = calc::computeTco(desc);
    w.num("it_capex_usd", tco.itCapex_usd, "usd");
    w.num("network_capex_usd", tco.networkCapex_usd, "usd");
    w.num("facility_capex_usd", tco.facilityCapex_usd, "usd");
    w.num("capex_per_year_usd", tco.capexPerYear_usd, "usd/yr");
    w.num("energy_per_year_kWh", tco.energyPerYear_kWh, "kWh/yr");
    w.num("energy_per_year_usd", tco.energyPerYear_usd, "usd/yr");
    w.num("total_per_year_usd", tco.totalPerYear_usd, "usd/yr");
    w.num("per_gpu_hour_usd", tco.perGpuHour_usd, "usd/h");
  }
  if (cd.cloudInstancePerHour_usd > 0) {
    w.num("cloud_per_gpu_hour_usd",
          calc::cloudPricePerGpuHour_usd(cd.cloudInstancePerHour_usd, cd.gpusPerInstance), "usd/h");
  }
  const double hourly = price > 0 ? perGpuHour(c, c.gpu, price) : c.gpu.cloudPricePerHourUsd;
  if (hourly > 0 && c.scenario.workload.kind == "inference") {
    const DecodeNumbers d = decode(c, c.gpu);
    w.num("per_million_tokens_usd",
          calc::costPerMillionTokens_usd(hourly * replicaGpus(c), d.replicaTokensPerSecond), "usd");
  }
}

void comparison(const Context& c, Writer& w) {
  std::stringstream list(c.scenario.cost.compare);
  std::string id;
  w.section("comparison");
  while (std::getline(list, id, ',')) {
    if (id.empty()) continue;
    auto gpu = loadGpu(c.catalog, id);
    if (!gpu) continue;  // unknown ids are reported by evaluateScenario before we get here
    const double hourly = perGpuHour(c, *gpu, gpu->priceUsd);
    const DecodeNumbers d = decode(c, *gpu);
    const double perGpuTokens = d.replicaTokensPerSecond / replicaGpus(c);
    const double facilityPerGpu = gpu->tdp_W * c.facility.pue;
    const double weightsPerGpu = calc::weightBytes(c.params, c.weights) / replicaGpus(c);
    w.flag(id + "_weights_fit", weightsPerGpu <= gpu->hbmCapacity_bytes);
    w.num(id + "_tokens_per_s_per_gpu", perGpuTokens, "tokens/s");
    if (hourly > 0) {
      const calc::ComparisonRow row =
          calc::compareRow(id, hourly, perGpuTokens, std::max(facilityPerGpu, 1.0));
      w.num(id + "_per_gpu_hour_usd", row.perGpuHour_usd, "usd/h");
      w.num(id + "_per_million_tokens_usd", row.perMillionTokens_usd, "usd");
    }
    if (facilityPerGpu > 0) w.num(id + "_tokens_per_J", perGpuTokens / facilityPerGpu, "tokens/J");
  }
}

}  // namespace

const Output* Evaluation::find(const std::string& dottedKey) const {
  for (const Output& o : outputs) {
    if (o.section.size() + 1 + o.key.size() == dottedKey.size() &&
        dottedKey.compare(0, o.section.size(), o.section) == 0 &&
        dottedKey[o.section.size()] == '.' &&
        dottedKey.compare(o.section.size() + 1, std::string::npos, o.key) == 0) {
      return &o;
    }
  }
  return nullptr;
}

double Evaluation::number(const std::string& dottedKey) const {
  const Output* o = find(dottedKey);
  if (!o || !std::holds_alternative<double>(o->value)) return std::nan("");
  return std::get<double>(o->value);
}

Result<Evaluation> evaluateScenario(const ScenarioDesc& scenario, const Catalog& catalog) {
  auto context = resolve(scenario, catalog);
  if (!context) return Result<Evaluation>::failure(context.error());
  std::stringstream list(scenario.cost.compare);
  for (std::string id; std::getline(list, id, ',');) {
    if (id.empty()) continue;
    auto gpu = loadGpu(catalog, id);
    if (!gpu) return Result<Evaluation>::failure("cost.compare: " + gpu.error());
  }
  Evaluation out;
  Writer w(out);
  hardware(*context, w);
  memory(*context, w);
  compute(*context, w);
  parallelism(*context, w);
  collective(*context, w);
  power(*context, w);
  cost(*context, w);
  if (scenario.workload.kind == "inference") comparison(*context, w);
  return out;
}

}  // namespace sim
