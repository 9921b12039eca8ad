#include "sim/engine/request.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "sim/domain.h"
#include "sim/engine/fault_spec.h"
#include "sim/engine/scenarios.h"
#include "sim/precision.h"

namespace sim::engine {
namespace {

enum class FieldType { Int, Count, Number, Text, Precision, Flag, Workload };

// One settable field: where it lives in EngineDesc (one of the references, by type) and, for a
// number, its domain (sim/domain.h: the same mechanism and shared dimensions as the analytic
// scenario's fields, narrowed where the engine models less: 250 stages, EP up to 64, 4,096
// sequences per replica, arrivals a replica's queue can take).
struct Field {
  const char* path;
  FieldType type;
  void* (*ref)(EngineDesc&);
  Domain domain{};
};

using namespace sim::domains;

const std::vector<Field>& fields() {
  using T = FieldType;
  static const std::vector<Field> table = {
      {"workload.kind", T::Workload, [](EngineDesc& d) -> void* { return &d.workload.kind; }},
      {"workload.training.model", T::Text,
       [](EngineDesc& d) -> void* { return &d.workload.training.modelId; }},
      {"workload.training.precision", T::Precision,
       [](EngineDesc& d) -> void* { return &d.workload.training.precision; }},
      {"workload.training.tp", T::Int,
       [](EngineDesc& d) -> void* { return &d.workload.training.tp; }, TP},
      {"workload.training.pp", T::Int,
       [](EngineDesc& d) -> void* { return &d.workload.training.pp; }, wholeNumbers(1, 250)},
      {"workload.training.dp", T::Int,
       [](EngineDesc& d) -> void* { return &d.workload.training.dp; }, DP},
      {"workload.training.ep", T::Int,
       [](EngineDesc& d) -> void* { return &d.workload.training.ep; }, wholeNumbers(1, 64)},
      {"workload.training.zero_stage", T::Int,
       [](EngineDesc& d) -> void* { return &d.workload.training.zeroStage; }, ZERO_STAGE},
      {"workload.training.seq_len_tokens", T::Number,
       [](EngineDesc& d) -> void* { return &d.workload.training.seqLen_tokens; }, SEQ_LEN},
      {"workload.training.micro_batch", T::Int,
       [](EngineDesc& d) -> void* { return &d.workload.training.microBatch; }, MICRO_BATCH},
      {"workload.training.micro_batches", T::Int,
       [](EngineDesc& d) -> void* { return &d.workload.training.microBatches; }, MICRO_BATCHES},
      {"workload.training.virtual_stages", T::Int,
       [](EngineDesc& d) -> void* { return &d.workload.training.virtualStages; }, VIRTUAL_STAGES},
      {"workload.inference.model", T::Text,
       [](EngineDesc& d) -> void* { return &d.workload.inference.modelId; }},
      {"workload.inference.weights", T::Precision,
       [](EngineDesc& d) -> void* { return &d.workload.inference.weights; }},
      {"workload.inference.kv_cache", T::Precision,
       [](EngineDesc& d) -> void* { return &d.workload.inference.kvCache; }},
      {"workload.inference.math", T::Precision,
       [](EngineDesc& d) -> void* { return &d.workload.inference.math; }},
      {"workload.inference.tp", T::Int,
       [](EngineDesc& d) -> void* { return &d.workload.inference.tp; }, TP},
      {"workload.inference.replicas", T::Count,
       [](EngineDesc& d) -> void* { return &d.workload.inference.replicas; }, orZero(DP)},
      {"workload.inference.max_batch", T::Int,
       [](EngineDesc& d) -> void* { return &d.workload.inference.maxBatch; },
       wholeNumbers(1, 4096)},
      {"workload.inference.prompt_tokens", T::Number,
       [](EngineDesc& d) -> void* { return &d.workload.inference.promptTokens; }, REQUEST_TOKENS},
      {"workload.inference.output_tokens", T::Number,
       [](EngineDesc& d) -> void* { return &d.workload.inference.outputTokens; }, REQUEST_TOKENS},
      // Poisson arrivals are drawn per replica and step: beyond ~1e4/s a replica's queue of 256
      // overflows within a step anyway, and the draw's cost grows with the mean.
      {"workload.inference.arrival_rate_per_replica_per_s", T::Number,
       [](EngineDesc& d) -> void* { return &d.workload.inference.arrivalRatePerReplica_per_s; },
       orZero(realNumbers(1e-6, 1e4, "requests/s"))},
      {"cluster.system", T::Text, [](EngineDesc& d) -> void* { return &d.cluster.systemId; }},
      {"cluster.switch", T::Text, [](EngineDesc& d) -> void* { return &d.cluster.switchId; }},
      {"cluster.rail_optimized", T::Flag,
       [](EngineDesc& d) -> void* { return &d.cluster.railOptimized; }},
  };
  return table;
}

const Field* findField(std::string_view path) {
  for (const Field& f : fields())
    if (path == f.path) return &f;
  return nullptr;
}

// A number as --set spells it; "nan" and "inf" parse, so the domain (finite) refuses them.
bool parseNumber(std::string_view text, double& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// The number a numeric field holds.
double numberOf(const Field& f, EngineDesc& d) {
  void* p = f.ref(d);
  if (f.type == FieldType::Int) return *static_cast<int*>(p);
  if (f.type == FieldType::Count) return *static_cast<uint32_t*>(p);
  return *static_cast<double*>(p);
}

bool numeric(const Field& f) {
  return f.type == FieldType::Int || f.type == FieldType::Count || f.type == FieldType::Number;
}

// Sets `f` in `d` from `value`; an error says what the value must be.
std::string setField(const Field& f, EngineDesc& d, std::string_view value) {
  void* p = f.ref(d);
  switch (f.type) {
    case FieldType::Int:
    case FieldType::Count:
    case FieldType::Number: {
      double x = 0;
      if (!parseNumber(value, x)) return "must be a number";
      if (std::string why = domainError(f.domain, x); !why.empty()) {
        return why + " (" + describeDomain(f.domain) + ")";
      }
      if (f.type == FieldType::Int) *static_cast<int*>(p) = int(x);
      if (f.type == FieldType::Count) *static_cast<uint32_t*>(p) = uint32_t(x);
      if (f.type == FieldType::Number) *static_cast<double*>(p) = x;
      return "";
    }
    case FieldType::Text:
      if (value.empty()) return "must not be empty";
      *static_cast<std::string*>(p) = std::string(value);
      return "";
    case FieldType::Precision: {
      const auto precision = sim::parsePrecision(value);
      if (!precision) return "must be a precision (fp32, bf16, fp16, fp8, int8, fp4, int4)";
      *static_cast<sim::Precision*>(p) = *precision;
      return "";
    }
    case FieldType::Flag:
      if (value != "true" && value != "false") return "must be true or false";
      *static_cast<bool*>(p) = value == "true";
      return "";
    case FieldType::Workload:
      if (value != "training" && value != "inference") return "must be training or inference";
      *static_cast<WorkloadKind*>(p) =
          value == "training" ? WorkloadKind::Training : WorkloadKind::Inference;
      return "";
  }
  return "has an unknown type";
}

}  // namespace

std::string shortestText(double value) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof(text), value);
  return ec == std::errc() ? std::string(text, end) : std::string("?");
}

