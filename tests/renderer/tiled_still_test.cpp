// Supersampled stills drawn in tiles (renderer::StillSpec): the tiles cover the frame exactly; a
// still drawn in small tiles at 1x is the untiled picture; supersampled, it keeps the picture's
// mean colour and framing but its hard edges gain intermediate values (anti-aliasing), and lines
// of constant pixel width keep their width in the picture's pixels.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "tests/renderer/fixtures.h"
#include "world/world.h"

namespace {

double srgbToLinear(int value) {
  const double c = value / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// The picture's mean of channel `ch` in linear light (what a box filter preserves).
double meanLinear(const renderer::Pixels& p, int ch) {
  double sum = 0;
  for (size_t i = 0; i < p.rgba.size(); i += 4) sum += srgbToLinear(p.rgba[i + ch]);
  return sum / double(p.rgba.size() / 4);
}

renderer::Pixels stationStill(renderer::Renderer& r, const std::string& name, VkExtent2D size,
                              const renderer::StillSpec& still) {
  auto dims = world::Dimensions::loadDefault();
  EXPECT_TRUE(dims.ok()) << dims.error();
  auto w = world::World::create(*dims, world::WorldDesc{});
  EXPECT_TRUE(w.ok()) << w.error();
  const world::Station* station = (*w)->station(name);
  EXPECT_NE(station, nullptr) << name;
  world::Camera camera;
  camera.setPose(world::toPose(station->viewpoint));
  world::RenderList list;
  (*w)->buildRenderList(camera, world::FrameDesc{size.width, size.height}, list);
  r.setMeshes((*w)->meshes());
  return r.renderToPixels(list, nullptr, size, still);
}

}  // namespace

// The tiles of 7680x4320 (a 3840x2160 still at 2x) in tiles of at most 2048: 4 columns (3 of
// 2048, one of 7680 - 3 * 2048 = 1536) by 3 rows (2048, 2048, 4320 - 2 * 2048 = 224).
TEST(StillTiles, CoverTheFrameOnceInWholePicturePixels) {
  const auto tiles = renderer::stillTiles({7680, 4320}, 2, 2048);
  ASSERT_EQ(tiles.size(), 12u);
  EXPECT_EQ(tiles[3].x, 6144u);
  EXPECT_EQ(tiles[3].width, 1536u);
  EXPECT_EQ(tiles[11].y, 4096u);
  EXPECT_EQ(tiles[11].height, 224u);
  for (uint32_t factor = 1; factor <= renderer::MAX_SUPERSAMPLE; ++factor) {
    const VkExtent2D frame{321 * factor, 97 * factor};
    std::vector<int> covered(size_t(frame.width) * frame.height, 0);
    for (const renderer::StillTile& t : renderer::stillTiles(frame, factor, 50)) {
      EXPECT_LE(std::max(t.width, t.height), 50u);
      EXPECT_EQ(t.x % 4, 0u);
      EXPECT_EQ(t.y % 4, 0u);
      EXPECT_EQ(t.x % factor + t.y % factor + t.width % factor + t.height % factor, 0u);
      for (uint32_t y = t.y; y < t.y + t.height; ++y)
        for (uint32_t x = t.x; x < t.x + t.width; ++x) ++covered[size_t(y) * frame.width + x];
    }
    EXPECT_EQ(std::count(covered.begin(), covered.end(), 1), std::ptrdiff_t(covered.size()))
        << "factor " << factor;
  }
}

// Pixels beside a tile edge of `tiles` (either side of it) in a picture of `size`.
bool besideTileEdge(uint32_t x, uint32_t y, uint32_t tile) {
  const auto beside = [&](uint32_t v) { return v % tile == 0 || v % tile == tile - 1; };
  return (x >= tile - 1 && beside(x)) || (y >= tile - 1 && beside(y));
}

// The rack station at 1x drawn in 15 tiles of at most 64 pixels (edge tiles 52 tall) against the
// same list drawn in one pass, at both presets (the high one: MSAA, shadows, bloom over the
// picture). Each tile's off-axis projection is the whole view's with another scale and shift, so
// a vertex may land an ulp away and the rasterizer's fixed-point snap can move a triangle edge
// across a pixel or sample centre: a few silhouette pixels may differ (0.25 % at most), and no
// more of them beside a tile edge than elsewhere (a seam would put them all there).
TEST(TiledStill, AtOneTimesIsTheUntiledPicture) {
  constexpr VkExtent2D SIZE{320, 180};
  constexpr uint32_t TILE = 64;
  for (renderer::Quality quality : {renderer::Quality::Low, renderer::Quality::High}) {
    auto r = fixtures::makeHeadless(false, quality);
    ASSERT_TRUE(r);
    const uint32_t before = vkutil::validationErrorCount();
    const renderer::Pixels whole = stationStill(*r, "rack", SIZE, {});
    renderer::StillSpec tiled;
    tiled.maxTilePixels = TILE;
    const renderer::Pixels tiles = stationStill(*r, "rack", SIZE, tiled);
    ASSERT_EQ(tiles.width, SIZE.width);
    ASSERT_EQ(tiles.height, SIZE.height);
    size_t differing = 0, differingBeside = 0, beside = 0;
    for (uint32_t y = 0; y < SIZE.height; ++y) {
      for (uint32_t x = 0; x < SIZE.width; ++x) {
        const bool edge = besideTileEdge(x, y, TILE);
        const bool differs = fixtures::pixelAt(whole, x, y) != fixtures::pixelAt(tiles, x, y);
        beside += edge;
        differing += differs;
        differingBeside += differs && edge;
      }
    }
    const double total = double(SIZE.width) * SIZE.height;
    const char* name = renderer::qualityName(quality);
    EXPECT_LE(double(differing), 0.0025 * total) << name << ": " << differing << " differ";
    // Beside the edges, at most 3 times the share of the picture they are (plus a few pixels).
    EXPECT_LE(double(differingBeside), 3.0 * double(differing) * double(beside) / total + 3.0)
        << name << ": " << differingBeside << " of " << differing << " beside a tile edge";
    EXPECT_EQ(vkutil::validationErrorCount(), before);
  }
}

// Box scenes (fixtures.h) at the low preset: one sample a pixel, so supersampling alone smooths.
class SupersampledBoxes : public ::testing::Test {
 protected:
  static constexpr VkExtent2D SIZE{256, 192};
  void SetUp() override {
    m_errorsBefore = vkutil::validationErrorCount();
    m_r = fixtures::makeHeadless(false, renderer::Quality::Low);
    ASSERT_TRUE(m_r);
    m_r->setMeshes(m_library);
  }
  void TearDown() override { EXPECT_EQ(vkutil::validationErrorCount(), m_errorsBefore); }
  /// A list with the camera the tests' positions assume (1 rad vertical field of view).
  static world::RenderList camera() {
    world::RenderList list;
    list.view.verticalFovRadians = 1.0f;
    list.view.nearMeters = 0.05f;
    return list;
  }
  renderer::Pixels still(const world::RenderList& list, uint32_t supersample) {
    renderer::StillSpec spec;
    spec.supersample = supersample;
    return m_r->renderToPixels(list, nullptr, SIZE, spec);
  }

