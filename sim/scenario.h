// Scenarios: one workload on one cluster, as JSON (assets/scenarios/*.json). Every field has a
// default here; a file sets any subset, `--set path=value` overrides any field by its dotted path
// with type checking. Unknown fields and wrong types fail with file:line (JSON pointer) or with
// the --set path. A number field of 0 means "take it from the catalog" where the comment says so.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sim/domain.h"
#include "sim/field_table.h"
#include "sim/json_file.h"
#include "sim/result.h"

namespace sim {

struct ClusterDesc {
  std::string system = "dgx_h100";  // catalog systems.<id>
  std::string gpu;                  // catalog gpus.<id>; "" = the system's GPU
  int gpus = 8;                     // GPUs in the cluster
  int systemsPerRack = 1;
  int domainGpus = 0;  // GPUs of one NVLink domain (a partition of the system's); 0 = the system's
  std::string scaleOutNic;                   // catalog interconnects.<id>; "" = the system's NIC
  std::string switchId = "quantum2_qm9700";  // catalog switches.<id> ("cluster.switch")
  int switchRadix = 0;                       // fabric switch ports; 0 = the switch's own
  double fabricTaper = 1;  // leaf down-ports : up-ports (1 = non-blocking, 2 = 2:1 tapered)
};

/// An accelerator given by its figures; each non-zero field replaces the catalog GPU's value.
struct AcceleratorDesc {
  std::string name;
  double hbmBytes = 0;        // marketed capacity
  double hbmUsableBytes = 0;  // what the driver reports
  double hbmBandwidth_Bps = 0;
  double denseBf16_flops = 0;
  double denseFp8_flops = 0;
  double denseFp4_flops = 0;
  double tdp_W = 0;
  double scaleUpPerDirection_Bps = 0;  // all links of one device, one direction
  double gemmFraction = 0;             // achieved matmul share (every format)
  double hbmFraction = 0;              // achieved streaming share
  double attentionFraction = 0;        // achieved fused-attention share

