#include "sim/engine/thermal.h"

#include <algorithm>
#include <cmath>

#include "sim/calc/power.h"

namespace sim::engine {

double loopTemperatureAfter_C(const CoolingLoop& loop, double loop_C, double heat_W,
                              double flowFraction, double dt_s) {
  const double capacity_J_per_K = loop.mass_kg * loop.specificHeat_J_per_kg_K;
  const double flow = loop.designFlow_kg_per_s * flowFraction;
  if (flow <= 0) return loop_C + heat_W * dt_s / capacity_J_per_K;
  const double equilibrium_C =
      loop.supply_C + calc::coolantTemperatureRise_K(heat_W, flow, loop.specificHeat_J_per_kg_K);
  const double tau_s = loop.mass_kg / flow;
  return equilibrium_C + (loop_C - equilibrium_C) * std::exp(-dt_s / tau_s);
}

double heatRemoved_J(const CoolingLoop& loop, double startLoop_C, double endLoop_C,
                     double flowFraction, double dt_s) {
  const double flow = loop.designFlow_kg_per_s * flowFraction;
  const double mean_C = 0.5 * (startLoop_C + endLoop_C);
  return flow * loop.specificHeat_J_per_kg_K * (mean_C - loop.supply_C) * dt_s;
}

double throttleFactor(double coolant_C, double tdp_W, double resistance_K_per_W, double limit_C,
                      double minClock) {
  if (tdp_W <= 0 || resistance_K_per_W <= 0) return 1.0;
  const double allowed_W = (limit_C - coolant_C) / resistance_K_per_W;
  return std::clamp(allowed_W / tdp_W, minClock, 1.0);
}

double facilityOverheadAt_W(double it_W, double designIt_W, double designPue,
                            double fixedFraction) {
  const double design_W = calc::facilityOverhead_W(designIt_W, designPue);
  const double load = designIt_W > 0 ? it_W / designIt_W : 0;
  return design_W * (fixedFraction + (1.0 - fixedFraction) * load);
}

}  // namespace sim::engine