  std::unique_ptr<renderer::Renderer> m_r;
  const world::MeshLibrary m_library = fixtures::boxLibrary();
  uint32_t m_errorsBefore = 0;
};

// A white, unlit square of 4 m facing the camera 8 m ahead, turned 20 degrees about the view
// axis, on black: at 1x each pixel is the square's or the background's; supersampled 2x (four
// samples a pixel, box-filtered), pixels along its edges take values between. Its area in the
// picture follows from the field of view, and the mean colour of both stills keeps it.
TEST_F(SupersampledBoxes, KeepTheMeanAndSoftenHardEdges) {
  world::RenderList list = camera();
  for (int k = 0; k < 3; ++k) list.view.skyTop[k] = list.view.skyHorizon[k] = 0.0f;
  const float turn = 20.0f * 3.14159265f / 180.0f, c = std::cos(turn), s = std::sin(turn);
  gpu::Instance square = fixtures::box(0, 0, -10, 4, 4, 4, 1, 1, 1);
  square.row0 = {4 * c, -4 * s, 0, 0};
  square.row1 = {4 * s, 4 * c, 0, 0};
  square.params = {1, 0, 0, 0};  // emissive: its own colour, unlit
  fixtures::addBatch(list, {square});

  const renderer::Pixels one = still(list, 1), two = still(list, 2);

  // The front face at 8 m: the picture's height spans 2 * tan(fov / 2) * 8 m.
  const double pxPerMeter = SIZE.height / (2.0 * std::tan(0.5) * 8.0);
  const double sidePx = 4.0 * pxPerMeter, total = double(SIZE.width) * SIZE.height;
  const double areaShare = sidePx * sidePx / total, perimeterPx = 4.0 * sidePx;
  const auto between = [](const renderer::Pixels& p) {
    size_t n = 0;
    for (size_t i = 0; i < p.rgba.size(); i += 4) n += p.rgba[i] > 16 && p.rgba[i] < 239;
    return n;
  };
  EXPECT_EQ(between(one), 0u);
  EXPECT_GE(double(between(two)), 0.5 * perimeterPx) << "perimeter " << perimeterPx << " px";
  // Mean in linear light: the square's share of the picture, within a tenth of its perimeter.
  for (const renderer::Pixels* p : {&one, &two}) {
    EXPECT_NEAR(meanLinear(*p, 0), areaShare, 0.1 * perimeterPx / total)
        << (p == &one ? "1x" : "2x");
  }
}

// Box edge lines are of constant width in the picture's pixels: supersampled they are drawn N
// target pixels wide, so after the box filter a grid of boxes darkens by its lines as much as at
// 1x (lines one target pixel wide would darken it half as much).
TEST_F(SupersampledBoxes, KeepEdgeLinesOfTheirWidthInPicturePixels) {
  const auto grid = [](float edgeStrength) {
    world::RenderList list = camera();
    list.view.ambient = 1.0f;  // fill only: each face one flat shade
    list.view.sunDirection[0] = 0, list.view.sunDirection[1] = 1, list.view.sunDirection[2] = 0;
    list.view.edgeStrength = edgeStrength;
    std::vector<gpu::Instance> boxes;
    for (int i = 0; i < 8; ++i) {
      for (int j = 0; j < 6; ++j) {
        gpu::Instance b =
            fixtures::box(-4.2f + 1.2f * i, -3.0f + 1.2f * j, -10, 1, 1, 1, 0.8f, 0.8f, 0.8f);
        b.params = {0, 0, 0, DETAIL_EDGES};
        boxes.push_back(b);
      }
    }
    fixtures::addBatch(list, boxes);
    list.batches.back().boxDetail = true;
    return list;
  };
  const world::RenderList plain = grid(0.0f), lined = grid(1.0f);
  const double plainMean = meanLinear(still(plain, 1), 1);
  const double lines1x = plainMean - meanLinear(still(lined, 1), 1);
  const double lines2x = plainMean - meanLinear(still(lined, 2), 1);
  ASSERT_GT(lines1x, 0.005) << "the lines darken the grid";
  EXPECT_NEAR(lines2x, lines1x, 0.2 * lines1x);
}
