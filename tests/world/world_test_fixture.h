// One world for all world tests (building it takes a moment): default campus, at the origin.
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/scenarios.h"
#include "tests/common/shipped_catalog.h"
#include "world/builders/builders.h"
#include "world/world.h"

namespace worldtest {

inline const world::Dimensions& dims() {
  static const world::Dimensions d = [] {
    auto loaded = world::Dimensions::loadDefault();
    if (!loaded) {
      ADD_FAILURE() << loaded.error();
      std::abort();
    }
    return *loaded;
  }();
  return d;
}

inline world::World& defaultWorld() {
  static std::unique_ptr<world::World> w = [] {
    auto created = world::World::create(dims());
    if (!created) {
      ADD_FAILURE() << created.error();
      std::abort();
    }
    return std::move(*created);
  }();
  return *w;
}

/// An empty scene with the primitive meshes, to build one prototype into from the catalog.
struct Built {
  world::MeshLibrary meshes;
  world::Scene scene;
  world::PrimitiveMeshes primitives;
  Built() { primitives = world::registerPrimitives(meshes); }
  world::BuildContext ctx() { return world::BuildContext{scene, primitives, dims(), meshes}; }
};

/// A world of its own, for a test that changes it (engine-driven looks, shadow casting).
inline std::unique_ptr<world::World> freshWorld() {
  auto created = world::World::create(dims());
  EXPECT_TRUE(created.ok()) << created.error();
  return created.ok() ? std::move(*created) : nullptr;
}

/// A fresh engine running built-in scenario `name` on the shipped catalog.
inline std::unique_ptr<sim::engine::Engine> engineFor(const std::string& name) {
  const sim::Catalog* catalog = &testcatalog::shipped();
  auto desc = sim::engine::builtinScenario(name);
  EXPECT_TRUE(desc) << desc.error();
  auto engine = sim::engine::Engine::create(*catalog, *desc);
  EXPECT_TRUE(engine) << engine.error();
  return std::move(*engine);
}

/// A camera at a station's viewpoint.
inline world::Camera cameraAt(const world::Station& s) {
  world::Camera camera;
  camera.setPose(world::toPose(s.viewpoint));
  return camera;
}

/// The default world's station `name` (a test failure if it has none).
inline const world::Station& station(const char* name) {
  const world::Station* s = defaultWorld().station(name);
  if (!s) {
    ADD_FAILURE() << "no station " << name;
    std::abort();
  }
  return *s;
}

/// What a ray straight down from `from` (world metres) first meets in the default world, of what
/// `filter`'s studio draws (nullptr: everything).
inline world::PickHit hitBelow(const glm::dvec3& from, const world::StudioFilter* filter) {
  const auto hit = defaultWorld().scene().pick(from, glm::dvec3(0, -1, 0), filter);
  EXPECT_TRUE(hit.has_value());
  return hit.value_or(world::PickHit{});
}

/// What a station's frames draw (World::buildRenderList's filter).
inline world::StudioFilter studioOf(const world::Station& s) {
  world::StudioFilter f;
  for (size_t start = 0; start <= s.studioPath.size();) {
    const size_t end = std::min(s.studioPath.find('/', start), s.studioPath.size());
    f.path.push_back(s.studioPath.substr(start, end - start));
    start = end + 1;
  }
  f.neighbours = s.neighbours;
  f.standIns = s.standIns;
  return f;
}

}  // namespace worldtest
