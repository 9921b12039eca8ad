#include "world/build/asset_overrides.h"

#include <algorithm>

#include "sim/json_checker.h"
#include "world/build/builders.h"

namespace world {
namespace {

using Models = std::vector<ComponentModel>;

class OverrideParser : sim::JsonChecker {
 public:
  OverrideParser(const sim::JsonFile& file, const GltfLimits& limits)
      : JsonChecker(file), m_limits(limits) {}

  sim::Result<Models> run() {
    Models models;
    const Pointer root;
    if (!m_file.root.is_object()) return fail(root, "an asset override file is a JSON object");
    if (!onlyFields(root, {"overrides"})) return error();
    const Json* list = field(root / "overrides", Json::value_t::array, "an array");
    if (!list) return error();
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
      const bool repeated = std::any_of(models.begin(), models.end(), [&](const ComponentModel& m) {
        return m.component == entry.component;
      });
      if (repeated) return fail(at / "component", entry.component + " is overridden twice");
      const std::filesystem::path model = m_file.path.parent_path() / modelPath;
      auto imported = importGltf(model, m_limits);
      if (!imported) return fail(at / "model", imported.error());
      if (imported->instances.empty() || imported->bounds.empty()) {
        return fail(at / "model", model.string() + ": the model places no geometry");
      }
      entry.model = std::make_shared<const ImportedModel>(std::move(*imported));
      models.push_back(std::move(entry));
    }
    return models;
  }

 private:
  sim::Result<Models> fail(const Pointer& at, const std::string& message) {
    flag(at, message);
    return error();
  }
  sim::Result<Models> error() const { return sim::Result<Models>::failure(m_error); }

  const GltfLimits& m_limits;
};

}  // namespace

sim::Result<Models> loadAssetOverrides(const std::filesystem::path& file,
                                       const GltfLimits& limits) {
  auto json = sim::readJsonFile(file);
  if (!json) return sim::Result<Models>::failure(json.error());
  return OverrideParser(*json, limits).run();
}

}  // namespace world
