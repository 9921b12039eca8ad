#include "sim/calc/power.h"

#include <algorithm>
#include <cmath>

namespace sim::calc {

double devicesPower_W(double count, double idle_W, double max_W, double utilization) {
  return count * (idle_W + utilization * (max_W - idle_W));
}

double nodePower_W(double gpus, double gpuIdle_W, double gpuTdp_W, double utilization,
                   double nodeMax_W, double otherShare) {
  const double other = std::max(0.0, nodeMax_W - gpus * gpuTdp_W);
  return devicesPower_W(gpus, gpuIdle_W, gpuTdp_W, utilization) + otherShare * other;
}

double rackPower_W(double systemsPerRack, double systemPower_W, double other_W) {
  return systemsPerRack * systemPower_W + other_W;
}

double facilityPower_W(double itPower_W, double pue) {
  return itPower_W * pue;
}

double facilityOverhead_W(double itPower_W, double pue) {
  return itPower_W * (pue - 1.0);
}

double coolantMassFlow_kg_per_s(double heat_W, double specificHeat_J_per_kg_K, double deltaT_K) {
  return heat_W / (specificHeat_J_per_kg_K * deltaT_K);
}

double volumetricFlow_L_per_min(double massFlow_kg_per_s, double density_kg_per_m3) {
  constexpr double LITRES_PER_M3 = 1000.0;
  constexpr double SECONDS_PER_MINUTE = 60.0;
  return massFlow_kg_per_s / density_kg_per_m3 * LITRES_PER_M3 * SECONDS_PER_MINUTE;
}

double coolantTemperatureRise_K(double heat_W, double massFlow_kg_per_s,
                                double specificHeat_J_per_kg_K) {
  return heat_W / (massFlow_kg_per_s * specificHeat_J_per_kg_K);
}

double junctionTemperature_C(double coolant_C, double power_W, double resistance_K_per_W) {
  return coolant_C + power_W * resistance_K_per_W;
}

double racksWithinBudget(double facilityBudget_W, double rackPower_W, double pue) {
  return std::floor(facilityBudget_W / (rackPower_W * pue));
}

double energy_J(double power_W, double time_s) {
  return power_W * time_s;
}

double joulesToKWh(double energy_J) {
  constexpr double JOULES_PER_KWH = 3.6e6;
  return energy_J / JOULES_PER_KWH;
}

}  // namespace sim::calc