std::vector<EngineField> engineFields() {
  std::vector<EngineField> out;
  for (const Field& f : fields()) {
    if (numeric(f)) out.push_back({f.path, f.domain});
  }
  return out;
}

Result<bool> checkEngineDesc(const EngineDesc& desc) {
  EngineDesc copy = desc;  // the table's references are to a mutable description
  for (const Field& f : fields()) {
    if (!numeric(f)) continue;
    const double value = numberOf(f, copy);
    if (std::string why = domainError(f.domain, value); !why.empty()) {
      return Result<bool>::failure(std::string(f.path) + " = " + numberText(value) + " " + why +
                                   " (" + describeDomain(f.domain) + ")");
    }
  }
  return true;
}

std::vector<std::string> engineFieldPaths() {
  std::vector<std::string> paths;
  for (const Field& f : fields()) paths.emplace_back(f.path);
  return paths;
}

std::string engineFieldValue(const EngineDesc& desc, std::string_view path) {
  const Field* f = findField(path);
  if (!f) return "";
  EngineDesc copy = desc;  // the table's references are to a mutable description
  const void* p = f->ref(copy);
  switch (f->type) {
    case FieldType::Int:
      return std::to_string(*static_cast<const int*>(p));
    case FieldType::Count:
      return std::to_string(*static_cast<const uint32_t*>(p));
    case FieldType::Number:
      return shortestText(*static_cast<const double*>(p));
    case FieldType::Text:
      return *static_cast<const std::string*>(p);
    case FieldType::Precision:
      return std::string(sim::precisionName(*static_cast<const sim::Precision*>(p)));
    case FieldType::Flag:
      return *static_cast<const bool*>(p) ? "true" : "false";
    case FieldType::Workload:
      return *static_cast<const WorkloadKind*>(p) == WorkloadKind::Training ? "training"
                                                                            : "inference";
  }
  return "";
}

