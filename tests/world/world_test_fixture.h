// One world for all world tests (building it takes a moment): default campus, at the origin.
#pragma once

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/scenarios.h"
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

/// A world of its own, for a test that changes it (engine-driven looks, shadow casting).
inline std::unique_ptr<world::World> freshWorld() {
  auto created = world::World::create(dims());
  EXPECT_TRUE(created.ok()) << created.error();
  return created.ok() ? std::move(*created) : nullptr;
}

/// A fresh engine running built-in scenario `name` on the shipped catalog.
inline std::unique_ptr<sim::engine::Engine> engineFor(const std::string& name) {
  static const auto catalog = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
  EXPECT_TRUE(catalog) << catalog.error();
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

}  // namespace worldtest
