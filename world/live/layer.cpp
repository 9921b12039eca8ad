#include "world/live/layer.h"

namespace world {

const Station* LayerSources::station(std::string_view name) const {
  for (const Station& s : stations) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const HeroGpu* LayerSources::stationGpu() const {
  const Station* package = station("package");
  if (!package) return nullptr;
  const glm::dvec3 c = package->bounds.center();
  const HeroGpu* found = nullptr;
  for (const HeroGpu& gpu : heroGpus) {
    if (glm::all(glm::greaterThanEqual(c, gpu.bounds.min)) &&
        glm::all(glm::lessThanEqual(c, gpu.bounds.max))) {
      found = &gpu;
    }
  }
  return found;
}

Label makeLabel(const glm::dvec3& anchor, std::string text, float priority) {
  Label label;
  for (int k = 0; k < 3; ++k) label.anchor[k] = static_cast<float>(anchor[k]);
  label.text = std::move(text);
  label.priority = priority;
  return label;
}

glm::dvec3 labelPoint(const Aabb& box) {
  return {box.center().x, box.max.y, box.center().z};
}

void PlacedLabelsLayer::labels(const LayerFrame& frame, std::vector<Label>& out) const {
  if (!frame.liveLabels) return;
  for (const auto& [at, text] : m_placed) {
    if (!text.empty()) out.push_back(makeLabel(at - frame.view.eye, text, LabelRank::EVENT));
  }
}

void LiveLayers::sync(const LayerSync& sync) {
  for (Entry& e : m_layers) e.layer->sync(sync);
}

void LiveLayers::emit(const LayerSet& on, const LayerFrame& frame,
                      std::vector<gpu::Instance>& out) {
  for (Entry& e : m_layers) {
    if (drawn(e, on)) e.layer->emit(frame, out);
  }
}

void LiveLayers::labels(const LayerSet& on, const LayerFrame& frame,
                        std::vector<Label>& out) const {
  for (const Entry& e : m_layers) {
    if (drawn(e, on)) e.layer->labels(frame, out);
  }
}

}  // namespace world