Result<bool> applyEngineOverride(EngineDesc& desc, std::string_view assignment) {
  std::string quoted(assignment);  // appended: GCC 12 warns falsely on "literal" + std::string
  quoted.insert(quoted.begin(), '"');
  quoted += "\": ";
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos) {
    return Result<bool>::failure(quoted + "expected path=value");
  }
  const std::string_view path = assignment.substr(0, eq);
  const Field* f = findField(path);
  if (!f) {
    std::string known;
    for (const Field& k : fields()) known += (known.empty() ? "" : ", ") + std::string(k.path);
    return Result<bool>::failure(quoted + "unknown field \"" + std::string(path) +
                                 "\" (fields: " + known + ")");
  }
  EngineDesc changed = desc;
  if (std::string why = setField(*f, changed, assignment.substr(eq + 1)); !why.empty()) {
    return Result<bool>::failure(quoted + std::string(path) + " " + why);
  }
  desc = std::move(changed);
  return true;
}

std::string faultSpecText(const FaultDesc& fault) {
  // Appended piece by piece: GCC 12 warns falsely on "literal" + std::string.
  std::string spec(faultKindName(fault.kind));
  spec += ':';
  spec += std::to_string(fault.target);
  spec += '@';
  spec += shortestText(fault.start_s);
  if (std::isfinite(fault.end_s)) {
    spec += '-';
    spec += shortestText(fault.end_s);
  }
  if (fault.severity > 0) {
    spec += ",severity=";
    spec += shortestText(fault.severity);
  }
  if (fault.deadlock) spec += ",deadlock";
  return spec;
}

Result<std::vector<FaultDesc>> injectFault(std::vector<FaultDesc> faults, FaultKind kind,
                                           uint32_t target, double severity, double now_s) {
  using R = Result<std::vector<FaultDesc>>;
  FaultDesc wanted;
  wanted.kind = kind;
  wanted.target = target;
  wanted.start_s = now_s;
  wanted.severity = severity;
  auto parsed = parseFaultSpec(faultSpecText(wanted));
  if (!parsed) return R::failure(parsed.error());
  faults.push_back(*parsed);
  return faults;
}

