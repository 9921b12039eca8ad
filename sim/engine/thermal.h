// First-order cooling, at two sizes of the same equation M c_p dT/dt = P - ṁ c_p (T - T_supply)
// (a well-mixed mass M heated by P and flushed by ṁ, its inflow at the supply temperature):
// - each CDU's secondary loop (M ~ 1 m3): its racks heat it, the CDU's heat exchanger returns it
//   at the supply temperature; its temperature is the loop's return, and what the facility water
//   carries away;
// - each GPU's cold plate (M ~ 50 mL): fed at the CDU's supply temperature by its share of the
//   CDU's flow, so a pump trip heats the plate's coolant within seconds. The junction sits on the
//   plate's mean coolant, T_j = (T_supply + T_plate) / 2 + P R_th (sim/calc/power.h), and clocks
//   throttle to keep the hottest plate's GPU at the limit.
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
/// Clock share (minClock..1) that keeps a GPU at full-load power `tdp_W` on coolant at
/// `coolant_C` under `limit_C`.
double throttleFactor(double coolant_C, double tdp_W, double resistance_K_per_W, double limit_C,
                      double minClock);
/// Facility overhead at IT load `it_W`: a fixed share of the design overhead plus the rest in
/// proportion to load, so PUE rises at part load (The Green Grid WP#49).
double facilityOverheadAt_W(double it_W, double designIt_W, double designPue, double fixedFraction);

}  // namespace sim::engine
