#include "sim/scenario.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <variant>

#include "sim/catalog.h"

namespace sim {
namespace {

using nlohmann::json;

using FieldRef = std::variant<int*, double*, std::string*>;

constexpr double NO_MAXIMUM = 1e300;

struct FieldDef {
  const char* path;
  std::function<FieldRef(ScenarioDesc&)> ref;
  double minimum = 0;                       // numbers and integers
  std::vector<std::string_view> choices{};  // strings; empty = any
  double maximum = NO_MAXIMUM;              // numbers and integers
};

// A number field with a range (0 usually meaning "from the catalog").
FieldDef ranged(const char* path, std::function<FieldRef(ScenarioDesc&)> ref, double minimum,
                double maximum) {
  return {path, std::move(ref), minimum, {}, maximum};
}

const std::vector<FieldDef>& fields() {
  static const std::vector<FieldDef> table = {
      {"name", [](ScenarioDesc& s) -> FieldRef { return &s.name; }},
      {"description", [](ScenarioDesc& s) -> FieldRef { return &s.description; }},
      {"cluster.system", [](ScenarioDesc& s) -> FieldRef { return &s.cluster.system; }},
      {"cluster.gpu", [](ScenarioDesc& s) -> FieldRef { return &s.cluster.gpu; }},
      {"cluster.gpus", [](ScenarioDesc& s) -> FieldRef { return &s.cluster.gpus; }, 1},
      {"cluster.systems_per_rack",
       [](ScenarioDesc& s) -> FieldRef { return &s.cluster.systemsPerRack; }, 1},
      {"cluster.scale_out_nic", [](ScenarioDesc& s) -> FieldRef { return &s.cluster.scaleOutNic; }},
      {"cluster.switch", [](ScenarioDesc& s) -> FieldRef { return &s.cluster.switchId; }},
      ranged(
          "cluster.switch_radix",
          [](ScenarioDesc& s) -> FieldRef { return &s.cluster.switchRadix; }, 0, 4096),
      {"accelerator.name", [](ScenarioDesc& s) -> FieldRef { return &s.accelerator.name; }},
      ranged(
          "accelerator.hbm_bytes",
          [](ScenarioDesc& s) -> FieldRef { return &s.accelerator.hbmBytes; }, 0, 1e15),
      ranged(
          "accelerator.hbm_usable_bytes",
          [](ScenarioDesc& s) -> FieldRef { return &s.accelerator.hbmUsableBytes; }, 0, 1e15),
      ranged(
          "accelerator.hbm_bandwidth_Bps",
          [](ScenarioDesc& s) -> FieldRef { return &s.accelerator.hbmBandwidth_Bps; }, 0, 1e16),
      ranged(
          "accelerator.dense_bf16_flops",
          [](ScenarioDesc& s) -> FieldRef { return &s.accelerator.denseBf16_flops; }, 0, 1e19),
      ranged(
          "accelerator.dense_fp8_flops",
          [](ScenarioDesc& s) -> FieldRef { return &s.accelerator.denseFp8_flops; }, 0, 1e19),
      ranged(
          "accelerator.dense_fp4_flops",
          [](ScenarioDesc& s) -> FieldRef { return &s.accelerator.denseFp4_flops; }, 0, 1e19),
      ranged(
          "accelerator.tdp_W", [](ScenarioDesc& s) -> FieldRef { return &s.accelerator.tdp_W; }, 0,
          1e5),
      ranged(
          "accelerator.scale_up_per_direction_Bps",
          [](ScenarioDesc& s) -> FieldRef { return &s.accelerator.scaleUpPerDirection_Bps; }, 0,
          1e15),
      ranged(
          "accelerator.gemm_fraction",
          [](ScenarioDesc& s) -> FieldRef { return &s.accelerator.gemmFraction; }, 0, 1),
      ranged(
          "accelerator.hbm_fraction",
          [](ScenarioDesc& s) -> FieldRef { return &s.accelerator.hbmFraction; }, 0, 1),
      ranged(
          "accelerator.attention_fraction",
          [](ScenarioDesc& s) -> FieldRef { return &s.accelerator.attentionFraction; }, 0, 1),
      {"model.hf_config", [](ScenarioDesc& s) -> FieldRef { return &s.model.hfConfig; }},
      ranged(
          "model.layers", [](ScenarioDesc& s) -> FieldRef { return &s.model.layers; }, 0, 10000),
      ranged(
          "model.hidden", [](ScenarioDesc& s) -> FieldRef { return &s.model.hidden; }, 0, 1 << 20),
      ranged(
          "model.heads", [](ScenarioDesc& s) -> FieldRef { return &s.model.heads; }, 0, 1 << 16),
      ranged(
          "model.kv_heads", [](ScenarioDesc& s) -> FieldRef { return &s.model.kvHeads; }, 0,
          1 << 16),
      ranged(
          "model.head_dim", [](ScenarioDesc& s) -> FieldRef { return &s.model.headDim; }, 0,
          1 << 16),
      ranged(
          "model.intermediate", [](ScenarioDesc& s) -> FieldRef { return &s.model.intermediate; },
          0, 1 << 22),
      ranged(
          "model.vocab", [](ScenarioDesc& s) -> FieldRef { return &s.model.vocab; }, 0, 1 << 24),
      ranged(
          "model.experts", [](ScenarioDesc& s) -> FieldRef { return &s.model.experts; }, 0,
          1 << 16),
      ranged(
          "model.experts_per_token",
          [](ScenarioDesc& s) -> FieldRef { return &s.model.expertsPerToken; }, 0, 1 << 16),
      {"workload.kind",
       [](ScenarioDesc& s) -> FieldRef { return &s.workload.kind; },
       0,
       {"inference", "training"}},
      {"workload.model", [](ScenarioDesc& s) -> FieldRef { return &s.workload.model; }},
      {"workload.weights_dtype",
       [](ScenarioDesc& s) -> FieldRef { return &s.workload.weightsDtype; },
       0,
       {"fp32", "bf16", "fp16", "fp8", "int8", "fp4", "int4"}},
      {"workload.kv_dtype",
       [](ScenarioDesc& s) -> FieldRef { return &s.workload.kvDtype; },
       0,
       {"fp32", "bf16", "fp16", "fp8", "int8", "fp4", "int4"}},
      {"workload.compute_dtype",
       [](ScenarioDesc& s) -> FieldRef { return &s.workload.computeDtype; },
       0,
       {"fp32", "bf16", "fp16", "fp8", "int8", "fp4", "int4"}},
      ranged(
          "workload.batch", [](ScenarioDesc& s) -> FieldRef { return &s.workload.batch; }, 0,
          1 << 20),
      ranged(
          "workload.prompt_tokens",
          [](ScenarioDesc& s) -> FieldRef { return &s.workload.promptTokens; }, 1, 1e8),
      ranged(
          "workload.output_tokens",
          [](ScenarioDesc& s) -> FieldRef { return &s.workload.outputTokens; }, 1, 1e8),
      {"workload.batching",
       [](ScenarioDesc& s) -> FieldRef { return &s.workload.batching; },
       0,
       {"continuous", "static"}},
      ranged(
          "workload.request_rate_per_s",
          [](ScenarioDesc& s) -> FieldRef { return &s.workload.requestRate_per_s; }, 0, 1e9),
      ranged(
          "workload.max_num_tokens",
          [](ScenarioDesc& s) -> FieldRef { return &s.workload.maxNumTokens; }, 0, 1e8),
      ranged(
          "workload.memory_fraction",
          [](ScenarioDesc& s) -> FieldRef { return &s.workload.memoryFraction; }, 0, 1),
      {"workload.tp", [](ScenarioDesc& s) -> FieldRef { return &s.workload.tp; }, 1},
      ranged(
          "workload.cp", [](ScenarioDesc& s) -> FieldRef { return &s.workload.cp; }, 1, 4096),
      {"workload.pp", [](ScenarioDesc& s) -> FieldRef { return &s.workload.pp; }, 1},
      {"workload.dp", [](ScenarioDesc& s) -> FieldRef { return &s.workload.dp; }, 1},
      {"workload.ep", [](ScenarioDesc& s) -> FieldRef { return &s.workload.ep; }, 1},
      {"workload.zero_stage", [](ScenarioDesc& s) -> FieldRef { return &s.workload.zeroStage; }},
      {"workload.micro_batch", [](ScenarioDesc& s) -> FieldRef { return &s.workload.microBatch; },
       1},
      {"workload.micro_batches",
       [](ScenarioDesc& s) -> FieldRef { return &s.workload.microBatches; }, 1},
      {"workload.virtual_stages",
       [](ScenarioDesc& s) -> FieldRef { return &s.workload.virtualStages; }, 1},
      {"workload.seq_len", [](ScenarioDesc& s) -> FieldRef { return &s.workload.seqLen; }, 1},
      {"workload.activations",
       [](ScenarioDesc& s) -> FieldRef { return &s.workload.activations; },
       0,
       {"none", "tp", "tp_sp", "selective", "full"}},
      {"workload.training_tokens",
       [](ScenarioDesc& s) -> FieldRef { return &s.workload.trainingTokens; }},

      {"collective.op",
       [](ScenarioDesc& s) -> FieldRef { return &s.collective.op; },
       0,
       {"all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "reduce"}},
      {"collective.bytes", [](ScenarioDesc& s) -> FieldRef { return &s.collective.bytes; }, 1},
      {"collective.ranks", [](ScenarioDesc& s) -> FieldRef { return &s.collective.ranks; }},
      {"collective.alpha_s", [](ScenarioDesc& s) -> FieldRef { return &s.collective.alpha_s; }},
      {"collective.bandwidth_Bps",
       [](ScenarioDesc& s) -> FieldRef { return &s.collective.bandwidth_Bps; }},
      {"collective.alg_bandwidth_Bps",
       [](ScenarioDesc& s) -> FieldRef { return &s.collective.algBandwidth_Bps; }},
      {"collective.algorithm",
       [](ScenarioDesc& s) -> FieldRef { return &s.collective.algorithm; },
       0,
       {"auto", "ring", "tree", "nvls", "nvls_tree", "collnet"}},
      {"facility.profile", [](ScenarioDesc& s) -> FieldRef { return &s.facility.profile; }},
      {"facility.pue", [](ScenarioDesc& s) -> FieldRef { return &s.facility.pue; }},
      {"facility.power_budget_W",
       [](ScenarioDesc& s) -> FieldRef { return &s.facility.powerBudget_W; }},
      {"facility.coolant_delta_T_K",
       [](ScenarioDesc& s) -> FieldRef { return &s.facility.coolantDeltaT_K; }},
      {"facility.coolant_density_kg_per_m3",
       [](ScenarioDesc& s) -> FieldRef { return &s.facility.coolantDensity_kg_per_m3; }},
      {"facility.electricity_usd_per_kWh",
       [](ScenarioDesc& s) -> FieldRef { return &s.facility.electricity_usd_per_kWh; }},
      {"cost.profile", [](ScenarioDesc& s) -> FieldRef { return &s.cost.profile; }},
      {"cost.gpu_price_usd", [](ScenarioDesc& s) -> FieldRef { return &s.cost.gpuPrice_usd; }},
      {"cost.cloud_instance_per_hour_usd",
       [](ScenarioDesc& s) -> FieldRef { return &s.cost.cloudInstancePerHour_usd; }},
      {"cost.gpus_per_instance",
       [](ScenarioDesc& s) -> FieldRef { return &s.cost.gpusPerInstance; }, 1},
      {"cost.compare", [](ScenarioDesc& s) -> FieldRef { return &s.cost.compare; }},
  };
  return table;
}

const FieldDef* findField(std::string_view path) {
  for (const FieldDef& f : fields()) {
    if (path == f.path) return &f;
  }
  return nullptr;
}

std::string joinChoices(const std::vector<std::string_view>& choices) {
  std::string out;
  for (std::string_view c : choices) out += (out.empty() ? "" : ", ") + std::string(c);
  return out;
}

// Range and choice checks shared by files and --set; "" when the value is acceptable.
std::string numberText(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string checkNumber(const FieldDef& f, double value) {
  if (!std::isfinite(value)) return std::string(f.path) + " must be a finite number";
  if (value < f.minimum) return std::string(f.path) + " must be >= " + numberText(f.minimum);
  if (value > f.maximum) return std::string(f.path) + " must be <= " + numberText(f.maximum);
  return "";
}

std::string checkText(const FieldDef& f, const std::string& value) {
  if (f.choices.empty()) return "";
  if (std::find(f.choices.begin(), f.choices.end(), value) != f.choices.end()) return "";
  return std::string(f.path) + " must be one of " + joinChoices(f.choices) + " (got \"" + value +
         "\")";
}

// Assigns a JSON value to a field; "" on success, else a message without location.
std::string assignJson(ScenarioDesc& scenario, const FieldDef& f, const json& value) {
  FieldRef ref = f.ref(scenario);
  if (int** target = std::get_if<int*>(&ref)) {
    if (!value.is_number_integer() || value.get<long long>() < -(1ll << 31) ||
        value.get<long long>() > (1ll << 31) - 1) {
      return std::string(f.path) + " must be an integer";
    }
    std::string error = checkNumber(f, static_cast<double>(value.get<long long>()));
    if (error.empty()) **target = static_cast<int>(value.get<long long>());
    return error;
  }
  if (double** target = std::get_if<double*>(&ref)) {
    if (!value.is_number()) return std::string(f.path) + " must be a number";
    std::string error = checkNumber(f, value.get<double>());
    if (error.empty()) **target = value.get<double>();
    return error;
  }
  std::string** target = std::get_if<std::string*>(&ref);
  if (!value.is_string()) return std::string(f.path) + " must be a string";
  std::string error = checkText(f, value.get<std::string>());
  if (error.empty()) **target = value.get<std::string>();
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
        const FieldDef* def = findField(path);
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
    const FieldDef* def = findField(key);
    if (!def) {
      const bool isSection = std::any_of(fields().begin(), fields().end(), [&](const FieldDef& f) {
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
  // A config.json named by a scenario file is found next to the file, wherever it is run from.
  if (scenario && !scenario->model.hfConfig.empty() &&
      std::filesystem::path(scenario->model.hfConfig).is_relative()) {
    scenario->model.hfConfig = (path.parent_path() / scenario->model.hfConfig).string();
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
  const FieldDef* def = findField(path);
  if (!def) {
    return Result<bool>::failure(prefix + "unknown scenario field \"" + path +
                                 "\" (see docs/sim.md for the settable paths)");
  }
  json value;
  FieldRef ref = def->ref(scenario);
  if (std::holds_alternative<std::string*>(ref)) {
    value = text;
  } else if (std::holds_alternative<int*>(ref)) {
    long long parsed = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
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

std::vector<std::string> scenarioFieldPaths() {
  std::vector<std::string> paths;
  for (const FieldDef& f : fields()) paths.emplace_back(f.path);
  return paths;
}

}  // namespace sim
