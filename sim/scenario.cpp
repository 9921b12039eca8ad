#include "sim/scenario.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "sim/catalog.h"
#include "sim/domain.h"
#include "sim/field_table.h"
#include "sim/input_file.h"

namespace sim {
namespace {

using nlohmann::json;

using Field = FieldDef<ScenarioDesc>;

// A number field at the member chain `Path...` of a scenario.
template <auto... Path>
Field number(const char* path, Domain domain) {
  return numberField<ScenarioDesc, Path...>(path, domain);
}

// A text field at the member chain `Path...` of a scenario; `fromCatalog`: "" = the catalog's.
template <auto... Path>
Field text(const char* path, std::vector<std::string_view> choices = {}, bool fromCatalog = false) {
  Field f = textField<ScenarioDesc, Path...>(path, std::move(choices));
  f.fromCatalog = fromCatalog;
  return f;
}

// `f`, whose value (0 included) is what runs.
Field shownAsSet(Field f) {
  f.fromCatalog = false;
  return f;
}

using S = ScenarioDesc;
using namespace domains;

const std::vector<std::string_view> DTYPES = {"fp32", "bf16", "fp16", "fp8", "int8", "fp4", "int4"};

// Every field a scenario file or --set may name, with its domain (sim/domain.h). The ranges hold
// every real cluster and model with room to spare; docs/sim.md and docs/reliability.md list them.
const std::vector<Field>& fields() {
  static const std::vector<Field> table = {
      text<&S::name>("name"),
      text<&S::description>("description"),
      text<&S::cluster, &ClusterDesc::system>("cluster.system"),
      text<&S::cluster, &ClusterDesc::gpu>("cluster.gpu", {}, true),
      number<&S::cluster, &ClusterDesc::gpus>("cluster.gpus", GPUS),
      number<&S::cluster, &ClusterDesc::systemsPerRack>("cluster.systems_per_rack",
                                                        wholeNumbers(1, 1024)),
      number<&S::cluster, &ClusterDesc::domainGpus>("cluster.domain_gpus",
                                                    orZero(wholeNumbers(1, 1 << 16))),
      text<&S::cluster, &ClusterDesc::scaleOutNic>("cluster.scale_out_nic", {}, true),
      text<&S::cluster, &ClusterDesc::switchId>("cluster.switch"),
      number<&S::cluster, &ClusterDesc::switchRadix>("cluster.switch_radix",
                                                     orZero(wholeNumbers(4, 4096))),
      number<&S::cluster, &ClusterDesc::fabricTaper>("cluster.fabric_taper",
                                                     realNumbers(1, 64, "ratio")),
      text<&S::accelerator, &AcceleratorDesc::name>("accelerator.name"),
      number<&S::accelerator, &AcceleratorDesc::hbmBytes>("accelerator.hbm_bytes",
                                                          orZero(realNumbers(1e6, 1e15, "B"))),
      number<&S::accelerator, &AcceleratorDesc::hbmUsableBytes>(
          "accelerator.hbm_usable_bytes", orZero(realNumbers(1e6, 1e15, "B"))),
      number<&S::accelerator, &AcceleratorDesc::hbmBandwidth_Bps>(
          "accelerator.hbm_bandwidth_Bps", orZero(realNumbers(1e6, 1e16, "B/s"))),
      number<&S::accelerator, &AcceleratorDesc::denseBf16_flops>(
          "accelerator.dense_bf16_flops", orZero(realNumbers(1e9, 1e19, "FLOP/s"))),
      number<&S::accelerator, &AcceleratorDesc::denseFp8_flops>(
          "accelerator.dense_fp8_flops", orZero(realNumbers(1e9, 1e19, "FLOP/s"))),
      number<&S::accelerator, &AcceleratorDesc::denseFp4_flops>(
          "accelerator.dense_fp4_flops", orZero(realNumbers(1e9, 1e19, "FLOP/s"))),
      number<&S::accelerator, &AcceleratorDesc::tdp_W>("accelerator.tdp_W",
                                                       orZero(realNumbers(1, 1e5, "W"))),
      number<&S::accelerator, &AcceleratorDesc::scaleUpPerDirection_Bps>(
          "accelerator.scale_up_per_direction_Bps", orZero(realNumbers(1e6, 1e15, "B/s"))),
      number<&S::accelerator, &AcceleratorDesc::gemmFraction>(
          "accelerator.gemm_fraction", orZero(realNumbers(0.01, 1, "share"))),
      number<&S::accelerator, &AcceleratorDesc::hbmFraction>("accelerator.hbm_fraction",
                                                             orZero(realNumbers(0.01, 1, "share"))),
      number<&S::accelerator, &AcceleratorDesc::attentionFraction>(
          "accelerator.attention_fraction", orZero(realNumbers(0.01, 1, "share"))),
      text<&S::model, &ModelDesc::hfConfig>("model.hf_config"),
      number<&S::model, &ModelDesc::layers>("model.layers", orZero(LAYERS)),
      number<&S::model, &ModelDesc::hidden>("model.hidden", orZero(HIDDEN)),
      number<&S::model, &ModelDesc::heads>("model.heads", orZero(HEADS)),
      number<&S::model, &ModelDesc::kvHeads>("model.kv_heads", orZero(HEADS)),
      number<&S::model, &ModelDesc::headDim>("model.head_dim", orZero(HEAD_DIM)),
      number<&S::model, &ModelDesc::intermediate>("model.intermediate", orZero(INTERMEDIATE)),
      number<&S::model, &ModelDesc::vocab>("model.vocab", orZero(VOCAB)),
      number<&S::model, &ModelDesc::experts>("model.experts", EXPERTS),
      number<&S::model, &ModelDesc::expertsPerToken>("model.experts_per_token", EXPERTS),
      number<&S::model, &ModelDesc::contextTokens>("model.context_tokens", orZero(CONTEXT_TOKENS)),
      text<&S::workload, &WorkloadDesc::kind>("workload.kind", {"inference", "training"}),
      text<&S::workload, &WorkloadDesc::model>("workload.model"),
      text<&S::workload, &WorkloadDesc::weightsDtype>("workload.weights_dtype", DTYPES),
      text<&S::workload, &WorkloadDesc::kvDtype>("workload.kv_dtype", DTYPES),
      text<&S::workload, &WorkloadDesc::computeDtype>("workload.compute_dtype", DTYPES),
      // 0 = as many as fit: a batch set is the batch that runs.
      shownAsSet(number<&S::workload, &WorkloadDesc::batch>("workload.batch", orZero(BATCH))),
      number<&S::workload, &WorkloadDesc::promptTokens>("workload.prompt_tokens", REQUEST_TOKENS),
      number<&S::workload, &WorkloadDesc::outputTokens>("workload.output_tokens", REQUEST_TOKENS),
      text<&S::workload, &WorkloadDesc::batching>("workload.batching", {"continuous", "static"}),
      text<&S::workload, &WorkloadDesc::decodeAttention>("workload.decode_attention",
                                                         {"grouped", "per_query_head"}),
      number<&S::workload, &WorkloadDesc::requestRate_per_s>(
          "workload.request_rate_per_s", orZero(realNumbers(1e-6, 1e9, "requests/s"))),
      number<&S::workload, &WorkloadDesc::maxNumTokens>("workload.max_num_tokens",
                                                        orZero(wholeNumbers(1, 1e8, "tokens"))),
      number<&S::workload, &WorkloadDesc::memoryFraction>("workload.memory_fraction",
                                                          orZero(realNumbers(0.01, 1, "share"))),
      number<&S::workload, &WorkloadDesc::tp>("workload.tp", TP),
      number<&S::workload, &WorkloadDesc::cp>("workload.cp", CP),
      number<&S::workload, &WorkloadDesc::pp>("workload.pp", PP),
      number<&S::workload, &WorkloadDesc::dp>("workload.dp", DP),
      number<&S::workload, &WorkloadDesc::ep>("workload.ep", EP),
      number<&S::workload, &WorkloadDesc::zeroStage>("workload.zero_stage", ZERO_STAGE),
      number<&S::workload, &WorkloadDesc::microBatch>("workload.micro_batch", MICRO_BATCH),
      number<&S::workload, &WorkloadDesc::microBatches>("workload.micro_batches", MICRO_BATCHES),
      number<&S::workload, &WorkloadDesc::virtualStages>("workload.virtual_stages", VIRTUAL_STAGES),
      number<&S::workload, &WorkloadDesc::seqLen>("workload.seq_len", SEQ_LEN),
      text<&S::workload, &WorkloadDesc::activations>("workload.activations",
                                                     {"none", "tp", "tp_sp", "selective", "full"}),
      number<&S::workload, &WorkloadDesc::trainingTokens>("workload.training_tokens",
                                                          orZero(realNumbers(1, 1e16, "tokens"))),
      text<&S::collective, &CollectiveDesc::op>(
          "collective.op",
          {"all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "reduce"}),
      number<&S::collective, &CollectiveDesc::bytes>("collective.bytes", realNumbers(1, 1e15, "B")),
      // A collective needs two ranks: on one, nothing moves and busbw is 0 / 0.
      number<&S::collective, &CollectiveDesc::ranks>("collective.ranks",
                                                     orZero(wholeNumbers(2, 1 << 20))),
      number<&S::collective, &CollectiveDesc::alpha_s>("collective.alpha_s",
                                                       orZero(realNumbers(1e-9, 1, "s"))),
      number<&S::collective, &CollectiveDesc::bandwidth_Bps>("collective.bandwidth_Bps",
                                                             orZero(realNumbers(1e3, 1e15, "B/s"))),
      number<&S::collective, &CollectiveDesc::algBandwidth_Bps>(
          "collective.alg_bandwidth_Bps", orZero(realNumbers(1e3, 1e15, "B/s"))),
      text<&S::collective, &CollectiveDesc::algorithm>(
          "collective.algorithm", {"auto", "ring", "tree", "nvls", "nvls_tree", "collnet"}),
      text<&S::facility, &FacilityDesc::profile>("facility.profile"),
      number<&S::facility, &FacilityDesc::pue>("facility.pue", orZero(realNumbers(1, 10, "ratio"))),
      number<&S::facility, &FacilityDesc::powerBudget_W>("facility.power_budget_W",
                                                         orZero(realNumbers(1, 1e11, "W"))),
      number<&S::facility, &FacilityDesc::coolantDeltaT_K>("facility.coolant_delta_T_K",
                                                           orZero(realNumbers(0.1, 100, "K"))),
      number<&S::facility, &FacilityDesc::coolantDensity_kg_per_m3>(
          "facility.coolant_density_kg_per_m3", orZero(realNumbers(100, 3000, "kg/m^3"))),
      number<&S::facility, &FacilityDesc::electricity_usd_per_kWh>(
          "facility.electricity_usd_per_kWh", orZero(realNumbers(1e-4, 10, "usd/kWh"))),
      text<&S::cost, &CostDesc::profile>("cost.profile"),
      number<&S::cost, &CostDesc::gpuPrice_usd>("cost.gpu_price_usd",
                                                orZero(realNumbers(1, 1e8, "usd"))),
      number<&S::cost, &CostDesc::cloudInstancePerHour_usd>(
          "cost.cloud_instance_per_hour_usd", orZero(realNumbers(1e-3, 1e6, "usd/h"))),
      number<&S::cost, &CostDesc::gpusPerInstance>("cost.gpus_per_instance", wholeNumbers(1, 1024)),
      text<&S::cost, &CostDesc::compare>("cost.compare"),
  };
  return table;
}

const Field* findField(std::string_view path) {
  return sim::findField(fields(), path);
}

// Domain checks shared by files and --set; "" when the value is acceptable.
std::string checkNumber(const Field& f, double value) {
  std::string why = domainError(f.domain, value);
  return why.empty() ? why : std::string(f.path) + " " + why;
}

std::string checkText(const Field& f, const std::string& value) {
  if (f.choices.empty()) return "";
  if (std::find(f.choices.begin(), f.choices.end(), value) != f.choices.end()) return "";
  return std::string(f.path) + " must be one of " + joinChoices(f.choices, ", ") + " (got \"" +
         value + "\")";
}

// Assigns a JSON value to a field; "" on success, else a message without location.
std::string assignJson(ScenarioDesc& scenario, const Field& f, const json& value) {
  if (f.kind == FieldKind::Integer) {
    if (!value.is_number_integer()) return std::string(f.path) + " must be an integer";
    // As a double, so 2^63 and beyond are compared with the domain, not wrapped; every integer
    // field's maximum fits an int (a test holds the table to it).
    const double v = value.is_number_unsigned() ? static_cast<double>(value.get<uint64_t>())
                                                : static_cast<double>(value.get<int64_t>());
    std::string error = checkNumber(f, v);
    if (error.empty()) f.setNumber(scenario, v);
    return error;
  }
  if (f.kind == FieldKind::Number) {
    if (!value.is_number()) return std::string(f.path) + " must be a number";
    std::string error = checkNumber(f, value.get<double>());
    if (error.empty()) f.setNumber(scenario, value.get<double>());
    return error;
  }
  if (!value.is_string()) return std::string(f.path) + " must be a string";
  std::string error = checkText(f, value.get<std::string>());
  if (error.empty()) f.setText(scenario, value.get<std::string>());
  return error;
}

}  // namespace

Result<ScenarioDesc> parseScenario(const JsonFile& file) {
  if (!file.root.is_object()) {
    return Result<ScenarioDesc>::failure(file.path.string() +
                                         ":1: a scenario must be a JSON object");
  }
  ScenarioDesc scenario;
  for (const auto& [key, node] : file.root.items()) {
    const json::json_pointer pointer = json::json_pointer() / key;
    if (node.is_object()) {
      for (const auto& [field, value] : node.items()) {
        const std::string path = key + "." + field;
        const Field* def = findField(path);
        if (!def) {
          return Result<ScenarioDesc>::failure(file.where(pointer / field) +
                                               ": unknown scenario field \"" + path + "\"");
        }
        std::string error = assignJson(scenario, *def, value);
        if (!error.empty()) {
          return Result<ScenarioDesc>::failure(file.where(pointer / field) + ": " + error);
        }
      }
      continue;
    }
    const Field* def = findField(key);
    if (!def) {
      const bool isSection = std::any_of(fields().begin(), fields().end(), [&](const Field& f) {
        return std::string_view(f.path).starts_with(key + ".");
      });
      return Result<ScenarioDesc>::failure(
          file.where(pointer) + (isSection ? ": \"" + key + "\" must be an object"
                                           : ": unknown scenario field \"" + key + "\""));
    }
    std::string error = assignJson(scenario, *def, node);
    if (!error.empty()) return Result<ScenarioDesc>::failure(file.where(pointer) + ": " + error);
  }
  return scenario;
}

Result<ScenarioDesc> loadScenarioFile(const std::filesystem::path& path) {
  auto file = readJsonFile(path);
  if (!file) return Result<ScenarioDesc>::failure(file.error());
  auto scenario = parseScenario(*file);
  // A config.json named by a scenario file is found next to the file, wherever it is run from,
  // and stays in its folder as an asset's files stay in theirs: a scenario someone shares cannot
  // read (and echo) other files of the machine.
  if (scenario && !scenario->model.hfConfig.empty()) {
    std::error_code ec;
    const auto folder =
        std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec).parent_path(), ec);
    std::filesystem::path resolved;
    if (std::string why = confinedPathError(folder, scenario->model.hfConfig, &resolved);
        !why.empty()) {
      return Result<ScenarioDesc>::failure(
          file->where(nlohmann::json::json_pointer("/model/hf_config")) + ": " + why);
    }
    scenario->model.hfConfig = resolved.string();
  }
  return scenario;
}

Result<ScenarioDesc> loadScenario(const std::string& fileOrName) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(fileOrName, ec)) return loadScenarioFile(fileOrName);
  const bool plainName =
      !fileOrName.empty() && fileOrName.find_first_of("/\\.") == std::string::npos;
  if (plainName) {
    std::filesystem::path builtin = assetsDir() / "scenarios" / (fileOrName + ".json");
    if (std::filesystem::is_regular_file(builtin, ec)) return loadScenarioFile(builtin);
  }
  // Something else by that name (a directory, a FIFO, a device): refused for what it is.
  if (std::filesystem::exists(fileOrName, ec)) return loadScenarioFile(fileOrName);
  std::string known;
  for (const std::string& name : builtinScenarioNames()) {
    known += (known.empty() ? "" : ", ") + name;
  }
  return Result<ScenarioDesc>::failure(
      fileOrName + ": no such scenario file or built-in scenario (built-in: " + known + ")");
}

