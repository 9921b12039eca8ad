// Creation structs of the engine (Box2D's b2WorldDef style): every field has a default, so a
// scenario sets only what differs, with C++20 designated initializers. Catalog ids name hardware
// and models; a number of 0 means "take it from the catalog" where the comment says so.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "sim/precision.h"

namespace sim::engine {

inline constexpr double NEVER_S = std::numeric_limits<double>::infinity();

struct ClusterDesc {
  std::string systemId = "gb200_nvl72";      // catalog systems.<id>: one rack = one NVLink domain
  std::string switchId = "quantum2_qm9700";  // catalog switches.<id>: the scale-out fabric switch
  std::string nicId;                         // catalog interconnects.<id>; "" = the system's NIC
  std::string facilityProfile = "default";   // catalog facility.<id>
  double facilityPower_W = 0;                // campus budget; 0 = the facility profile's
  uint32_t fabricGpus = 16384;  // GPUs the link-by-link fabric must hold (rounded up to racks)
  bool railOptimized = true;    // NIC i of every rack in a rail group lands on leaf i
  uint32_t rails = 0;           // leaves per rail group; 0 = the smallest that tiles whole racks
};

struct TrainingDesc {
  std::string modelId = "llama3_1_405b";  // catalog models.<id>
  Precision precision = Precision::BF16;  // math, weights, gradients and activations
  int tp = 8;                             // tensor parallel, inside one NVLink domain
  int pp = 16;                            // pipeline stages, across racks
  int dp = 128;                           // data parallel, across the fabric
  int ep = 1;         // expert parallel (MoE models): all-to-all over ep consecutive DP replicas
  int zeroStage = 1;  // 0..3 (optimizer state sharded over dp from 1)
  double seqLen_tokens = 8192;
  int microBatch = 1;     // sequences per micro-batch
  int microBatches = 16;  // micro-batches per DP replica per step (1F1B)
  int virtualStages = 1;  // interleaved 1F1B chunks per device (1 = plain 1F1B)
  int cp = 1;             // context parallel (ring attention), inside the TP domain's rack
  std::string activations = "selective";  // none, tp, tp_sp, selective, full (recompute choice)
};

struct InferenceDesc {
  std::string modelId = "llama3_1_70b";  // catalog models.<id>
  Precision weights = Precision::FP8;
  Precision kvCache = Precision::BF16;
  Precision math = Precision::FP8;
  int tp = 8;                                 // GPUs per replica, inside one NVLink domain
  uint32_t replicas = 0;                      // 0 = as many as the modelled fabric holds
  double arrivalRatePerReplica_per_s = 10.0;  // Poisson mean (a 70B TP-8 replica serves ~20)
  double promptTokens = 2048;
  double outputTokens = 256;
  int maxBatch = 64;             // sequences decoded together (continuous batching)
  uint32_t queueCapacity = 256;  // waiting requests per replica; more are rejected
};

enum class WorkloadKind { Training, Inference };

struct WorkloadDesc {
  WorkloadKind kind = WorkloadKind::Training;
  TrainingDesc training;
  InferenceDesc inference;
};

enum class FaultKind {
  LinkDown,   // target: LinkId; traffic re-routes (ECMP over the live links, PXN for a NIC link)
  PfcStorm,   // target: SwitchId where the congested port is; pause spreads hop by hop
  PumpTrip,   // target: CduId; coolant flow falls to `severity` of design
  Straggler,  // target: GpuId; the GPU runs at `severity` of its speed
};

struct FaultDesc {
  FaultKind kind = FaultKind::LinkDown;
  double start_s = 0;
  double end_s = NEVER_S;  // when the fault is cleared
  uint32_t target = 0;
  double severity = 0;    // straggler speed / pump remaining flow fraction; 0 = catalog default
  bool deadlock = false;  // PFC storm with a cyclic buffer dependency: needs the watchdog

  bool operator==(const FaultDesc&) const = default;
};

struct EngineDesc {
  ClusterDesc cluster;
  WorkloadDesc workload;
  std::vector<FaultDesc> faults;
  double dt_s = 0.01;               // fixed step
  uint64_t seed = 1;                // ECMP hashing and request arrivals
  uint32_t seriesEvery = 10;        // one aggregate row every this many steps
  uint32_t seriesCapacity = 20000;  // rows kept (the oldest are dropped beyond it)
};

/// Name of a fault kind ("link_down", "pfc_storm", "pump_trip", "straggler").
const char* faultKindName(FaultKind kind);

}  // namespace sim::engine
