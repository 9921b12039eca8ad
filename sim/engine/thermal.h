// First-order cooling: each CDU's secondary loop is one well-mixed thermal mass M (kg) that the
// racks heat and the CDU cools by pumping ṁ (kg/s) through a heat exchanger that returns it at
// the supply temperature: M c_p dT/dt = P - ṁ c_p (T - T_supply). GPUs see the loop temperature;
// junction T_j = T_loop + P R_th (sim/calc/power.h), and clocks throttle to keep T_j at the limit.
#pragma once

namespace sim::engine {

struct CoolingLoop {
  double mass_kg = 0;
  double specificHeat_J_per_kg_K = 0;
  double designFlow_kg_per_s = 0;
  double supply_C = 0;
};

/// Loop temperature after `dt_s` with constant heat input and flow (exact solution of the ODE;
/// with no flow the loop integrates the heat).
double loopTemperatureAfter_C(const CoolingLoop& loop, double loop_C, double heat_W,
                              double flowFraction, double dt_s);
/// Heat the CDU carries away over a step from its start and end loop temperatures (trapezoid).
double heatRemoved_J(const CoolingLoop& loop, double startLoop_C, double endLoop_C,
                     double flowFraction, double dt_s);
/// Clock share (minClock..1) that keeps a GPU at full-load power `tdp_W` under `limit_C`.
double throttleFactor(double loop_C, double tdp_W, double resistance_K_per_W, double limit_C,
                      double minClock);
/// Facility overhead at IT load `it_W`: a fixed share of the design overhead plus the rest in
/// proportion to load, so PUE rises at part load (The Green Grid WP#49).
double facilityOverheadAt_W(double it_W, double designIt_W, double designPue, double fixedFraction);

}  // namespace sim::engine
