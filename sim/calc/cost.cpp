#include "sim/calc/cost.h"

namespace sim::calc {

double networkCapex_usd(double gpuCapex_usd, double fraction) {
  return gpuCapex_usd * fraction / (1.0 - fraction);
}

double energyCost_usd(double energy_kWh, double usd_per_kWh) {
  return energy_kWh * usd_per_kWh;
}

double yearlyEnergy_kWh(double itPower_W, double pue) {
  return itPower_W * pue * HOURS_PER_YEAR / 1000.0;
}

double amortizedPerHour_usd(double capex_usd, double years) {
  return capex_usd / (years * HOURS_PER_YEAR);
}

double cloudPricePerGpuHour_usd(double instancePerHour_usd, double gpusPerInstance) {
  return instancePerHour_usd / gpusPerInstance;
}

double costPerMillionTokens_usd(double costPerHour_usd, double tokensPerSecond) {
  constexpr double SECONDS_PER_HOUR = 3600.0;
  return costPerHour_usd / (tokensPerSecond * SECONDS_PER_HOUR) * 1e6;
}

TcoResult computeTco(const TcoDesc& d) {
  TcoResult r;
  const double gpuCapex = d.gpus * d.gpuCapex_usd;
  r.networkCapex_usd = networkCapex_usd(gpuCapex, d.networkFractionOfCapex);
  r.itCapex_usd = gpuCapex + r.networkCapex_usd;
  r.facilityCapex_usd = d.itPower_W * d.facilityCapex_usd_per_W;
  r.capexPerYear_usd = r.itCapex_usd / d.serverAmortization_years +
                       r.facilityCapex_usd / d.facilityAmortization_years;
  r.energyPerYear_kWh = yearlyEnergy_kWh(d.itPower_W, d.pue);
  r.energyPerYear_usd = energyCost_usd(r.energyPerYear_kWh, d.electricity_usd_per_kWh);
  r.totalPerYear_usd = r.capexPerYear_usd + r.energyPerYear_usd;
  r.perGpuHour_usd = r.totalPerYear_usd / (d.gpus * HOURS_PER_YEAR * d.utilization);
  return r;
}

ComparisonRow compareRow(const std::string& gpuId, double perGpuHour_usd,
                         double tokensPerSecondPerGpu, double facilityPowerPerGpu_W) {
  return ComparisonRow{
      .gpuId = gpuId,
      .perGpuHour_usd = perGpuHour_usd,
      .tokensPerSecondPerGpu = tokensPerSecondPerGpu,
      .perMillionTokens_usd = costPerMillionTokens_usd(perGpuHour_usd, tokensPerSecondPerGpu),
      .tokensPerJoule = tokensPerSecondPerGpu / facilityPowerPerGpu_W};
}

}  // namespace sim::calc
