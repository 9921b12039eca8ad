// Resolving a scenario against the catalog and running the sections in order; the hardware and
// fabric sections. The workload, network and power/cost sections live in evaluate_*.cpp.
#include "sim/evaluate.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/calc/compute.h"
#include "sim/calc/parallelism.h"
#include "sim/calc/topology.h"
#include "sim/evaluate_context.h"
#include "sim/hf_config.h"
#include "sim/model_params.h"

namespace sim {
namespace detail {
namespace {

template <class T>
Result<T> withField(Result<T> result, const std::string& field) {
  if (result) return result;
  return Result<T>::failure(field + ": " + result.error());
}

// The model: a config.json, inline dimensions, or a catalog entry, in that order.
Result<ModelSpec> resolveModel(const ScenarioDesc& s, const Catalog& catalog) {
  using R = Result<ModelSpec>;
  const ModelDesc& m = s.model;
  if (!m.hfConfig.empty()) {
    auto imported = importHfConfigFile(m.hfConfig);
    if (!imported) return R::failure("model.hf_config: " + imported.error());
    if (imported->modelType == "bert") {
      return R::failure("model.hf_config: " + m.hfConfig +
                        " is a BERT encoder; serving and training need a decoder model");
    }
    return imported->spec;
  }
  if (m.layers == 0) return withField(loadModel(catalog, s.workload.model), "workload.model");
  ModelSpec spec;
  spec.id = "inline";
  spec.name = "model given by its dimensions";
  spec.layers = m.layers;
  spec.hidden = m.hidden;
  spec.heads = m.heads;
  spec.kvHeads = m.kvHeads > 0 ? m.kvHeads : m.heads;
  spec.headDim = m.headDim > 0 ? m.headDim : (m.heads > 0 ? m.hidden / m.heads : 0);
  spec.intermediate = m.intermediate;
  spec.vocab = m.vocab;
  spec.experts = m.experts;
  spec.expertsPerToken = m.expertsPerToken;
  spec.contextTokens = m.contextTokens;
  for (const auto& [value, field] : {std::pair{m.hidden, "model.hidden"},
                                     {m.heads, "model.heads"},
                                     {m.intermediate, "model.intermediate"},
                                     {m.vocab, "model.vocab"}}) {
    if (value < 1)
      return R::failure(std::string(field) + ": must be >= 1 when model.layers is set");
  }
  if (m.headDim == 0 && m.hidden % m.heads != 0) {  // hidden / heads would be floored
    return R::failure("model.hidden: " + std::to_string(m.hidden) +
                      " is not a multiple of model.heads " + std::to_string(m.heads) +
                      "; give model.head_dim");
  }
  if (spec.headDim < 1) return R::failure("model.head_dim: must be >= 1");
  if (spec.heads % spec.kvHeads != 0) {
    return R::failure("model.kv_heads: " + std::to_string(spec.kvHeads) + " does not divide the " +
                      std::to_string(spec.heads) + " heads");
  }
  if (spec.experts > 0 && (spec.expertsPerToken < 1 || spec.expertsPerToken > spec.experts)) {
    return R::failure("model.experts_per_token: must be between 1 and model.experts");
  }
  return spec;
}

// The scenario's accelerator figures replace the catalog GPU's, field by field.
void applyAccelerator(const AcceleratorDesc& a, GpuSpec& g) {
  if (!a.name.empty()) g.name = a.name;
  if (a.hbmBytes > 0) g.hbmCapacity_bytes = a.hbmBytes;
  if (a.hbmUsableBytes > 0) {
    g.hbmUsable_bytes = a.hbmUsableBytes;
  } else if (a.hbmBytes > 0) {
    g.hbmUsable_bytes = a.hbmBytes;  // no driver figure given: take the capacity
  }
  if (a.hbmBandwidth_Bps > 0) g.hbmBandwidth_Bps = a.hbmBandwidth_Bps;
  if (a.denseBf16_flops > 0) g.denseBf16_flops = a.denseBf16_flops;
  if (a.denseFp8_flops > 0) g.denseFp8_flops = a.denseFp8_flops;
  if (a.denseFp4_flops > 0) g.denseFp4_flops = a.denseFp4_flops;
  if (a.tdp_W > 0) g.tdp_W = a.tdp_W;
  if (a.scaleUpPerDirection_Bps > 0) {
    g.scaleUpLinks = 1;
    g.scaleUpLinkPerDirection_Bps = a.scaleUpPerDirection_Bps;
  }
  if (a.gemmFraction > 0) {
    g.efficiency.gemmBf16 = g.efficiency.gemmFp8 = g.efficiency.gemmFp4 = a.gemmFraction;
  }
  if (a.hbmFraction > 0) g.efficiency.hbm = a.hbmFraction;
  if (a.attentionFraction > 0) g.efficiency.attention = a.attentionFraction;
}

Result<Context> resolve(const ScenarioDesc& s, const Catalog& catalog) {
  using R = Result<Context>;
  Context c{s, catalog};
  auto system = withField(loadSystem(catalog, s.cluster.system), "cluster.system");
  if (!system) return R::failure(system.error());
  c.system = *system;
  if (const int d = s.cluster.domainGpus; d > 0) {  // a partition of the system's NVLink domain
    const int whole = c.system.scaleUpDomainGpus;
    if (d > whole || whole % d != 0) {
      return R::failure("cluster.domain_gpus: " + std::to_string(d) +
                        " GPUs is not a partition of " + c.system.id + "'s NVLink domain of " +
                        std::to_string(whole) + " (at most " + std::to_string(whole) +
                        " and dividing it)");
    }
    c.system.scaleUpDomainGpus = d;
  }
  auto gpu = withField(loadGpu(catalog, s.cluster.gpu.empty() ? c.system.gpuId : s.cluster.gpu),
                       "cluster.gpu");
  if (!gpu) return R::failure(gpu.error());
  c.gpu = *gpu;
  applyAccelerator(s.accelerator, c.gpu);
  auto nic =
      withField(loadInterconnect(catalog, s.cluster.scaleOutNic.empty() ? c.system.scaleOutNicId
                                                                        : s.cluster.scaleOutNic),
                "cluster.scale_out_nic");
  if (!nic) return R::failure(nic.error());
  c.nic = *nic;
  auto fabricSwitch = withField(loadSwitch(catalog, s.cluster.switchId), "cluster.switch");
  if (!fabricSwitch) return R::failure(fabricSwitch.error());
  c.fabricSwitch = *fabricSwitch;
  if (s.cluster.switchRadix > 0) {
    if (s.cluster.switchRadix < 4 || s.cluster.switchRadix % 2 != 0) {
      return R::failure("cluster.switch_radix: must be an even number >= 4");
    }
    c.fabricSwitch.radix = s.cluster.switchRadix;
  }
  c.fabricSwitch.taper = s.cluster.fabricTaper;
  auto model = resolveModel(s, catalog);
  if (!model) return R::failure(model.error());
  c.model = *model;
  c.shape = calc::transformerShape(c.model);
  auto facility = withField(loadFacility(catalog, s.facility.profile), "facility.profile");
  if (!facility) return R::failure(facility.error());
  c.facility = *facility;
  auto cost = withField(loadCost(catalog, s.cost.profile), "cost.profile");
  if (!cost) return R::failure(cost.error());
  c.cost = *cost;
  auto hw = withField(
      hardwareInputs(catalog, c.gpu, c.system, c.nic, c.fabricSwitch, s.cluster.gpus), "cluster");
  if (!hw) return R::failure(hw.error());
  c.hw = *hw;
  if (s.workload.maxNumTokens > 0) c.hw.rules.maxNumTokens = s.workload.maxNumTokens;
  if (s.workload.memoryFraction > 0) c.hw.rules.memoryFraction = s.workload.memoryFraction;
  auto figures = engine::loadEngineFigures(catalog);
  if (!figures) return R::failure(figures.error());
  c.figures = *figures;

  // Scenario overrides of catalog profiles (0 = keep the profile's value).
  if (s.facility.pue > 0) c.facility.pue = s.facility.pue;
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
  c.params = paramCount(c.model);
  c.activeParams = activeParamCount(c.model);
  c.systems = std::ceil(static_cast<double>(s.cluster.gpus) / c.system.gpus);
  c.racks = std::ceil(c.systems / s.cluster.systemsPerRack);
  return c;
}

}  // namespace

double nodeEgress_Bps(const Context& c) {
  return c.system.scaleOutNics * c.nic.linkPerDirection_Bps;
}

double replicaGpus(const Context& c) {
  const WorkloadDesc& wl = c.scenario.workload;
  return static_cast<double>(wl.tp) * wl.cp * wl.pp;
}

void hardware(const Context& c, Writer& w) {
  const double peak = denseFlops(c.gpu, c.compute);
  // NICs serving the cluster's GPUs (a partly filled last system counts only its GPUs' NICs).
  const double nics =
      static_cast<double>(c.scenario.cluster.gpus) * c.system.scaleOutNics / c.system.gpus;
  w.section("hardware");
  w.text("gpu", c.gpu.id);
  w.text("system", c.system.id);
  w.num("gpu_hbm_capacity_bytes", c.gpu.hbmCapacity_bytes, "B");
  w.num("gpu_hbm_usable_bytes", c.gpu.hbmUsable_bytes, "B");
  w.num("gpu_hbm_usable_GiB", c.gpu.hbmUsable_bytes / double(1ull << 30), "GiB");
  w.num("gpu_hbm_bandwidth_Bps", c.gpu.hbmBandwidth_Bps, "B/s");
  w.num("gpu_achieved_hbm_bandwidth_Bps", achievedHbm_Bps(c.gpu), "B/s");
  w.num("gpu_dense_flops", peak, "FLOP/s");
  w.num("gpu_achieved_matmul_flops", achievedGemmFlops(c.gpu, c.compute), "FLOP/s");
  w.num("gpu_achieved_attention_flops", achievedAttentionFlops(c.gpu), "FLOP/s");
  w.num("gpu_ridge_flops_per_byte", calc::ridgePoint(peak, c.gpu.hbmBandwidth_Bps), "FLOP/B");
  w.num("gpu_scale_up_per_direction_Bps", scaleUpPerDirection_Bps(c.gpu), "B/s");
  w.num("gpu_scale_up_bidirectional_Bps", scaleUpBidirectional_Bps(c.gpu), "B/s");
  w.num("system_gpus", c.system.gpus, "count");
  w.num("system_hbm_capacity_bytes", c.system.gpus * c.gpu.hbmCapacity_bytes, "B");
  w.num("system_hbm_bandwidth_Bps", c.system.gpus * c.gpu.hbmBandwidth_Bps, "B/s");
  w.num("system_dense_flops", c.system.gpus * peak, "FLOP/s");
  w.num("system_sparse_flops", c.system.gpus * peak * c.hw.rules.sparseToDenseRatio, "FLOP/s");
  w.num("system_scale_up_bidirectional_Bps", c.system.gpus * scaleUpBidirectional_Bps(c.gpu),
        "B/s");
  w.num("scale_up_domain_gpus", c.hw.domainGpus, "count");
  w.num("scale_up_domain_bidirectional_Bps", c.hw.domainGpus * scaleUpBidirectional_Bps(c.gpu),
        "B/s");
  w.num("cluster_gpus", c.scenario.cluster.gpus, "count");
  w.num("systems", c.systems, "count");
  w.num("racks", c.racks, "count");
  w.text("scale_out_nic", c.nic.id);
  w.num("scale_out_per_system_Bps", nodeEgress_Bps(c), "B/s");
  w.num("cluster_injection_bps", nics * c.nic.linkPerDirection_Bps * 8.0, "bit/s");
  w.num("cluster_bisection_bps", nics * c.nic.linkPerDirection_Bps * 8.0 / 2.0, "bit/s");
}

// The scale-out fabric for the cluster's NICs at the switch's radix (Al-Fares; SuperPOD RA).
void fabric(const Context& c, Writer& w) {
  const uint64_t endpoints = static_cast<uint64_t>(
      std::llround(double(c.scenario.cluster.gpus) * c.system.scaleOutNics / c.system.gpus));
  w.section("fabric");
  w.num("endpoints", double(endpoints), "count");
  w.num("switch_radix", c.fabricSwitch.radix, "count");
  if (endpoints < 2) return;  // nothing to connect
  calc::FatTreeDesc desc;
  desc.endpoints = endpoints;
  desc.radix = static_cast<uint32_t>(c.fabricSwitch.radix);
  desc.leafOversubscription = c.fabricSwitch.taper;
  desc.tiers = calc::tiersNeeded(endpoints, desc.radix, desc.leafOversubscription);
  desc.portRate_bps = c.nic.linkPerDirection_Bps * 8.0;
  desc.rails = static_cast<uint32_t>(std::max(1, c.system.scaleOutNics));
  auto tree = calc::fatTree(desc);
  w.flag("fits_three_tiers", tree.ok());
  if (!tree) return;
  w.num("tiers", tree->tiers, "count");
  w.num("max_endpoints", double(tree->maxEndpoints), "count");
  w.num("leaf_switches", double(tree->leafSwitches), "count");
  w.num("spine_switches", double(tree->spineSwitches), "count");
  w.num("core_switches", double(tree->coreSwitches), "count");
  w.num("total_switches", double(tree->totalSwitches), "count");
  w.num("cables", double(tree->cables), "count");
  w.num("transceivers", double(tree->transceivers), "count");
  w.num("injection_bps", tree->injection_bps, "bit/s");
  w.num("bisection_bps", tree->bisection_bps, "bit/s");
  w.num("oversubscription", tree->oversubscription, "ratio");
}

}  // namespace detail

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
  if (auto valid = checkScenario(scenario); !valid) {
    return Result<Evaluation>::failure(valid.error());
  }
  auto context = detail::resolve(scenario, catalog);
  if (!context) return Result<Evaluation>::failure(context.error());
  for (const std::string& error :
       {detail::checkCluster(*context), detail::checkAccelerator(*context),
        detail::checkWorkload(*context), detail::checkCollective(*context)}) {
    if (!error.empty()) return Result<Evaluation>::failure(error);
  }
  std::stringstream list(scenario.cost.compare);
  for (std::string id; std::getline(list, id, ',');) {
    if (id.empty()) continue;
    auto gpu = loadGpu(catalog, id);
    if (!gpu) return Result<Evaluation>::failure("cost.compare: " + gpu.error());
  }
  Evaluation out;
  detail::Writer w(out);
  const detail::Context& c = *context;
  detail::hardware(c, w);
  detail::fabric(c, w);
  detail::memory(c, w);
  detail::compute(c, w);
  detail::parallelism(c, w);
  detail::collective(c, w);
  detail::collectiveSweep(c, w);
  detail::power(c, w);
  detail::cost(c, w);
  if (scenario.workload.kind == "inference") detail::comparison(c, w);
  if (!w.defect().empty()) {
    // The inputs passed their domains and checks, so this is the model's fault, not theirs.
    return Result<Evaluation>::defect("defect in dcwalk's model: output " + w.defect() +
                                      " (every input was in its domain; please report the "
                                      "scenario and its --set)");
  }
  return out;
}

}  // namespace sim
