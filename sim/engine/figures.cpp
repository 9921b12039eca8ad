#include "sim/engine/figures.h"

#include <cmath>
#include <string>

namespace sim::engine {
namespace {

// Reads a figure into `out`; records the first error. `maximum` <= 0 means unbounded.
void read(const Catalog& catalog, const std::string& path, double minimum, double maximum,
          double& out, std::string& error) {
  if (!error.empty()) return;
  const Quantity* q = catalog.find("engine." + path);
  if (!q) {
    error = "catalog: engine." + path + " is missing (expected in assets/catalog/topology.json)";
    return;
  }
  if (!std::isfinite(q->value) || q->value < minimum || (maximum > 0 && q->value > maximum)) {
    error = q->where + ": engine." + path + " out of range";
    return;
  }
  out = q->value;
}

}  // namespace

Result<EngineFigures> loadEngineFigures(const Catalog& catalog) {
  EngineFigures f;
  std::string e;
  read(catalog, "power.gpu_idle_fraction_of_tdp", 0, 1, f.gpuIdleFraction, e);
  read(catalog, "power.gpu_memory_bound_fraction_of_tdp", 0, 1, f.gpuMemoryBoundFraction, e);
  read(catalog, "power.gpu_communication_fraction_of_tdp", 0, 1, f.gpuCommunicationFraction, e);
  read(catalog, "power.rack_other_load_fraction", 0, 1, f.rackOtherLoadFraction, e);
  read(catalog, "power.facility_fixed_overhead_fraction", 0, 1, f.facilityFixedOverheadFraction, e);
  read(catalog, "thermal.racks_per_cdu", 1, 0, f.racksPerCdu, e);
  read(catalog, "thermal.cdu_loop_mass_kg", 1e-3, 0, f.cduLoopMass_kg, e);
  read(catalog, "thermal.cold_plate_coolant_mass_kg", 1e-4, 0, f.coldPlateCoolantMass_kg, e);
  read(catalog, "thermal.gpu_throttle_junction_C", 0, 200, f.throttleJunction_C, e);
  read(catalog, "thermal.throttle_min_clock_fraction", 0.01, 1, f.throttleMinClockFraction, e);
  read(catalog, "thermal.pump_trip_remaining_flow_fraction", 0, 1, f.pumpTripRemainingFlowFraction,
       e);
  read(catalog, "network.pfc_hop_delay_s", 1e-9, 0, f.pfcHopDelay_s, e);
  read(catalog, "network.pfc_watchdog_s", 1e-9, 0, f.pfcWatchdog_s, e);
  read(catalog, "network.channels_per_connection", 1, 64, f.channelsPerConnection, e);
  read(catalog, "network.straggler_speed_fraction", 0.01, 1, f.stragglerSpeedFraction, e);
  if (!e.empty()) return Result<EngineFigures>::failure(e);
  return f;
}

}  // namespace sim::engine
