// Typed, validated views of catalog entries. A spec is built once from sim::Catalog (every field
// must be present, finite and in range, or the load fails naming the catalog file:line); the
// calculators then take plain numbers from it. Units follow the field names: bytes, _Bps (bytes/s),
// _bps (bits/s), _flops (FLOP/s), _W, _s, _usd. Capacities and bandwidths are decimal (GB = 1e9 B).
#pragma once

#include <string>
#include <vector>

#include "sim/catalog.h"
#include "sim/precision.h"
#include "sim/result.h"

namespace sim {

/// Achieved shares of a device's peaks, measured by microbenchmarks (catalog section
/// "efficiency": the device's own entry, else "efficiency.default"). Each is independent of the
/// validation cases they feed (docs/validation.md).
struct DeviceEfficiency {
  double hbm = 0;        // streaming bandwidth / vendor HBM bandwidth
  double gemmBf16 = 0;   // large BF16 matmul / dense BF16 peak
  double gemmFp8 = 0;    // large FP8 matmul / dense FP8 peak
  double gemmFp4 = 0;    // large FP4 matmul / dense FP4 peak
  double attention = 0;  // fused attention (BF16) / dense BF16 peak
};

/// An accelerator (catalog section "gpus": GPUs and TPUs).
struct GpuSpec {
  std::string id;                // catalog key, e.g. "h100_sxm"
  std::string name;              // display name
  double hbmCapacity_bytes = 0;  // as marketed ("80 GB")
  double hbmUsable_bytes = 0;  // what the driver reports (nvidia-smi total); what fits are checked
  double hbmBandwidth_Bps = 0;
  double denseBf16_flops = 0;              // dense tensor peak (sparse figures are 2x and not used)
  double denseFp8_flops = 0;               // 0 when the device has no FP8 path
  double denseFp4_flops = 0;               // 0 when the device has no FP4 path
  double denseInt8_ops = 0;                // 0 when not listed
  double tdp_W = 0;                        // 0 when the vendor publishes none (TPUs)
  double idle_W = 0;                       // board power at rest; 0 = unknown (a share of TDP)
  int scaleUpLinks = 0;                    // NVLink / ICI / Infinity Fabric links per device
  double scaleUpLinkPerDirection_Bps = 0;  // one link, one direction
  std::string scaleUpInterconnect;         // interconnect id ("nvlink4", "nvlink5", ...)
  double priceUsd = 0;                     // 0 when no price is catalogued
  double cloudPricePerHourUsd = 0;         // 0 when no cloud price is catalogued
  DeviceEfficiency efficiency;
};

/// A server or rack-scale system (catalog section "systems").
struct SystemSpec {
  std::string id;
  std::string name;
  std::string gpuId;
  int gpus = 0;
  int cpus = 0;
  int computeTrays = 0;         // 0 for a single chassis
  int switchTrays = 0;          // NVLink switch trays (rack systems)
  int scaleUpSwitchChips = 0;   // NVSwitch chips in the system
  int scaleUpDomainGpus = 0;    // GPUs sharing one NVLink domain
  std::string scaleUpSwitchId;  // catalog switches.<id> of the domain; "" = direct links (torus)
  int scaleOutNics = 0;
  std::string scaleOutNicId;  // interconnect id of the NIC
  double maxPower_W = 0;      // 0 when the vendor publishes none (TPU pods)
  double priceUsd = 0;        // 0 when not catalogued
  double rackUnits = 0;       // chassis height, U; 0 = a rack or more (NVL72, TPU pods)
};

/// A link technology or NIC (catalog section "interconnects").
struct InterconnectSpec {
  std::string id;
  std::string name;
  std::string kind;                 // "scale_up", "scale_out", "nic", "host"
  double linkPerDirection_Bps = 0;  // one link/port, one direction
  double latency_s = 0;             // per-message latency (alpha) used by the alpha-beta models
};

/// A network switch (catalog section "switches").
struct SwitchSpec {
  std::string id;
  std::string name;
  std::string kind;                 // "scale_up" (NVSwitch, NVLink switch) or "scale_out" (fabric)
  int radix = 0;                    // ports at portRate_bps
  double portRate_bps = 0;          // per port, one direction
  double maxPower_W = 0;            // 0 when not catalogued
  bool inNetworkReduction = false;  // SHARP / NVLS capable
  double taper = 1.0;  // leaf down-ports : up-ports as built (scenario cluster.fabric_taper)
};

/// A transformer's architecture (catalog section "models", or a Hugging Face config.json).
struct ModelSpec {
  std::string id;
  std::string name;
  int layers = 0;
  int hidden = 0;
  int heads = 0;
  int kvHeads = 0;
  int headDim = 0;       // hidden / heads unless the config says otherwise
  int intermediate = 0;  // dense FFN width (or per-expert width for MoE)
  int vocab = 0;
  bool tiedEmbeddings = false;
  int experts = 0;             // routed experts per MoE layer; 0 = dense model
  int expertsPerToken = 0;     // routed experts active per token
  int sharedExperts = 0;       // always-active experts per MoE layer
  bool gatedMlp = true;        // SwiGLU (3 matrices) or a plain MLP (2 matrices, GPT)
  bool biases = false;         // linear and norm biases (GPT-2/3)
  bool dropout = false;        // trained with dropout (GPT-3; its masks are stored activations)
  int positionEmbeddings = 0;  // learned position table rows (GPT); 0 = rotary
  int contextTokens = 0;       // longest sequence (prompt + output) it was made for; 0 = unknown
  double trainingTokens = 0;   // 0 when not catalogued
};

/// Facility, cooling and energy-price inputs (catalog section "facility").
struct FacilitySpec {
  double pue = 0;
  double coolantSpecificHeat_J_per_kg_K = 0;
  double coolantDensity_kg_per_m3 = 0;
  double coolantDeltaT_K = 0;
  double coolantSupply_C = 0;
  double junctionToCoolant_K_per_W = 0;
  double powerBudget_W = 0;
  double electricityPrice_usd_per_kWh = 0;
  double rackUnits = 0;  // height of the hall's racks, U
};

/// Capital-cost and amortisation inputs (catalog section "costs").
struct CostSpec {
  double networkFractionOfCapex = 0;   // network share of cluster capex
  double facilityCapex_usd_per_W = 0;  // facility build cost per watt of IT load
  double serverAmortization_years = 0;
  double facilityAmortization_years = 0;
  double utilization = 0;  // fraction of hours the hardware does paid work
};

/// Constants of the calculators that come from papers and tools (catalog section "rules").
struct RulesSpec {
  double adamBytesPerParam = 0;           // 16 (ZeRO paper, K = 12)
  double adamOptimizerBytesPerParam = 0;  // K = 12
  double sparseToDenseRatio = 0;          // vendor "with sparsity" figures are 2x dense
  double frameworkReserve_bytes = 0;      // HBM the runtime keeps (context, NCCL buffers)
  double memoryFraction = 0;              // share of usable HBM a serving engine takes
  double maxNumTokens = 0;                // tokens one serving iteration may schedule
  double kernelsPerLayer = 0;             // kernels a decoder layer launches (not all-reduces)
  double kernelLaunch_s = 0;              // the shortest a kernel can take, launch included
  double effectiveTrainingTime = 0;       // share of wall-clock time a large job trains
};

/// The NCCL-like collective model's constants (catalog section "collectives.default").
struct CollectiveSpec {
  double ringFraction = 0;   // achieved ring busbw / per-direction link rate (Simple)
  double nvlsFraction = 0;   // achieved NVLS algbw / per-direction link rate
  double nicFraction = 0;    // achieved busbw / NIC line rate
  double treeFraction = 0;   // tree busbw relative to the ring's (NCCL tuning model)
  double ll128Fraction = 0;  // LL128 payload share (NCCL tuning model)
  double llFraction = 0;     // LL payload share (NCCL tuning model)
  double baseSimple_s = 0, baseLl128_s = 0, baseLl_s = 0;  // per-collective launch latency
  double hopScaleUpSimple_s = 0, hopScaleUpLl128_s = 0, hopScaleUpLl_s = 0;  // per ring step
  double hopNetworkSimple_s = 0, hopNetworkLl128_s = 0, hopNetworkLl_s = 0;
  double treeHopNetworkSimple_s = 0, treeHopNetworkLl128_s = 0, treeHopNetworkLl_s = 0;  // level
  double nvls_s = 0;            // NVLS latency inside a node
  double nvlsRank_s = 0;        // NVLS per-message cost per further rank of the domain
  double collnetNetwork_s = 0;  // in-network (SHARP) reduction latency across nodes
};

/// The accelerator with catalog key `id` (section "gpus").
Result<GpuSpec> loadGpu(const Catalog& catalog, const std::string& id);
/// The system with catalog key `id`.
Result<SystemSpec> loadSystem(const Catalog& catalog, const std::string& id);
/// The interconnect or NIC with catalog key `id`.
Result<InterconnectSpec> loadInterconnect(const Catalog& catalog, const std::string& id);
/// The switch with catalog key `id`.
Result<SwitchSpec> loadSwitch(const Catalog& catalog, const std::string& id);
/// The model with catalog key `id`.
Result<ModelSpec> loadModel(const Catalog& catalog, const std::string& id);
/// The facility profile `id` (e.g. "default").
Result<FacilitySpec> loadFacility(const Catalog& catalog, const std::string& id = "default");
/// The cost profile `id` (e.g. "default").
Result<CostSpec> loadCost(const Catalog& catalog, const std::string& id = "default");
/// The calculator constants.
Result<RulesSpec> loadRules(const Catalog& catalog);
/// The collective model's constants for a scale-up switch: a figure of the switch's own entry
/// (collectives.<switch id>) when it has one, else the default entry's.
Result<CollectiveSpec> loadCollectives(const Catalog& catalog, const std::string& scaleUpSwitch);
/// The achieved-efficiency figures of accelerator `id` (its own entry, else the default's).
Result<DeviceEfficiency> loadEfficiency(const Catalog& catalog, const std::string& id);

/// Achieved matmul FLOP/s in `precision`: denseFlops x the measured GEMM share of that format.
double achievedGemmFlops(const GpuSpec& gpu, Precision precision);
/// Achieved fused-attention FLOP/s (attention runs in BF16): BF16 peak x the attention share.
double achievedAttentionFlops(const GpuSpec& gpu);
/// Achieved HBM streaming bandwidth: vendor bandwidth x the measured streaming share.
double achievedHbm_Bps(const GpuSpec& gpu);

/// The tensor-core format math in `precision` runs in on `gpu` (the same fallbacks as denseFlops).
Precision tensorFormat(const GpuSpec& gpu, Precision precision);
/// "" when `gpu` has a tensor peak of its own for math in `precision` (FP16 runs as BF16, FP32 as
/// TF32, INT8 on the FP8 datapath, INT4 on the FP4 one), else what the catalog lacks, naming the
/// field: "a100_sxm has no FP8 peak (gpus.a100_sxm.dense_fp8_flops)". Math the device has no
/// format for is refused, never priced at a wider format's peak.
std::string missingTensorFormat(const GpuSpec& gpu, Precision precision);
/// The GPU's HBM in bytes of DRAM: vendors' "GB" of HBM are GiB-sized (an H100's "80 GB" is five
/// 16 GiB stacks; nvidia-smi shows 81,559 of 81,920 MiB), so hbm_capacity_bytes is read as GiB.
/// The usable bytes a driver reports never exceed it.
double hbmDram_bytes(const GpuSpec& gpu);
/// "" when `sw` can switch the scale-out fabric and `nic` be its NIC, else the refusal naming
/// `switchField` or `nicField` and the part's catalog kind (an NVLink switch is no fabric switch).
std::string fabricPartsError(const SwitchSpec& sw, const std::string& switchField,
                             const InterconnectSpec& nic, const std::string& nicField);
/// Dense tensor peak for math in `precision`, FLOP/s; formats the device lacks fall back to the
/// next wider one it has (FP4 -> FP8 -> BF16; INT8 -> FP8 -> BF16; FP32 uses BF16/2 as TF32).
double denseFlops(const GpuSpec& gpu, Precision precision);
/// Per-device scale-up bandwidth, one direction: links x per-link rate (bytes/s).
double scaleUpPerDirection_Bps(const GpuSpec& gpu);
/// Per-device scale-up bandwidth as vendors quote it, both directions summed (bytes/s).
double scaleUpBidirectional_Bps(const GpuSpec& gpu);

/// Whether `model` is a mixture of experts.
inline bool isMoe(const ModelSpec& model) {
  return model.experts > 0;
}

}  // namespace sim
