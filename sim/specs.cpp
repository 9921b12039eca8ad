#include "sim/specs.h"

#include <cmath>
#include <vector>

#include "sim/domain.h"

namespace sim {
namespace {

// Reads the figures of one catalog entry ("section.id"), collecting the first error.
class EntryReader {
 public:
  EntryReader(const Catalog& catalog, std::string entry)
      : m_catalog(catalog), m_entry(std::move(entry)) {}

  bool exists() const {
    const nlohmann::json* node = m_catalog.json(m_entry);
    return node && node->is_object();
  }

  // A figure that must be present and > 0 (or >= 0 when `allowZero`).
  double number(const std::string& key, bool allowZero = false) {
    const Quantity* q = m_catalog.find(m_entry + "." + key);
    if (!q) {
      fail(m_entry + "." + key + " is missing" + entryWhere());
      return 0;
    }
    if (q->value < 0 || (!allowZero && q->value == 0)) {
      fail(q->where + ": " + key + " must be " + (allowZero ? ">= 0" : "> 0"));
      return 0;
    }
    return q->value;
  }

  // A figure that may be absent (0 then); when present it must be >= 0.
  double optionalNumber(const std::string& key) {
    if (!m_catalog.find(m_entry + "." + key)) return 0;
    return number(key, true);
  }

  // A count: a figure with an integral value >= minimum.
  int count(const std::string& key, int minimum = 1, bool optional = false) {
    return count(key, wholeNumbers(minimum, 1e9), optional);
  }

  // A count in `domain` (an optional one absent is 0).
  int count(const std::string& key, const Domain& domain, bool optional = false) {
    const Quantity* q = m_catalog.find(m_entry + "." + key);
    if (!q && optional) return 0;
    double v = number(key, true);
    if (!q) return 0;
    if (std::string why = domainError(domain, v); !why.empty()) {
      fail(q->where + ": " + key + " " + why + " (" + describeDomain(domain) + ")");
      return 0;
    }
    return static_cast<int>(v);
  }

  std::string text(const std::string& key, bool optional = false) {
    const nlohmann::json* node = m_catalog.json(m_entry + "." + key);
    if (!node) {
      if (!optional) fail(m_entry + "." + key + " (a string) is missing" + entryWhere());
      return "";
    }
    if (!node->is_string()) {
      fail(m_entry + "." + key + " must be a string" + entryWhere());
      return "";
    }
    return node->get<std::string>();
  }

  bool flag(const std::string& key) {
    const nlohmann::json* node = m_catalog.json(m_entry + "." + key);
    if (!node) return false;
    if (!node->is_boolean()) {
      fail(m_entry + "." + key + " must be true or false" + entryWhere());
      return false;
    }
    return node->get<bool>();
  }

  void fail(const std::string& message) {
    if (m_error.empty()) m_error = "catalog: " + message;
  }
  const std::string& error() const { return m_error; }

 private:
  // " (entry at file:line)" from any figure of the entry, so a missing field still names a file.
  std::string entryWhere() const {
    const std::string prefix = m_entry + ".";
    auto it = m_catalog.quantities().lower_bound(prefix);
    if (it != m_catalog.quantities().end() && it->first.rfind(prefix, 0) == 0) {
      std::string where = it->second.where;
      if (size_t paren = where.find(" ("); paren != std::string::npos) where.resize(paren);
      return " (entry in " + where + ")";
    }
    return "";
  }

