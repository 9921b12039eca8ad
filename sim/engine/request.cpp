#include "sim/engine/request.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "sim/domain.h"
#include "sim/engine/fault_spec.h"
#include "sim/engine/scenarios.h"
#include "sim/field_table.h"
#include "sim/precision.h"

namespace sim::engine {
namespace {

using Field = FieldDef<EngineDesc>;
using E = EngineDesc;
using namespace sim::domains;

// A numeric field at the member chain `Path...` of EngineDesc.
template <auto... Path>
Field number(const char* path, Domain domain) {
  return numberField<E, Path...>(path, domain);
}

// A text field (any non-empty text) at the member chain `Path...` of EngineDesc.
template <auto... Path>
Field text(const char* path) {
  return textField<E, Path...>(path);
}

// A precision field at the member chain `Path...` (names as sim/precision.h reads them).
template <auto... Path>
Field precision(const char* path) {
  Field f{path, FieldKind::Text, {}, {"fp32", "bf16", "fp16", "fp8", "int8", "fp4", "int4"}};
  f.choiceNoun = "precision";
  f.text = [](const E& d) { return std::string(precisionName(memberAt<Path...>(d))); };
  f.setText = [](E& d, std::string_view v) {
    const auto parsed = parsePrecision(v);
    if (parsed) memberAt<Path...>(d) = *parsed;
    return parsed.has_value();
  };
  return f;
}

constexpr auto WL = &E::workload;
using W = WorkloadDesc;
using Tr = TrainingDesc;
using In = InferenceDesc;

// Every settable field of EngineDesc; a number's domain is sim/domain.h's (the same mechanism and
// shared dimensions as the analytic scenario's fields), narrowed where the engine models less:
// 250 stages, EP up to 64, 4,096 sequences per replica, arrivals a replica's queue can take.
const std::vector<Field>& fields() {
  static const std::vector<Field> table = [] {
    Field kind{"workload.kind", FieldKind::Text, {}, {"training", "inference"}};
    kind.text = [](const E& d) {
      return std::string(d.workload.kind == WorkloadKind::Training ? "training" : "inference");
    };
    kind.setText = [](E& d, std::string_view v) {
      if (v != "training" && v != "inference") return false;
      d.workload.kind = v == "training" ? WorkloadKind::Training : WorkloadKind::Inference;
      return true;
    };
    Field rail{"cluster.rail_optimized", FieldKind::Text, {}, {"true", "false"}};
    rail.text = [](const E& d) { return std::string(d.cluster.railOptimized ? "true" : "false"); };
    rail.setText = [](E& d, std::string_view v) {
      if (v != "true" && v != "false") return false;
      d.cluster.railOptimized = v == "true";
      return true;
    };
    return std::vector<Field>{
        kind,
        text<WL, &W::training, &Tr::modelId>("workload.training.model"),
        precision<WL, &W::training, &Tr::precision>("workload.training.precision"),
        number<WL, &W::training, &Tr::tp>("workload.training.tp", TP),
        number<WL, &W::training, &Tr::pp>("workload.training.pp", wholeNumbers(1, 250)),
        number<WL, &W::training, &Tr::dp>("workload.training.dp", DP),
        number<WL, &W::training, &Tr::ep>("workload.training.ep", wholeNumbers(1, 64)),
        number<WL, &W::training, &Tr::zeroStage>("workload.training.zero_stage", ZERO_STAGE),
        number<WL, &W::training, &Tr::seqLen_tokens>("workload.training.seq_len_tokens", SEQ_LEN),
        number<WL, &W::training, &Tr::microBatch>("workload.training.micro_batch", MICRO_BATCH),
        number<WL, &W::training, &Tr::microBatches>("workload.training.micro_batches",
                                                    MICRO_BATCHES),
        number<WL, &W::training, &Tr::virtualStages>("workload.training.virtual_stages",
                                                     VIRTUAL_STAGES),
        text<WL, &W::inference, &In::modelId>("workload.inference.model"),
        precision<WL, &W::inference, &In::weights>("workload.inference.weights"),
        precision<WL, &W::inference, &In::kvCache>("workload.inference.kv_cache"),
        precision<WL, &W::inference, &In::math>("workload.inference.math"),
        number<WL, &W::inference, &In::tp>("workload.inference.tp", TP),
        number<WL, &W::inference, &In::replicas>("workload.inference.replicas", orZero(DP)),
        number<WL, &W::inference, &In::maxBatch>("workload.inference.max_batch",
                                                 wholeNumbers(1, 4096)),
        number<WL, &W::inference, &In::promptTokens>("workload.inference.prompt_tokens",
                                                     REQUEST_TOKENS),
        number<WL, &W::inference, &In::outputTokens>("workload.inference.output_tokens",
                                                     REQUEST_TOKENS),
        // Poisson arrivals are drawn per replica and step: beyond ~1e4/s a replica's queue of
        // 256 overflows within a step anyway, and the draw's cost grows with the mean.
        number<WL, &W::inference, &In::arrivalRatePerReplica_per_s>(
            "workload.inference.arrival_rate_per_replica_per_s",
            orZero(realNumbers(1e-6, 1e4, "requests/s"))),
        text<&E::cluster, &ClusterDesc::systemId>("cluster.system"),
        text<&E::cluster, &ClusterDesc::switchId>("cluster.switch"),
        rail,
    };
  }();
  return table;
}

// A number as --set spells it; "nan" and "inf" parse, so the domain (finite) refuses them.
bool parseNumber(std::string_view text, double& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// Sets `f` in `d` from `value`; an error says what the value must be.
std::string setField(const Field& f, EngineDesc& d, std::string_view value) {
  if (f.kind != FieldKind::Text) {
    double x = 0;
    if (!parseNumber(value, x)) return "must be a number";
    if (std::string why = domainError(f.domain, x); !why.empty()) {
      return why + " (" + describeDomain(f.domain) + ")";
    }
    f.setNumber(d, x);
    return "";
  }
  if (f.choices.empty() && value.empty()) return "must not be empty";
  if (f.setText(d, value)) return "";
  if (f.choiceNoun) {
    return std::string("must be a ") + f.choiceNoun + " (" + joinChoices(f.choices, ", ") + ")";
  }
  return "must be " + joinChoices(f.choices, " or ");
}

}  // namespace

std::vector<EngineField> engineFields() {
  std::vector<EngineField> out;
  for (const Field& f : fields()) {
    if (f.kind != FieldKind::Text) out.push_back({f.path, f.domain});
  }
  return out;
}

Result<bool> checkEngineDesc(const EngineDesc& desc) {
  for (const Field& f : fields()) {
    if (f.kind == FieldKind::Text) continue;
    const double value = f.number(desc);
    if (std::string why = domainError(f.domain, value); !why.empty()) {
      return Result<bool>::failure(std::string(f.path) + " = " + numberText(value) + " " + why +
                                   " (" + describeDomain(f.domain) + ")");
    }
  }
  return true;
}

std::vector<std::string> engineFieldPaths() {
  return fieldPaths(fields());
}

std::string engineFieldValue(const EngineDesc& desc, std::string_view path) {
  const Field* f = findField(fields(), path);
  return f ? fieldText(*f, desc) : "";
}

std::vector<std::string> engineFieldChoices(std::string_view path) {
  const Field* f = findField(fields(), path);
  if (!f) return {};
  return {f->choices.begin(), f->choices.end()};
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
  const Field* f = findField(fields(), path);
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
  if (s.workload.decodeAttention != "grouped") {
    return R::failure("workload.decode_attention: the time engine runs grouped decode attention");
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
