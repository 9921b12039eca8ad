// The engine's own modelling figures (catalog section "engine", assets/catalog/topology.json):
// power levels by phase, cooling-loop and throttling constants, PFC timings. Each is an estimate
// with its reasoning in the catalog; none is a magic number in code.
#pragma once

#include "sim/catalog.h"
#include "sim/result.h"

namespace sim::engine {

struct EngineFigures {
  double gpuIdleFraction = 0;                // of TDP
  double gpuMemoryBoundFraction = 0;         // of TDP
  double gpuCommunicationFraction = 0;       // of TDP
  double rackOtherLoadFraction = 0;          // of (rack max power - GPUs x TDP)
  double facilityFixedOverheadFraction = 0;  // of design overhead IT x (PUE - 1)
  double racksPerCdu = 0;
  double cduLoopMass_kg = 0;
  double coldPlateCoolantMass_kg = 0;  // per GPU
  double throttleJunction_C = 0;
  double throttleMinClockFraction = 0;
  double pumpTripRemainingFlowFraction = 0;
  double pfcHopDelay_s = 0;
  double pfcWatchdog_s = 0;
  double stragglerSpeedFraction = 0;
  double channelsPerConnection = 0;  // ECMP sub-flows per ring connection (NCCL channels)
};

/// Reads section "engine" of the catalog; a missing or out-of-range figure fails naming it.
Result<EngineFigures> loadEngineFigures(const Catalog& catalog);

}  // namespace sim::engine