  const Catalog& m_catalog;
  std::string m_entry;
  std::string m_error;
};

template <class T>
Result<T> finish(const EntryReader& reader, T spec) {
  if (!reader.error().empty()) return Result<T>::failure(reader.error());
  return spec;
}

template <class T>
Result<T> unknownEntry(const Catalog& catalog, const std::string& section, const std::string& id) {
  std::string known;
  for (const std::string& name : catalog.children(section)) {
    known += (known.empty() ? "" : ", ") + name;
  }
  return Result<T>::failure("catalog: no " + section + " entry \"" + id + "\" (known: " + known +
                            ")");
}

}  // namespace

Result<GpuSpec> loadGpu(const Catalog& catalog, const std::string& id) {
  EntryReader r(catalog, "gpus." + id);
  if (!r.exists()) return unknownEntry<GpuSpec>(catalog, "gpus", id);
  GpuSpec g;
  g.id = id;
  g.name = r.text("name");
  g.hbmCapacity_bytes = r.number("hbm_capacity_bytes");
  g.hbmUsable_bytes = r.number("hbm_usable_bytes");
  g.hbmBandwidth_Bps = r.number("hbm_bandwidth_Bps");
  g.denseBf16_flops = r.number("dense_bf16_flops");
  g.denseFp8_flops = r.optionalNumber("dense_fp8_flops");
  g.denseFp4_flops = r.optionalNumber("dense_fp4_flops");
  g.denseInt8_ops = r.optionalNumber("dense_int8_ops");
  g.tdp_W = r.optionalNumber("tdp_W");
  g.idle_W = r.optionalNumber("idle_power_W");
  g.scaleUpLinks = r.count("scale_up_links", wholeNumbers(1, 4096));
  g.scaleUpInterconnect = r.text("scale_up_interconnect");
  g.priceUsd = r.optionalNumber("price_usd");
  g.cloudPricePerHourUsd = r.optionalNumber("cloud_price_per_hour_usd");
  if (!r.error().empty()) return Result<GpuSpec>::failure(r.error());
  auto link = loadInterconnect(catalog, g.scaleUpInterconnect);
  if (!link) return Result<GpuSpec>::failure(link.error() + " (gpus." + id + ")");
  g.scaleUpLinkPerDirection_Bps = link->linkPerDirection_Bps;
  auto efficiency = loadEfficiency(catalog, id);
  if (!efficiency) return Result<GpuSpec>::failure(efficiency.error());
  g.efficiency = *efficiency;
  if (g.hbmUsable_bytes > hbmDram_bytes(g)) {
    return Result<GpuSpec>::failure(
        "gpus." + id + ".hbm_usable_bytes: " + numberText(g.hbmUsable_bytes) +
        " B is more than the HBM it has (gpus." + id + ".hbm_capacity_bytes " +
        numberText(g.hbmCapacity_bytes) + " B, GiB-sized: " + numberText(hbmDram_bytes(g)) +
        " B of DRAM)");
  }
  return g;
}

Result<SystemSpec> loadSystem(const Catalog& catalog, const std::string& id) {
  EntryReader r(catalog, "systems." + id);
  if (!r.exists()) return unknownEntry<SystemSpec>(catalog, "systems", id);
  SystemSpec s;
  s.id = id;
  s.name = r.text("name");
  s.gpuId = r.text("gpu");
  s.gpus = r.count("gpus", domains::GPUS);
  s.cpus = r.count("cpus", 0, true);
  s.computeTrays = r.count("compute_trays", 0, true);
  s.switchTrays = r.count("switch_trays", 0, true);
  s.scaleUpSwitchChips = r.count("scale_up_switch_chips", 0, true);
  s.scaleUpDomainGpus = r.count("scale_up_domain_gpus", domains::GPUS);
  s.scaleUpSwitchId = r.text("scale_up_switch", true);
  s.scaleOutNics = r.count("scale_out_nics", wholeNumbers(0, 1 << 16));
  s.scaleOutNicId = r.text("scale_out_nic");
  s.maxPower_W = r.optionalNumber("max_power_W");
  s.priceUsd = r.optionalNumber("price_usd");
  s.rackUnits = r.optionalNumber("rack_units");
  return finish(r, s);
}

Result<InterconnectSpec> loadInterconnect(const Catalog& catalog, const std::string& id) {
  EntryReader r(catalog, "interconnects." + id);
  if (!r.exists()) return unknownEntry<InterconnectSpec>(catalog, "interconnects", id);
  InterconnectSpec i;
  i.id = id;
  i.name = r.text("name");
  i.kind = r.text("kind");
  const bool hasBytes = catalog.find("interconnects." + id + ".link_per_direction_Bps");
  const bool hasBits = catalog.find("interconnects." + id + ".link_rate_per_direction_bps");
  if (hasBytes == hasBits) {
    r.fail("interconnects." + id +
           " needs exactly one of link_per_direction_Bps or link_rate_per_direction_bps");
  } else {
    i.linkPerDirection_Bps = hasBytes ? r.number("link_per_direction_Bps")
                                      : r.number("link_rate_per_direction_bps") / 8.0;
  }
  i.latency_s = r.number("latency_s");
  if (i.kind != "scale_up" && i.kind != "scale_out" && i.kind != "nic" && i.kind != "host") {
    r.fail("interconnects." + id + ".kind must be scale_up, scale_out, nic or host");
  }
  return finish(r, i);
}

Result<SwitchSpec> loadSwitch(const Catalog& catalog, const std::string& id) {
  EntryReader r(catalog, "switches." + id);
  if (!r.exists()) return unknownEntry<SwitchSpec>(catalog, "switches", id);
  SwitchSpec s;
  s.id = id;
  s.name = r.text("name");
  s.kind = r.text("kind");
  s.radix = r.count("radix", wholeNumbers(2, 1 << 16));
  s.portRate_bps = r.number("port_rate_bps");
  s.maxPower_W = r.optionalNumber("max_power_W");
  s.inNetworkReduction = r.flag("in_network_reduction");
  if (r.error().empty() && s.kind != "scale_up" && s.kind != "scale_out") {
    r.fail("switches." + id + ".kind must be scale_up or scale_out");
  }
  return finish(r, s);
}

Result<ModelSpec> loadModel(const Catalog& catalog, const std::string& id) {
  EntryReader r(catalog, "models." + id);
  if (!r.exists()) return unknownEntry<ModelSpec>(catalog, "models", id);
  ModelSpec m;
  m.id = id;
  m.name = r.text("name");
  m.layers = r.count("layers", domains::LAYERS);
  m.hidden = r.count("hidden", domains::HIDDEN);
  m.heads = r.count("heads", domains::HEADS);
  m.kvHeads = r.count("kv_heads", domains::HEADS);
  m.headDim = r.count("head_dim", domains::HEAD_DIM);
  m.intermediate = r.count("intermediate", domains::INTERMEDIATE);
  m.vocab = r.count("vocab", domains::VOCAB);
  m.tiedEmbeddings = r.flag("tied_embeddings");
  m.experts = r.count("experts", domains::EXPERTS, true);
  m.expertsPerToken = r.count("experts_per_token", domains::EXPERTS, true);
  m.sharedExperts = r.count("shared_experts", domains::EXPERTS, true);
  m.contextTokens = r.count("context_tokens", domains::CONTEXT_TOKENS, true);
  m.trainingTokens = r.optionalNumber("training_tokens");
  m.gatedMlp = !catalog.json("models." + id + ".gated_mlp") || r.flag("gated_mlp");
  m.biases = r.flag("biases");
  m.dropout = r.flag("dropout");
  m.positionEmbeddings = r.count("position_embeddings", domains::POSITIONS, true);
  if (r.error().empty() && m.heads % m.kvHeads != 0) {
    r.fail("models." + id + ": heads must be a multiple of kv_heads");
  }
  if (r.error().empty() && m.experts > 0 &&
      (m.expertsPerToken < 1 || m.expertsPerToken > m.experts)) {
    r.fail("models." + id + ": experts_per_token must be between 1 and experts");
  }
  return finish(r, m);
}

Result<FacilitySpec> loadFacility(const Catalog& catalog, const std::string& id) {
  EntryReader r(catalog, "facility." + id);
  if (!r.exists()) return unknownEntry<FacilitySpec>(catalog, "facility", id);
  FacilitySpec f;
  f.pue = r.number("pue");
  f.coolantSpecificHeat_J_per_kg_K = r.number("coolant_specific_heat_J_per_kg_K");
  f.coolantDensity_kg_per_m3 = r.number("coolant_density_kg_per_m3");
  f.coolantDeltaT_K = r.number("coolant_delta_T_K");
  f.coolantSupply_C = r.number("coolant_supply_C");
  f.junctionToCoolant_K_per_W = r.number("junction_to_coolant_K_per_W");
  f.powerBudget_W = r.number("power_budget_W");
  f.electricityPrice_usd_per_kWh = r.number("electricity_usd_per_kWh");
  f.rackUnits = r.number("rack_units");
  if (r.error().empty() && f.pue < 1.0) r.fail("facility." + id + ".pue must be >= 1");
  return finish(r, f);
}

Result<CostSpec> loadCost(const Catalog& catalog, const std::string& id) {
  EntryReader r(catalog, "costs." + id);
  if (!r.exists()) return unknownEntry<CostSpec>(catalog, "costs", id);
  CostSpec c;
  c.networkFractionOfCapex = r.number("network_fraction_of_capex");
  c.facilityCapex_usd_per_W = r.number("facility_capex_usd_per_W");
  c.serverAmortization_years = r.number("server_amortization_years");
  c.facilityAmortization_years = r.number("facility_amortization_years");
  c.utilization = r.number("utilization");
  if (r.error().empty() && (c.networkFractionOfCapex >= 1.0 || c.utilization > 1.0)) {
    r.fail("costs." + id + ": network_fraction_of_capex must be < 1 and utilization <= 1");
  }
  return finish(r, c);
}

Result<RulesSpec> loadRules(const Catalog& catalog) {
  EntryReader r(catalog, "rules");
  RulesSpec rules;
  rules.adamBytesPerParam = r.number("adam_bytes_per_param");
  rules.adamOptimizerBytesPerParam = r.number("adam_optimizer_bytes_per_param");
  rules.sparseToDenseRatio = r.number("sparse_to_dense_ratio");
  rules.frameworkReserve_bytes = r.number("framework_reserve_bytes", true);
  rules.memoryFraction = r.number("serving_memory_fraction");
  rules.maxNumTokens = r.number("serving_max_num_tokens");
  rules.kernelsPerLayer = r.number("kernels_per_layer", true);
  rules.kernelLaunch_s = r.number("kernel_launch_s", true);
  rules.effectiveTrainingTime = r.number("training_effective_time_fraction");
  if (r.error().empty() && (rules.memoryFraction > 1.0 || rules.effectiveTrainingTime > 1.0)) {
    r.fail("rules: serving_memory_fraction and training_effective_time_fraction must be <= 1");
  }
  return finish(r, rules);
}

// Figures of a catalog section with a default entry: the first of `entries` that has the key
// (the device's or switch's own entry, then "default"); shares must be <= 1.
class FigureReader {
 public:
  FigureReader(const Catalog& catalog, std::vector<std::string> entries)
      : m_catalog(catalog), m_entries(std::move(entries)) {}

