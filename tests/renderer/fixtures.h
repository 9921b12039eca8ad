// Small scenes for renderer tests, built directly as render lists (no world builders): boxes at
// camera-relative positions, a camera looking down -Z.
#pragma once

#include <array>
#include <cmath>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "renderer/renderer.h"
#include "renderer/vk/validation.h"
#include "world/scene/mesh_primitives.h"

namespace fixtures {

/// An axis-aligned box instance: centre relative to the camera and size, metres.
inline gpu::Instance box(float cx, float cy, float cz, float sx, float sy, float sz, float r,
                         float g, float b) {
  gpu::Instance inst{};
  inst.row0 = {sx, 0, 0, cx};
  inst.row1 = {0, sy, 0, cy};
  inst.row2 = {0, 0, sz, cz};
  inst.color = {r, g, b, 1};
  inst.params = {0, 0.2f, 0, 0};
  return inst;
}

/// A headless renderer with validation on; fails the test when none can be made. Low quality
/// unless asked: goldens are single-sampled, unshadowed and unbloomed on every device.
inline std::unique_ptr<renderer::Renderer> makeHeadless(
    bool ui = false, renderer::Quality quality = renderer::Quality::Low) {
  renderer::RendererDesc desc;
  desc.validation = true;
  desc.ui = ui;
  desc.quality = quality;
  std::string error;
  auto r = renderer::Renderer::create(desc, error);
  EXPECT_TRUE(r) << error;
  return r;
}

/// The mesh library of the tests: the world's unit box (mesh 0).
inline world::MeshLibrary boxLibrary() {
  world::MeshLibrary library;
  world::MeshId id;
  library.add(world::makeUnitBox(), &id);
  return library;
}

/// Appends one batch of `instances` drawn with mesh 0.
inline void addBatch(world::RenderList& list, const std::vector<gpu::Instance>& instances) {
  world::DrawBatch batch;
  batch.mesh = world::MeshId{0};
  batch.firstInstance = static_cast<uint32_t>(list.instances.size());
  batch.instanceCount = static_cast<uint32_t>(instances.size());
  list.instances.insert(list.instances.end(), instances.begin(), instances.end());
  list.batches.push_back(batch);
}

/// A headless renderer holding the unit box library; any validation error fails the test.
class HeadlessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_renderer = makeHeadless();
    ASSERT_TRUE(m_renderer);
    m_library = boxLibrary();
    m_renderer->setMeshes(m_library);
    m_errorsBefore = vkutil::validationErrorCount();
  }
  void TearDown() override { EXPECT_EQ(vkutil::validationErrorCount(), m_errorsBefore); }
  std::unique_ptr<renderer::Renderer> m_renderer;
  world::MeshLibrary m_library;
  uint32_t m_errorsBefore = 0;
};

/// Reads one pixel (RGBA) of a readback.
inline std::array<int, 4> pixelAt(const renderer::Pixels& p, uint32_t x, uint32_t y) {
  const uint8_t* px = &p.rgba[(size_t(y) * p.width + x) * 4];
  return {px[0], px[1], px[2], px[3]};
}

}  // namespace fixtures
