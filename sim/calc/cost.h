// Cost calculators: capex (accelerators, network, facility), energy opex, $/GPU-hour and
// $/million tokens, and a side-by-side comparison row per accelerator. The structure follows the
// SemiAnalysis-style TCO model described in the reference (capex amortised over years + energy
// opex through PUE, divided by useful hours). Units: usd, W, kWh, hours, years, tokens/s.
#pragma once

#include <string>

namespace sim::calc {

inline constexpr double HOURS_PER_YEAR = 8760.0;  // 365 x 24

/// Inputs of a cluster TCO estimate.
struct TcoDesc {
  double gpus = 0;
  double gpuCapex_usd = 0;             // per GPU, including its share of the server
  double networkFractionOfCapex = 0;   // network as a share of total IT capex
  double itPower_W = 0;                // whole cluster IT power
  double facilityCapex_usd_per_W = 0;  // per watt of IT load
  double pue = 1.0;
  double electricity_usd_per_kWh = 0;
  double serverAmortization_years = 1.0;
  double facilityAmortization_years = 1.0;
  double utilization = 1.0;  // fraction of hours sold / used
};

struct TcoResult {
  double itCapex_usd = 0;  // GPUs + network
  double networkCapex_usd = 0;
  double facilityCapex_usd = 0;
  double capexPerYear_usd = 0;   // amortised (straight line, no cost of capital)
  double energyPerYear_kWh = 0;  // facility energy, powered all year: IT x PUE x 8760 h
  double energyPerYear_usd = 0;
  double totalPerYear_usd = 0;
  double perGpuHour_usd = 0;  // total per year / (gpus x hours x utilization)
};

/// Network capex when it is `fraction` of total IT capex: gpuCapex x f / (1 - f).
double networkCapex_usd(double gpuCapex_usd, double fraction);
/// Energy cost: kWh x $/kWh.
double energyCost_usd(double energy_kWh, double usd_per_kWh);
/// Yearly facility energy of an IT load: P x PUE x 8760 h / 1000 (kWh).
double yearlyEnergy_kWh(double itPower_W, double pue);
/// Straight-line amortisation of `capex_usd` over `years` to $/hour.
double amortizedPerHour_usd(double capex_usd, double years);
/// Cloud price per GPU-hour: instance $/hour / GPUs per instance.
double cloudPricePerGpuHour_usd(double instancePerHour_usd, double gpusPerInstance);
/// $/million tokens: $/hour / (tokens/s x 3600) x 1e6.
double costPerMillionTokens_usd(double costPerHour_usd, double tokensPerSecond);
/// The whole TCO estimate.
TcoResult computeTco(const TcoDesc& desc);

/// One accelerator's numbers for a side-by-side comparison on the same workload.
struct ComparisonRow {
  std::string gpuId;
  double perGpuHour_usd = 0;
  double tokensPerSecondPerGpu = 0;
  double perMillionTokens_usd = 0;
  double tokensPerJoule = 0;  // tokens/s per W of facility power
};
/// Builds a comparison row from a GPU-hour price, per-GPU throughput and per-GPU facility power.
ComparisonRow compareRow(const std::string& gpuId, double perGpuHour_usd,
                         double tokensPerSecondPerGpu, double facilityPowerPerGpu_W);

}  // namespace sim::calc
