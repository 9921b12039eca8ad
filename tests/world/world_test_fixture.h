// One world for all world tests (building it takes a moment): default campus, at the origin.
#pragma once

#include <memory>

#include <gtest/gtest.h>

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

/// A camera at a station's viewpoint.
inline world::Camera cameraAt(const world::Station& s) {
  world::Camera camera;
  camera.setPose(world::toPose(s.viewpoint));
  return camera;
}

}  // namespace worldtest
