// Power, thermal and cooling calculators: IT vs facility power (PUE, The Green Grid WP#49),
// coolant flow from Q = m_dot c_p dT, junction temperature from a thermal resistance, facility
// capacity in racks, energy. Units: W, J, kWh, kg/s, L/min, K, °C (_C).
#pragma once

namespace sim::calc {

/// Power of `count` devices at `utilization` (0..1) between idle and max: count (idle + u (max -
/// idle)).
double devicesPower_W(double count, double idle_W, double max_W, double utilization);
/// A node's power while its GPUs are busy `utilization` of the time: the GPUs between idle and
/// TDP (devicesPower_W) + the rest of the node (CPUs, NICs, switches, fans, conversion) at
/// `otherShare` of what its rating leaves beside the GPUs (node max - GPUs x TDP).
double nodePower_W(double gpus, double gpuIdle_W, double gpuTdp_W, double utilization,
                   double nodeMax_W, double otherShare);
/// Rack IT power: systems per rack x system power + other rack loads (switches, fans).
double rackPower_W(double systemsPerRack, double systemPower_W, double other_W);
/// Facility power: IT power x PUE.
double facilityPower_W(double itPower_W, double pue);
/// Overhead (cooling, conversion losses) beyond IT: IT (PUE - 1).
double facilityOverhead_W(double itPower_W, double pue);

/// Coolant mass flow to carry `heat_W` at a temperature rise dT: m_dot = Q / (c_p dT).
double coolantMassFlow_kg_per_s(double heat_W, double specificHeat_J_per_kg_K, double deltaT_K);
/// Volumetric flow in litres per minute: m_dot / rho x 1000 L/m^3 x 60 s/min.
double volumetricFlow_L_per_min(double massFlow_kg_per_s, double density_kg_per_m3);
/// Coolant temperature rise for a given flow: dT = Q / (m_dot c_p).
double coolantTemperatureRise_K(double heat_W, double massFlow_kg_per_s,
                                double specificHeat_J_per_kg_K);
/// Junction temperature: T_j = T_coolant + P x R_th(junction to coolant).
double junctionTemperature_C(double coolant_C, double power_W, double resistance_K_per_W);

/// Racks a facility power budget holds: floor(budget / (rack IT power x PUE)).
double racksWithinBudget(double facilityBudget_W, double rackPower_W, double pue);

/// Energy: power x time (J).
double energy_J(double power_W, double time_s);
/// Joules to kilowatt-hours (1 kWh = 3.6e6 J).
double joulesToKWh(double energy_J);

}  // namespace sim::calc