std::vector<std::string> builtinScenarioNames() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(assetsDir() / "scenarios", ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") {
      names.push_back(entry.path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

Result<bool> applyOverride(ScenarioDesc& scenario, std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return Result<bool>::failure("--set " + std::string(assignment) +
                                 ": expected path=value (e.g. workload.batch=32)");
  }
  const std::string path(assignment.substr(0, eq));
  const std::string text(assignment.substr(eq + 1));
  const std::string prefix = "--set " + path + ": ";
  const Field* def = findField(path);
  if (!def) {
    return Result<bool>::failure(prefix + "unknown scenario field \"" + path +
                                 "\" (see docs/sim.md for the settable paths)");
  }
  json value;
  if (def->kind == FieldKind::Text) {
    value = text;
  } else if (def->kind == FieldKind::Integer) {
    long long parsed = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (ec == std::errc::result_out_of_range && end == text.data() + text.size()) {
      return Result<bool>::failure(prefix + path + " must be an " + describeDomain(def->domain) +
                                   " (got \"" + text + "\")");
    }
    if (ec != std::errc() || end != text.data() + text.size()) {
      return Result<bool>::failure(prefix + path + " must be an integer (got \"" + text + "\")");
    }
    value = parsed;
  } else {
    char* end = nullptr;
    const double parsed = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) {
      return Result<bool>::failure(prefix + path + " must be a number (got \"" + text + "\")");
    }
    value = parsed;
  }
  ScenarioDesc candidate = scenario;
  std::string error = assignJson(candidate, *def, value);
  if (!error.empty()) return Result<bool>::failure(prefix + error);
  scenario = std::move(candidate);
  return true;
}

Result<bool> checkScenario(const ScenarioDesc& scenario) {
  for (const Field& f : fields()) {
    const std::string error = f.kind == FieldKind::Text ? checkText(f, f.text(scenario))
                                                        : checkNumber(f, f.number(scenario));
    if (!error.empty()) return Result<bool>::failure(error);
  }
  return true;
}

std::string scenarioFieldValue(const ScenarioDesc& scenario, std::string_view path) {
  const Field* f = findField(path);
  return f ? fieldText(*f, scenario) : "";
}

const sim::FieldDef<ScenarioDesc>* findScenarioField(std::string_view path) {
  return findField(path);
}

std::vector<ScenarioField> scenarioFields() {
  std::vector<ScenarioField> out;
  for (const Field& f : fields()) {
    out.push_back({f.path, f.kind, f.domain, {f.choices.begin(), f.choices.end()}});
  }
  return out;
}

std::vector<std::string> scenarioFieldPaths() {
  return fieldPaths(fields());
}

}  // namespace sim
