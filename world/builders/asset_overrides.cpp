#include "world/builders/asset_overrides.h"

#include <algorithm>
#include <map>

#include "sim/input_file.h"
#include "sim/json_checker.h"
#include "world/builders/builders.h"

namespace world {
namespace {

// 4194304 -> "4,194,304".
std::string grouped(uint64_t value) {
  std::string digits = std::to_string(value), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

uint64_t left(uint64_t cap, uint64_t used) {
  return used >= cap ? 0 : cap - used;
}

class OverrideParser : sim::JsonChecker {
 public:
  OverrideParser(const sim::JsonFile& file, const AssetBudget& budget)
      : JsonChecker(file), m_budget(budget) {}

  sim::Result<AssetOverrides> run() {
    AssetOverrides out;
    const Pointer root;
    if (!m_file.root.is_object()) return fail(root, "an asset override file is a JSON object");
    if (!onlyFields(root, {"overrides"})) return error();
    const Json* list = field(root / "overrides", Json::value_t::array, "an array");
    if (!list) return error();
    std::error_code ec;
    const std::filesystem::path folder =
        std::filesystem::canonical(std::filesystem::absolute(m_file.path).parent_path(), ec);
    if (ec) return fail(root, "cannot resolve the file's folder: " + ec.message());
    // Each model file once, by its resolved path: one model may serve several components.
    std::map<std::filesystem::path, std::shared_ptr<const ImportedModel>> loaded;
    for (size_t i = 0; i < list->size(); ++i) {
      const Pointer at = root / "overrides" / i;
      if (!field(at, Json::value_t::object, "an object") || !onlyFields(at, {"component", "model"}))
        return error();
      ComponentModel entry;
      std::string modelPath;
      if (!text(at / "component", entry.component) || !text(at / "model", modelPath))
        return error();
      const std::vector<std::string> known = componentKeys();
      if (!sim::contains(known, entry.component)) {
        return fail(at / "component", "no built-in component called \"" + entry.component +
                                          "\"; known: " + sim::joined(known));
      }
      const bool repeated =
          std::any_of(out.models.begin(), out.models.end(),
                      [&](const ComponentModel& m) { return m.component == entry.component; });
      if (repeated) return fail(at / "component", entry.component + " is overridden twice");
      std::filesystem::path model;
      if (!confined(at / "model", folder, modelPath, model)) return error();
      auto& shared = loaded[model];
      if (!shared) {
        auto imported = importGltf(model, importLimits(m_budget, out.cost));
        if (!imported) {
          // The importer's caps were what the models above left of the budget: say so.
          const bool shared = out.cost.triangles || out.cost.vertices || out.cost.texels;
          return fail(
              at / "model",
              imported.error() +
                  (shared ? " (the override models share " + grouped(m_budget.maxTriangles) +
                                " triangles, " + grouped(m_budget.maxVertices) + " vertices and " +
                                grouped(m_budget.maxTexels) + " texels; the models above use " +
                                grouped(out.cost.triangles) + ", " + grouped(out.cost.vertices) +
                                " and " + grouped(out.cost.texels) + ")"
                          : ""));
        }
        if (imported->instances.empty() || imported->bounds.empty())
          return fail(at / "model", model.string() + ": the model places no geometry");
        ModelCost total = out.cost;
        total += modelCost(*imported);
        if (std::string over = overBudget(total, m_budget); !over.empty())
          return fail(at / "model",
                      model.string() + ": the override models together would " + "hold " + over);
        out.cost = total;
        shared = std::make_shared<const ImportedModel>(std::move(*imported));
      }
      entry.model = shared;
      out.models.push_back(std::move(entry));
    }
    return out;
  }

 private:
  sim::Result<AssetOverrides> fail(const Pointer& at, const std::string& message) {
    flag(at, message);
    return error();
  }
  sim::Result<AssetOverrides> error() const {
    return sim::Result<AssetOverrides>::failure(m_error);
  }

  // A model path stays in the override file's folder, as a glTF file's own URIs stay in its:
  // relative, no "..", and no symbolic link that leads out.
  bool confined(const Pointer& at, const std::filesystem::path& folder, const std::string& path,
                std::filesystem::path& out) {
    if (std::string why = sim::confinedPathError(folder, path, &out); !why.empty())
      return flag(at, why);
    return true;
  }

  const AssetBudget& m_budget;
};

}  // namespace

std::string overBudget(const ModelCost& cost, const AssetBudget& budget) {
  auto over = [](uint64_t have, uint64_t cap, const char* what) {
    return grouped(have) + " " + what + ", more than the " + grouped(cap) + " allowed";
  };
  if (cost.triangles > budget.maxTriangles)
    return over(cost.triangles, budget.maxTriangles, "triangles");
  if (cost.vertices > budget.maxVertices)
    return over(cost.vertices, budget.maxVertices, "vertices");
  if (cost.texels > budget.maxTexels) return over(cost.texels, budget.maxTexels, "texels");
  if (cost.bytes > budget.maxBytes) return over(cost.bytes, budget.maxBytes, "bytes");
  return "";
}

GltfLimits importLimits(const AssetBudget& budget, const ModelCost& used) {
  GltfLimits limits;
  limits.maxTotalTriangles =
      std::min(limits.maxTotalTriangles, left(budget.maxTriangles, used.triangles));
  limits.maxTotalVertices =
      std::min(limits.maxTotalVertices, left(budget.maxVertices, used.vertices));
  limits.maxTotalTexels = std::min(limits.maxTotalTexels, left(budget.maxTexels, used.texels));
  return limits;
}

sim::Result<ImportedModel> importWithinBudget(const std::filesystem::path& file,
                                              const AssetBudget& budget) {
  auto model = importGltf(file, importLimits(budget));
  if (!model) return model;
  if (std::string over = overBudget(modelCost(*model), budget); !over.empty())
    return sim::Result<ImportedModel>::failure(file.string() + ": the model would hold " + over);
  return model;
}

sim::Result<AssetOverrides> loadAssetOverrides(const std::filesystem::path& file,
                                               const AssetBudget& budget) {
  auto json = sim::readJsonFile(file);
  if (!json) return sim::Result<AssetOverrides>::failure(json.error());
  return OverrideParser(*json, budget).run();
}

}  // namespace world
