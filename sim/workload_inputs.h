// The hardware half of the serving and training calculators' inputs, resolved once from catalog
// specs, so that the analytic evaluation (sim/evaluate.h) and the time engine (sim/engine/) price
// a workload with the same numbers from the same source.
#pragma once

#include "sim/calc/serving.h"
#include "sim/calc/training.h"
#include "sim/specs.h"

namespace sim {

struct HardwareInputs {
  GpuSpec gpu;
  int domainGpus = 1;         // GPUs of one scale-up domain (capped by the cluster's GPUs)
  double nodeEgress_Bps = 0;  // NICs x NIC rate of one domain, one direction
  double nicLatency_s = 0;
  bool scaleUpReduces = false;  // NVLS-capable scale-up switch
  bool fabricReduces = false;   // SHARP-capable fabric switch
  double fabricTaper = 1.0;     // leaf down : up ports (1 = non-blocking)
  RulesSpec rules;
  CollectiveSpec collectives;
};

/// Resolves the inputs for `gpu` in `system` with `nic` on a `fabric` of `clusterGpus` GPUs.
Result<HardwareInputs> hardwareInputs(const Catalog& catalog, const GpuSpec& gpu,
                                      const SystemSpec& system, const InterconnectSpec& nic,
                                      const SwitchSpec& fabric, int clusterGpus);

/// A collective of `ranks` GPUs on this hardware (whole domains are one node each).
calc::CollectiveTopology collectiveTopology(const HardwareInputs& hw, int ranks);

/// Fills the achieved rates, memory, links and constants of `d` (its layout is the caller's).
void applyHardware(calc::TrainingDesc& d, const HardwareInputs& hw, Precision compute);
void applyHardware(calc::ServingDesc& d, const HardwareInputs& hw, Precision compute);

}  // namespace sim