  double figure(const std::string& key, bool share, bool allowZero = false) {
    for (const std::string& entry : m_entries) {
      if (!m_catalog.find(entry + "." + key)) continue;
      EntryReader r(m_catalog, entry);
      const double v = r.number(key, allowZero);
      if (m_error.empty()) m_error = r.error();
      if (m_error.empty() && share && v > 1.0) {
        m_error = "catalog: " + entry + "." + key + " must be <= 1";
      }
      return v;
    }
    if (m_error.empty()) m_error = "catalog: " + m_entries.back() + "." + key + " is missing";
    return 0.0;
  }
  const std::string& error() const { return m_error; }

 private:
  const Catalog& m_catalog;
  std::vector<std::string> m_entries;
  std::string m_error;
};

Result<CollectiveSpec> loadCollectives(const Catalog& catalog, const std::string& scaleUpSwitch) {
  FigureReader r(catalog, {"collectives." + scaleUpSwitch, "collectives.default"});
  auto share = [&](const char* key) { return r.figure(key, true); };
  auto time = [&](const char* key) { return r.figure(key, false); };
  CollectiveSpec c;
  c.ringFraction = share("ring_bandwidth_fraction");
  c.nvlsFraction = share("nvls_bandwidth_fraction");
  c.nicFraction = share("nic_bandwidth_fraction");
  c.treeFraction = share("tree_bandwidth_fraction");
  c.ll128Fraction = share("ll128_bandwidth_fraction");
  c.llFraction = share("ll_bandwidth_fraction");
  c.baseSimple_s = time("base_latency_simple_s");
  c.baseLl128_s = time("base_latency_ll128_s");
  c.baseLl_s = time("base_latency_ll_s");
  c.hopScaleUpSimple_s = time("hop_latency_scale_up_simple_s");
  c.hopScaleUpLl128_s = time("hop_latency_scale_up_ll128_s");
  c.hopScaleUpLl_s = time("hop_latency_scale_up_ll_s");
  c.hopNetworkSimple_s = time("hop_latency_network_simple_s");
  c.hopNetworkLl128_s = time("hop_latency_network_ll128_s");
  c.hopNetworkLl_s = time("hop_latency_network_ll_s");
  c.treeHopNetworkSimple_s = time("tree_hop_latency_network_simple_s");
  c.treeHopNetworkLl128_s = time("tree_hop_latency_network_ll128_s");
  c.treeHopNetworkLl_s = time("tree_hop_latency_network_ll_s");
  c.nvls_s = time("nvls_latency_s");
  c.nvlsRank_s = r.figure("nvls_rank_latency_s", false, true);  // 0: NCCL's flat NVLS latency
  c.collnetNetwork_s = time("collnet_latency_network_s");
  if (!r.error().empty()) return Result<CollectiveSpec>::failure(r.error());
  return c;
}

Result<DeviceEfficiency> loadEfficiency(const Catalog& catalog, const std::string& id) {
  // A figure of the device's own entry when it has one, else the default entry's.
  FigureReader r(catalog, {"efficiency." + id, "efficiency.default"});
  DeviceEfficiency e;
  e.hbm = r.figure("hbm_stream_fraction", true);
  e.gemmBf16 = r.figure("gemm_bf16_fraction", true);
  e.gemmFp8 = r.figure("gemm_fp8_fraction", true);
  e.gemmFp4 = r.figure("gemm_fp4_fraction", true);
  e.attention = r.figure("attention_fraction", true);
  if (!r.error().empty()) return Result<DeviceEfficiency>::failure(r.error());
  return e;
}

Precision tensorFormat(const GpuSpec& gpu, Precision precision) {
  switch (precision) {
    case Precision::FP4:
    case Precision::INT4:
      if (gpu.denseFp4_flops > 0) return Precision::FP4;
      [[fallthrough]];
    case Precision::FP8:
      return gpu.denseFp8_flops > 0 ? Precision::FP8 : Precision::BF16;
    case Precision::INT8:
      if (gpu.denseInt8_ops > 0) return Precision::INT8;
      return gpu.denseFp8_flops > 0 ? Precision::FP8 : Precision::BF16;
    case Precision::BF16:
    case Precision::FP16:
      return Precision::BF16;
    case Precision::FP32:
      return Precision::FP32;
  }
  return Precision::BF16;
}

std::string missingTensorFormat(const GpuSpec& gpu, Precision precision) {
  const Precision runs = tensorFormat(gpu, precision);
  const std::string entry = "gpus." + gpu.id;
  if ((precision == Precision::FP4 || precision == Precision::INT4) && runs != Precision::FP4) {
    return gpu.id + " has no FP4 peak (" + entry + ".dense_fp4_flops)";
  }
  if (precision == Precision::FP8 && runs != Precision::FP8) {
    return gpu.id + " has no FP8 peak (" + entry + ".dense_fp8_flops)";
  }
  if (precision == Precision::INT8 && runs == Precision::BF16) {
    return gpu.id + " has no INT8 or FP8 peak (" + entry + ".dense_int8_ops, " + entry +
           ".dense_fp8_flops)";
  }
  return "";
}

double hbmDram_bytes(const GpuSpec& gpu) {
  return gpu.hbmCapacity_bytes / 1e9 * double(1ull << 30);
}

std::string fabricPartsError(const SwitchSpec& sw, const std::string& switchField,
                             const InterconnectSpec& nic, const std::string& nicField) {
  if (sw.kind != "scale_out") {
    return switchField + ": " + sw.id + " is a " + sw.kind + " switch (switches." + sw.id +
           ".kind); the scale-out fabric needs a scale_out switch";
  }
  if (nic.kind != "nic") {
    return nicField + ": " + nic.id + " is a " + nic.kind + " interconnect (interconnects." +
           nic.id + ".kind), not a NIC";
  }
  return "";
}

double denseFlops(const GpuSpec& gpu, Precision precision) {
  switch (tensorFormat(gpu, precision)) {
    case Precision::FP4:
      return gpu.denseFp4_flops;
    case Precision::FP8:
      return gpu.denseFp8_flops;
    case Precision::INT8:
      return gpu.denseInt8_ops;
    case Precision::FP32:
      return gpu.denseBf16_flops / 2.0;  // the TF32 rate
    default:
      return gpu.denseBf16_flops;
  }
}

double achievedGemmFlops(const GpuSpec& gpu, Precision precision) {
  switch (tensorFormat(gpu, precision)) {
    case Precision::FP4:
      return denseFlops(gpu, precision) * gpu.efficiency.gemmFp4;
    case Precision::FP8:
    case Precision::INT8:  // the same tensor-core datapath width as FP8
      return denseFlops(gpu, precision) * gpu.efficiency.gemmFp8;
    default:
      return denseFlops(gpu, precision) * gpu.efficiency.gemmBf16;
  }
}

double achievedAttentionFlops(const GpuSpec& gpu) {
  return gpu.denseBf16_flops * gpu.efficiency.attention;
}

double achievedHbm_Bps(const GpuSpec& gpu) {
  return gpu.hbmBandwidth_Bps * gpu.efficiency.hbm;
}

double scaleUpPerDirection_Bps(const GpuSpec& gpu) {
  return gpu.scaleUpLinks * gpu.scaleUpLinkPerDirection_Bps;
}

double scaleUpBidirectional_Bps(const GpuSpec& gpu) {
  return 2.0 * scaleUpPerDirection_Bps(gpu);
}

}  // namespace sim
