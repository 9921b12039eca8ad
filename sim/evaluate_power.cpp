// The power and cost sections: nameplate and workload-following power (GPU power from its busy
// share between idle and TDP; the rest of the node at its share of what the rating leaves),
// cooling, the campus a facility budget holds, TCO, and the same workload on other GPUs.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/calc/cost.h"
#include "sim/calc/memory.h"
#include "sim/calc/power.h"
#include "sim/evaluate_context.h"

namespace sim::detail {
namespace {

// IT power of the cluster at nameplate: each GPU carries its share of its system's power (CPUs,
// NICs, fans, switch trays), so a partly used system counts only its used share.
double clusterItPower_W(const Context& c) {
  return static_cast<double>(c.scenario.cluster.gpus) * c.system.maxPower_W / c.system.gpus;
}

double idlePower_W(const Context& c) {
  return c.gpu.idle_W > 0 ? c.gpu.idle_W : c.figures.gpuIdleFraction * c.gpu.tdp_W;
}

// Share of the time the GPUs compute (tensor cores, HBM streaming) rather than wait on
// communication or the pipeline bubble.
double busyShare(const Context& c) {
  if (c.scenario.workload.kind == "training") {
    const calc::TrainingStep s = calc::trainingStep(trainingDesc(c));
    const double compute = c.scenario.workload.microBatches * s.stageLayers * s.layerCompute_s;
    return std::clamp(compute / s.step_s, 0.0, 1.0);
  }
  const calc::IterationCost it = serve(c, c.gpu).iteration;
  if (it.total_s <= 0) return 0.0;
  return std::clamp((it.matmul_s + it.attention_s + it.elementwise_s) / it.total_s, 0.0, 1.0);
}

}  // namespace

void power(const Context& c, Writer& w) {
  const FacilitySpec& f = c.facility;
  w.section("power");
  w.num("pue", f.pue, "ratio");
  w.num("facility_budget_W", f.powerBudget_W, "W");
  w.num("facility_supported_it_power_W", f.powerBudget_W / f.pue, "W");
  const double flowPerKw =
      calc::coolantMassFlow_kg_per_s(1000.0, f.coolantSpecificHeat_J_per_kg_K, f.coolantDeltaT_K);
  w.num("coolant_flow_per_kW_L_per_min",
        calc::volumetricFlow_L_per_min(flowPerKw, f.coolantDensity_kg_per_m3), "L/min");
  const bool published = c.system.maxPower_W > 0 && c.gpu.tdp_W > 0;
  w.flag("figures_published", published);
  if (!published) return;  // TPU pods: Google publishes no power figures

  const double rack = calc::rackPower_W(c.scenario.cluster.systemsPerRack, c.system.maxPower_W, 0);
  const double it = clusterItPower_W(c);
  const double flow =
      calc::coolantMassFlow_kg_per_s(rack, f.coolantSpecificHeat_J_per_kg_K, f.coolantDeltaT_K);
  const double racks = calc::racksWithinBudget(f.powerBudget_W, rack, f.pue);
  const double busy = busyShare(c);
  const double idle = idlePower_W(c);
  const double otherShare = c.figures.rackOtherLoadFraction;
  const double perSystem = c.system.gpus;
  const double nodeMean =
      calc::nodePower_W(perSystem, idle, c.gpu.tdp_W, busy, c.system.maxPower_W, otherShare);
  const double nodePeak =
      calc::nodePower_W(perSystem, idle, c.gpu.tdp_W, 1.0, c.system.maxPower_W, otherShare);
  const double workloadIt = nodeMean * c.scenario.cluster.gpus / perSystem;
  w.num("gpu_tdp_W", c.gpu.tdp_W, "W");
  w.num("gpu_idle_W", idle, "W");
  w.num("gpu_busy_fraction", busy, "share");
  const double gpuPower = idle + busy * (c.gpu.tdp_W - idle);
  w.num("gpu_power_W", gpuPower, "W");
  w.num("gpus_power_W", c.scenario.cluster.gpus * c.gpu.tdp_W, "W");
  w.num("workload_gpus_power_W", c.scenario.cluster.gpus * gpuPower, "W");
  w.num("system_power_W", c.system.maxPower_W, "W");
  w.num("node_power_W", nodeMean, "W");
  w.num("node_peak_power_W", nodePeak, "W");
  w.num("rack_power_W", rack, "W");
  w.num("it_power_W", it, "W");
  w.num("workload_it_power_W", workloadIt, "W");
  w.num("facility_power_W", calc::facilityPower_W(it, f.pue), "W");
  w.num("facility_overhead_W", calc::facilityOverhead_W(it, f.pue), "W");
  w.num("coolant_flow_per_rack_kg_per_s", flow, "kg/s");
  w.num("coolant_flow_per_rack_L_per_min",
        calc::volumetricFlow_L_per_min(flow, f.coolantDensity_kg_per_m3), "L/min");
  w.num("junction_temperature_C",
        calc::junctionTemperature_C(f.coolantSupply_C, c.gpu.tdp_W, f.junctionToCoolant_K_per_W),
        "C");
  w.num("racks_within_budget", racks, "count");
  w.num("gpus_within_budget", racks * c.scenario.cluster.systemsPerRack * c.system.gpus, "count");
  if (c.scenario.workload.kind != "training") return;
  const double gpus = replicaGpus(c) * c.scenario.workload.dp;
  const double time = trainingTime_s(c, calc::trainingStep(trainingDesc(c)));
  const double gpuMean = idle + busy * (c.gpu.tdp_W - idle);
  w.num("training_gpu_energy_kWh", calc::joulesToKWh(calc::energy_J(gpus * gpuMean, time)), "kWh");
  w.num("training_facility_energy_kWh",
        calc::joulesToKWh(calc::energy_J(calc::facilityPower_W(workloadIt, f.pue), time)), "kWh");
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

namespace {

// The TCO inputs of `gpus` GPUs at `price_usd` each drawing `itPower_W` in all.
calc::TcoDesc tcoDesc(const Context& c, double gpus, double price_usd, double itPower_W) {
  return {.gpus = gpus,
          .gpuCapex_usd = price_usd,
          .networkFractionOfCapex = c.cost.networkFractionOfCapex,
          .itPower_W = itPower_W,
          .facilityCapex_usd_per_W = c.cost.facilityCapex_usd_per_W,
          .pue = c.facility.pue,
          .electricity_usd_per_kWh = c.facility.electricityPrice_usd_per_kWh,
          .serverAmortization_years = c.cost.serverAmortization_years,
          .facilityAmortization_years = c.cost.facilityAmortization_years,
          .utilization = c.cost.utilization};
}

// $/GPU-hour of the cluster on `gpu` (0 when it has no price and no cloud price).
double perGpuHour(const Context& c, const GpuSpec& gpu, double gpuPrice_usd) {
  if (gpuPrice_usd <= 0) return gpu.cloudPricePerHourUsd;
  const double gpus = c.scenario.cluster.gpus;
  // Another GPU in the same system: scale the system share by the GPUs' TDP ratio when both known.
  const double ratio = gpu.tdp_W > 0 && c.gpu.tdp_W > 0 ? gpu.tdp_W / c.gpu.tdp_W : 1.0;
  return calc::computeTco(tcoDesc(c, gpus, gpuPrice_usd, clusterItPower_W(c) * ratio))
      .perGpuHour_usd;
}

double gpuPrice(const Context& c) {
  if (c.scenario.cost.gpuPrice_usd > 0) return c.scenario.cost.gpuPrice_usd;
  if (c.gpu.priceUsd > 0) return c.gpu.priceUsd;
  return c.system.priceUsd > 0 ? c.system.priceUsd / c.system.gpus : 0.0;
}

}  // namespace

void cost(const Context& c, Writer& w) {
  const CostDesc& cd = c.scenario.cost;
  const double price = gpuPrice(c);
  w.section("cost");
  w.num("gpu_price_usd", price, "usd");
  if (price > 0 && c.system.maxPower_W > 0) {
    const calc::TcoResult tco = calc::computeTco(
        tcoDesc(c, static_cast<double>(c.scenario.cluster.gpus), price, clusterItPower_W(c)));
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
  const double hourly = price > 0 && c.system.maxPower_W > 0 ? perGpuHour(c, c.gpu, price)
                                                             : c.gpu.cloudPricePerHourUsd;
  if (hourly > 0 && c.scenario.workload.kind == "inference") {
    const double tokens = serve(c, c.gpu).outputTokensPerSecond;
    if (tokens > 0) {
      w.num("per_million_tokens_usd",
            calc::costPerMillionTokens_usd(hourly * replicaGpus(c), tokens), "usd");
    }
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
    const double hourly =
        c.system.maxPower_W > 0 ? perGpuHour(c, *gpu, gpu->priceUsd) : gpu->cloudPricePerHourUsd;
    // A GPU without the scenario's compute format, or on which not one request fits, serves
    // nothing: its figures are left out with the reason (0 tokens/s would read as a measurement).
    if (std::string missing = missingTensorFormat(*gpu, c.compute); !missing.empty()) {
      w.text(id + "_serving", "not applicable: " + missing);
      continue;
    }
    const calc::ServingDesc d = servingDesc(c, *gpu);
    const calc::ServingResult served = serve(c, *gpu);
    const bool fits =
        calc::servingWeightsPerGpu(d) + d.reserve_bytes <= d.usable_bytes * d.memoryFraction;
    w.flag(id + "_weights_fit", fits);
    if (served.maxConcurrency < 1) {
      w.text(id + "_serving", "not applicable: not one request fits in " + id +
                                  "'s serving budget beside the weights");
      continue;
    }
    const double perGpuTokens = served.outputTokensPerSecond / replicaGpus(c);
    const double facilityPerGpu = gpu->tdp_W * c.facility.pue;
    w.num(id + "_tokens_per_s_per_gpu", perGpuTokens, "tokens/s");
    if (hourly > 0 && perGpuTokens > 0) {
      const calc::ComparisonRow row =
          calc::compareRow(id, hourly, perGpuTokens, std::max(facilityPerGpu, 1.0));
      w.num(id + "_per_gpu_hour_usd", row.perGpuHour_usd, "usd/h");
      w.num(id + "_per_million_tokens_usd", row.perMillionTokens_usd, "usd");
    }
    if (facilityPerGpu > 0) w.num(id + "_tokens_per_J", perGpuTokens / facilityPerGpu, "tokens/J");
  }
}

}  // namespace sim::detail
