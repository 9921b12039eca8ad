// The hero HBM stack filled layer by layer (world/live/hbm_fill.h): one layer per DRAM die of the
// catalog, each the colour of the memory-bar segment at its middle, all red over capacity.
#include <string>

#include <gtest/gtest.h>

#include "tests/world/world_test_fixture.h"
#include "world/live/hbm_fill.h"

namespace {

world::HbmStack heroStack() {
  const world::World& w = worldtest::defaultWorld();
  const world::Station* hbm = w.station("hbm");
  EXPECT_NE(hbm, nullptr);
  return world::HbmStack::build(w.scene(), hbm->path);  // the station frames the stack
}

TEST(HbmFill, OneLayerPerCatalogDramDie) {
  EXPECT_EQ(heroStack().layers(), size_t(worldtest::dims().count("hbm3e_stack.dram_die_count")));
}

TEST(HbmFill, LayersFillBottomUpWithTheSegmentAtTheirMiddle) {
  const world::HbmStack stack = heroStack();
  const size_t n = stack.layers();
  ASSERT_GE(n, 8u);
  // 80 GB: weights 17.6 GB, KV 3.36 GB, activations 3.53 GB (the 70B-on-H100 panel).
  const world::HbmFill fill{{17.6e9, 3.36e9, 3.53e9}, 80e9};
  for (size_t i = 0; i < n; ++i) {
    const double middle = (double(i) + 0.5) / double(n) * 80e9;
    int expected = -1;
    if (middle < 17.6e9) {
      expected = 0;
    } else if (middle < 17.6e9 + 3.36e9) {
      expected = 1;
    } else if (middle < 17.6e9 + 3.36e9 + 3.53e9) {
      expected = 2;
    }
    EXPECT_EQ(stack.layerSegment(fill, i), expected) << "layer " << i;
  }
  std::vector<gpu::Instance> out;
  stack.emit(fill, glm::dvec3(0.0), out);
  size_t filled = 0, skins = 0;  // a skin over each box of a filled die
  for (size_t i = 0; i < n; ++i) {
    filled += stack.layerSegment(fill, i) >= 0 ? 1 : 0;
    skins += stack.layerSegment(fill, i) >= 0 ? stack.boxes(i) : 0;
  }
  EXPECT_EQ(out.size(), skins);
  EXPECT_GT(filled, 0u);
  EXPECT_LT(filled, n);
}

TEST(HbmFill, OverCapacityTurnsEveryLayerRed) {
  const world::HbmStack stack = heroStack();
  const world::HbmFill fill{{70e9, 12e9}, 80e9};
  std::vector<gpu::Instance> out;
  stack.emit(fill, glm::dvec3(0.0), out);
  // Every layer's boxes, the spill on top in the top die's shape (a box per box of it, so a cut
  // die keeps its cut) and the pool round the foot.
  size_t skins = 0;
  for (size_t i = 0; i < stack.layers(); ++i) skins += stack.boxes(i);
  ASSERT_EQ(out.size(), skins + stack.boxes(stack.layers() - 1) + 1);
  for (const gpu::Instance& inst : out) {
    EXPECT_GT(inst.color.x, 0.8f);
    EXPECT_LT(inst.color.y, 0.1f);
    EXPECT_GT(inst.params.x, 0.5f);  // glowing
  }
  // 82 GB in 80 GB: 2.5 % over, so the spill stands 2.5 % of the stack's DRAM height.
  EXPECT_NEAR(world::HbmStack::overflowShare(fill), 82.0 / 80.0 - 1.0, 1e-12);
  const gpu::Instance& spill = out[skins];
  const double spillHeight = glm::length(glm::dvec3(spill.row0.y, spill.row1.y, spill.row2.y));
  double dramTop = -1e300, dramBottom = 1e300;
  for (size_t i = 0; i < skins; ++i) {
    const gpu::Instance& layer = out[i];
    const double h = 0.5 / 0.9 * glm::length(glm::dvec3(layer.row0.y, layer.row1.y, layer.row2.y));
    dramTop = std::max(dramTop, double(layer.row1.w) + h);
    dramBottom = std::min(dramBottom, double(layer.row1.w) - h);
  }
  EXPECT_NEAR(spillHeight, 0.025 * (dramTop - dramBottom), 0.002 * (dramTop - dramBottom));
  EXPECT_EQ(world::HbmStack::overflowShare({{70e9}, 80e9}), 0.0);  // fits: no spill
}

TEST(HbmFill, SegmentColoursFollowThePanelsPalette) {
  // The bar draws segment k of n in viridis at (k + 0.5) / n; the stack uses the same, made
  // linear: distinct colours, darkest first.
  const world::Look a = world::HbmStack::segmentLook(0, 3);
  const world::Look b = world::HbmStack::segmentLook(2, 3);
  EXPECT_LT(a.r + a.g + a.b, b.r + b.g + b.b);
}

}  // namespace