Result<std::vector<FaultDesc>> clearFault(std::vector<FaultDesc> faults, size_t index,
                                          double now_s) {
  using R = Result<std::vector<FaultDesc>>;
  if (index >= faults.size()) {
    return R::failure("no fault " + std::to_string(index) + " to clear (" +
                      std::to_string(faults.size()) + " injected)");
  }
  if (faults[index].start_s >= now_s) {
    faults.erase(faults.begin() + std::ptrdiff_t(index));
  } else {
    faults[index].end_s = std::min(faults[index].end_s, now_s);
  }
  return faults;
}

Result<EngineDesc> engineDescOf(const EngineRequest& request) {
  auto desc = builtinScenario(request.scenario);
  if (!desc) return desc;
  for (const std::string& assignment : request.overrides) {
    if (auto applied = applyEngineOverride(*desc, assignment); !applied) {
      return Result<EngineDesc>::failure(applied.error());
    }
  }
  for (const FaultDesc& f : request.faults) desc->faults.push_back(f);
  return desc;
}

namespace {

// The conversion itself (engineDescFromScenario checks both ends).
Result<EngineDesc> convertScenario(const ScenarioDesc& s) {
  using R = Result<EngineDesc>;
  if (!s.model.hfConfig.empty() || s.model.layers > 0) {
    return R::failure("model: the time engine runs catalog models (workload.model)");
  }
  if (s.accelerator != AcceleratorDesc{}) {  // any accelerator.* field, e.g. a tdp_W
    return R::failure("accelerator: the time engine runs catalog GPUs (cluster.gpu)");
  }
  if (!s.cluster.gpu.empty()) {
    return R::failure("cluster.gpu: the time engine runs the system's own GPU (cluster.system)");
  }
  EngineDesc d;
  d.cluster.systemId = s.cluster.system;  // the analytic and engine ClusterDescs differ
  d.cluster.switchId = s.cluster.switchId;
  d.cluster.nicId = s.cluster.scaleOutNic;
  d.cluster.facilityProfile = s.facility.profile;
  d.cluster.facilityPower_W = s.facility.powerBudget_W;
  d.cluster.fabricGpus = static_cast<uint32_t>(s.cluster.gpus);
  const sim::WorkloadDesc& w = s.workload;
  if (w.kind == "training") {
    d.workload.kind = WorkloadKind::Training;
    TrainingDesc& t = d.workload.training;
    t.modelId = w.model;
    t.precision = *parsePrecision(w.computeDtype);
    t.tp = w.tp;
    t.cp = w.cp;
    t.pp = w.pp;
    t.dp = w.dp;
    t.ep = w.ep;
    t.zeroStage = w.zeroStage;
    t.seqLen_tokens = w.seqLen;
    t.microBatch = w.microBatch;
    t.microBatches = w.microBatches;
    t.virtualStages = w.virtualStages;
    t.activations = w.activations;
    return d;
  }
  d.workload.kind = WorkloadKind::Inference;
  InferenceDesc& i = d.workload.inference;
  i.modelId = w.model;
  i.weights = *parsePrecision(w.weightsDtype);
  i.kvCache = *parsePrecision(w.kvDtype);
  i.math = *parsePrecision(w.computeDtype);
  i.tp = w.tp;
  i.replicas = static_cast<uint32_t>(w.dp);
  i.promptTokens = w.promptTokens;
  i.outputTokens = w.outputTokens;
  if (w.batch > 0) i.maxBatch = w.batch;
  if (w.requestRate_per_s > 0) i.arrivalRatePerReplica_per_s = w.requestRate_per_s;
  return d;
}

}  // namespace

Result<EngineDesc> engineDescFromScenario(const ScenarioDesc& s) {
  using R = Result<EngineDesc>;
  if (auto valid = checkScenario(s); !valid) return R::failure(valid.error());
  auto desc = convertScenario(s);
  if (!desc) return desc;
  // The engine models less than the calculators (250 stages, 1e4 arrivals/s per replica ...).
  if (auto valid = checkEngineDesc(*desc); !valid) {
    return R::failure("the time engine's " + valid.error());
  }
  return desc;
}

}  // namespace sim::engine