  bool operator==(const AcceleratorDesc&) const = default;
};

/// A model given by its dimensions or a Hugging Face config.json instead of a catalog id.
struct ModelDesc {
  std::string hfConfig;  // path to a config.json; "" = none
  int layers = 0;        // > 0: the dimensions below define the model
  int hidden = 0;
  int heads = 0;
  int kvHeads = 0;  // 0 = heads
  int headDim = 0;  // 0 = hidden / heads
  int intermediate = 0;
  int vocab = 0;
  int experts = 0;
  int expertsPerToken = 0;
  int contextTokens = 0;  // the longest sequence it takes; 0 = unknown (not checked)
};

struct WorkloadDesc {
  std::string kind = "inference";      // "inference" or "training"
  std::string model = "llama3_1_70b";  // catalog models.<id>
  std::string weightsDtype = "bf16";
  std::string kvDtype = "bf16";
  std::string computeDtype = "bf16";
  int batch = 1;               // requests decoding together (inference); 0 = as many as fit
  double promptTokens = 2048;  // prefill length per request (ISL)
  double outputTokens = 256;   // generated tokens per request (OSL)
  std::string batching = "continuous";  // continuous (in-flight) or static
  // How a decode step reads the KV cache: "grouped" (each KV head once for its GQA group, as
  // today's kernels do) or "per_query_head" (each query head reads its KV head: TensorRT-LLM's
  // masked multi-head attention before XQA).
  std::string decodeAttention = "grouped";
  double requestRate_per_s = 0;  // > 0: open-loop arrivals per replica instead of a fixed batch
  double maxNumTokens = 0;       // tokens one iteration may schedule; 0 = rules
  double memoryFraction = 0;     // of the usable HBM the serving engine takes; 0 = rules
  int tp = 1;
  int cp = 1;  // context parallel (ring attention), training
  int pp = 1;
  int dp = 1;
  int ep = 1;
  int zeroStage = 0;                      // 0..3
  int microBatch = 1;                     // sequences per micro-batch (training)
  int microBatches = 1;                   // micro-batches per pipeline flush
  int virtualStages = 1;                  // interleaved 1F1B chunks per device
  double seqLen = 4096;                   // training sequence length
  std::string activations = "selective";  // none, tp, tp_sp, selective, full
  double trainingTokens = 0;              // 0 = the model's catalogued training tokens
};

struct CollectiveDesc {
  std::string op = "all_reduce";   // all_reduce, all_gather, reduce_scatter, all_to_all, ...
  double bytes = 1073741824;       // per-rank buffer (AllReduce) or whole array (AG/RS), 1 GiB
  int ranks = 0;                   // 0 = GPUs in one scale-up domain (capped by cluster.gpus)
  double alpha_s = 0;              // 0 = the scale-up interconnect's latency
  double bandwidth_Bps = 0;        // per rank, one direction; 0 = the GPU's scale-up egress
  double algBandwidth_Bps = 0;     // a measured algbw to convert to busbw; 0 = the modelled one
  std::string algorithm = "auto";  // auto (NCCL-like choice), ring, tree, nvls, nvls_tree, collnet
};

struct FacilityDesc {
  std::string profile = "default";      // catalog facility.<id>
  double pue = 0;                       // 0 = profile
  double powerBudget_W = 0;             // 0 = profile
  double coolantDeltaT_K = 0;           // 0 = profile
  double coolantDensity_kg_per_m3 = 0;  // 0 = profile
  double electricity_usd_per_kWh = 0;   // 0 = profile
};

struct CostDesc {
  std::string profile = "default";      // catalog costs.<id>
  double gpuPrice_usd = 0;              // 0 = the GPU's catalogued price
  double cloudInstancePerHour_usd = 0;  // 0 = none given
  int gpusPerInstance = 8;
  std::string compare = "h100_sxm,h200,b200,mi300x";  // GPUs for the side-by-side comparison
};

struct ScenarioDesc {
  std::string name;
  std::string description;
  ClusterDesc cluster;
  AcceleratorDesc accelerator;
  ModelDesc model;
  WorkloadDesc workload;
  CollectiveDesc collective;
  FacilityDesc facility;
  CostDesc cost;
};

/// Parses a scenario document; unknown fields and wrong types fail naming file:line (pointer).
Result<ScenarioDesc> parseScenario(const JsonFile& file);
/// Reads and parses a scenario file.
Result<ScenarioDesc> loadScenarioFile(const std::filesystem::path& path);
/// A scenario by file path or by built-in name (assets/scenarios/<name>.json).
Result<ScenarioDesc> loadScenario(const std::string& fileOrName);
/// Names of the built-in scenarios, sorted.
std::vector<std::string> builtinScenarioNames();

/// Applies one "path=value" override (e.g. "workload.batch=32"). Fails, naming the path, when the
/// path is unknown or the value has the wrong type; the scenario is unchanged on failure.
Result<bool> applyOverride(ScenarioDesc& scenario, std::string_view assignment);
/// Every field of `scenario` checked against its domain or choices, as a file or --set would be
/// (for scenarios built in code); fails naming the first field outside.
Result<bool> checkScenario(const ScenarioDesc& scenario);
/// The value of field `path` of `scenario` as the text --set takes; "" for an unknown path.
std::string scenarioFieldValue(const ScenarioDesc& scenario, std::string_view path);
/// Every settable dotted path, in documentation order.
std::vector<std::string> scenarioFieldPaths();

/// A settable field as the parser knows it: its path, its type, the domain of a number (every
/// number field has one) and the choices of a text field (empty = any text).
struct ScenarioField {
  std::string path;
  FieldKind kind;
  Domain domain;
  std::vector<std::string> choices;
};
/// Every field, in documentation order: the table the parser and --set look paths up in.
std::vector<ScenarioField> scenarioFields();
/// The field at `path` of the same table (its reader, writer and whether its 0 or "" stands for
/// the catalog's value), or nullptr.
const FieldDef<ScenarioDesc>* findScenarioField(std::string_view path);

}  // namespace sim
