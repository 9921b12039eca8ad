// Every station's still is a hero in a studio (issue 17, "done means": at every station the hero
// covers most of the frame and nothing of the enclosing level shows behind it unless the shot is
// about it). Each still is drawn a second time as an object mask: the same render list, the
// same fog, every instance in a flat unlit colour by what it is and the backdrop black. Hero:
// an instance that lies within the station's own bounds (what its viewpoint frames: the hero's
// subtree, with a twin or a stand-in drawing it is framed with). Studio: the rest of the station's
// studio subtree (the package a die sits in). Beyond: everything else the frame draws (neighbouring
// racks and rows, the hall, the campus). A pixel counts as what it shows when the fog leaves at
// least half of it; what the fog swallows is backdrop, as it is in the still.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "renderer/image_io.h"
#include "tests/renderer/fixtures.h"
#include "tests/renderer/golden.h"
#include "tests/renderer/session_world.h"
#include "world/builders/builders.h"
#include "world/world.h"

namespace {

constexpr VkExtent2D SIZE{1280, 720};

// What a station's shot is about, declared per station with its reason. Object stations are
// product shots of one thing: issue 17 asks that it "covers most of the frame", read as at least
// half of the rectangle its own shape can fill in a --clean still (Mask::fill; the still has no
// panel, and the tour's view of a station shifts the hero into the part its panel leaves free),
// and that nothing of the level around it shows: at most 2 % of the frame, the slivers a 3/4
// view may catch. An object in its context is shown with what it works with (the HBM stack
// beside the die it feeds, visual brief "hbm"): that context may show, nothing beyond it.
// Surroundings stations are about where the hero stands: their studio keeps its neighbours on
// purpose, so only the coverage is held, to a lower share, since the neighbours share the frame
// (the campus: one hall with its yards and substation, the other halls behind it).
enum class Shot { Object, InContext, Surroundings };

struct Kind {
  Shot shot;
  const char* reason;
};

const std::map<std::string, Kind>& kinds() {
  static const std::map<std::string, Kind> table = {
      {"sm", {Shot::Object, "one SM, the unit the GPU repeats"}},
      {"die", {Shot::Object, "the die framed with its twin: the NV-HBI seam between them"}},
      {"hbm", {Shot::InContext, "the stack beside the GPU die it feeds, on the interposer"}},
      {"package", {Shot::Object, "the package, not the tray it sits in"}},
      {"tray", {Shot::Object, "the tray pulled out of its rack"}},
      {"rack", {Shot::Object, "one rack, full height, neighbours gone"}},
      {"rack_back", {Shot::Object, "the back of that rack"}},
      {"fabric", {Shot::Surroundings, "the spine and its trunk to every row: what it joins"}},
      {"row", {Shot::Surroundings, "a scalable unit is one row among the hall's rows"}},
      {"hall", {Shot::Surroundings, "a hall among the campus's halls"}},
      {"cooling", {Shot::Surroundings, "the plant beside the hall it cools"}},
      {"campus",
       {Shot::Surroundings, "one hall, its yards and the substation; the other halls behind"}},
      {"tpu", {Shot::Object, "the TPU chip off its board"}},
      {"xeon_amx", {Shot::Object, "one Xeon core off its tile"}},
      {"gh100", {Shot::Object, "the H100 package off the gallery table"}},
  };
  return table;
}

const char* shotName(Shot shot) {
  switch (shot) {
    case Shot::Object:
      return "object";
    case Shot::InContext:
      return "in context";
    case Shot::Surroundings:
      return "surroundings";
  }
  return "?";
}

constexpr double MIN_OBJECT_COVERAGE = 0.50;
constexpr double MAX_OBJECT_LEAK = 0.02;
// An object in its context shares the frame with it by design (the die beside the stack): it
// is held to a surroundings shot's subject's quarter of what it could fill alone (its balance
// with the context is its station's own test).
constexpr double MIN_IN_CONTEXT_COVERAGE = 0.25;
// A surroundings shot still has a subject: the hero row, hall or plant at least a quarter of it.
constexpr double MIN_SURROUNDINGS_COVERAGE = 0.25;

// Flat mask colours (linear, so the sRGB target writes them as 255 in one channel).
constexpr gpu::vec4 HERO{1, 0, 0, 1}, STUDIO{0, 1, 0, 1}, BEYOND{0, 0, 1, 1};

struct Mask {
  double hero = 0, studio = 0, beyond = 0;  // shares of the frame's pixels
  // The hero's share of the largest rectangle of its own on-screen proportions (its pixels'
  // bounding rectangle) that fits the frame: what "most of the frame" can mean for a standing
  // rack, whose full height in a 16:9 frame leaves three quarters of the width to the backdrop.
  double fill = 0;
  renderer::Pixels image;
};

double srgbToLinear(uint8_t v) {
  const double c = v / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// Whether the instance's mesh bounds under its transform (camera-relative) lie within `box`.
bool within(const gpu::Instance& inst, const world::Aabb& mesh, const world::Aabb& box) {
  const gpu::vec4 rows[3] = {inst.row0, inst.row1, inst.row2};
  for (int i = 0; i < 8; ++i) {
    const double p[3] = {(i & 1) ? mesh.max.x : mesh.min.x, (i & 2) ? mesh.max.y : mesh.min.y,
                         (i & 4) ? mesh.max.z : mesh.min.z};
    for (int axis = 0; axis < 3; ++axis) {
      const gpu::vec4& r = rows[axis];
      const double v = r.x * p[0] + r.y * p[1] + r.z * p[2] + r.w;
      if (v < box.min[axis] || v > box.max[axis]) return false;
    }
  }
  return true;
}

// What a mask tells apart, in world boxes: red what lies within `hero` (nullptr: the station's
// framed bounds); green what lies within `context`, or, without one, the rest of the studio.
struct MaskBoxes {
  const world::Aabb* hero = nullptr;
  const world::Aabb* context = nullptr;
};

// `box` camera-relative, a little larger than float rounding.
world::Aabb cameraRelative(world::Aabb box, const world::Camera& camera) {
  const glm::dvec3 slack = 1e-4 * box.size() + glm::dvec3(1e-7);
  box.min += slack * -1.0 - camera.position();
  box.max += slack - camera.position();
  return box;
}

// The mask of `station`'s still seen from `pose`, lit as the studio `studio` (the still's own:
// the station's name).
Mask maskOf(renderer::Renderer& r, world::World& w, const world::Station& station,
            const world::OrbitPose& pose, const std::string& studio, MaskBoxes boxes = {}) {
  world::Camera camera;
  camera.setPose(world::toPose(pose));
  world::FrameDesc frame{SIZE.width, SIZE.height};
  frame.studio = studio;
  // The studio's subtree marked as selected (gpu::Instance params.z): selection changes no LOD.
  frame.selectedPath = station.studioPath;
  world::RenderList list;
  w.buildRenderList(camera, frame, list);
  // The hero's bounds: what the view frames (with a twin or a stand-in drawing framed with it).
  const world::Aabb hero = cameraRelative(boxes.hero ? *boxes.hero : station.framedBounds, camera);
  const world::Aabb context =
      boxes.context ? cameraRelative(*boxes.context, camera) : world::Aabb{};
  for (const world::DrawBatch& batch : list.batches) {
    const world::Aabb& mesh = w.scene().meshBounds(batch.mesh);
    for (uint32_t i = batch.firstInstance; i < batch.firstInstance + batch.instanceCount; ++i) {
      gpu::Instance& inst = list.instances[i];
      const bool inStudio = boxes.context ? within(inst, mesh, context) : inst.params.z > 0.5f;
      inst.color = within(inst, mesh, hero) ? HERO : inStudio ? STUDIO : BEYOND;
      inst.params = {1, 0, 0, 0};  // fully emissive: its flat colour, no light, no edge lines
      inst.glow = {0, 0, 0, 0};
    }
  }
  world::ViewParams& view = list.view;
  for (int i = 0; i < 3; ++i) view.skyTop[i] = view.skyHorizon[i] = 0;  // the fog's colour too
  view.studioFloor = false;
  view.xrayStrength = view.edgeStrength = view.rimStrength = 0;
  r.setMeshes(w.meshes());
  Mask mask;
  mask.image = r.renderToPixels(list, nullptr, SIZE);
  const size_t n = size_t(SIZE.width) * SIZE.height;
  size_t hits[3] = {0, 0, 0};
  uint32_t x0 = SIZE.width, x1 = 0, y0 = SIZE.height, y1 = 0;  // the hero's pixels
  for (size_t p = 0; p < n; ++p) {
    const uint8_t* px = &mask.image.rgba[p * 4];
    int best = 0;
    for (int c = 1; c < 3; ++c)
      if (px[c] > px[best]) best = c;
    if (srgbToLinear(px[best]) < 0.5) continue;  // the fog swallows more than half of it
    ++hits[best];
    if (best != 0) continue;
    const uint32_t x = uint32_t(p % SIZE.width), y = uint32_t(p / SIZE.width);
    x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
  }
  if (hits[0] > 0) {
    const double w = x1 - x0 + 1, h = y1 - y0 + 1, aspect = w / h;
    const double W = SIZE.width, H = SIZE.height;
    const double fits = aspect < W / H ? H * H * aspect : W * W / aspect;
    mask.fill = double(hits[0]) / fits;
  }
  mask.hero = double(hits[0]) / double(n);
  mask.studio = double(hits[1]) / double(n);
  mask.beyond = double(hits[2]) / double(n);
  return mask;
}

}  // namespace

TEST(HeroMask, EveryStationsHeroFillsItsStillWithNothingOfTheLevelBehindIt) {
  auto w = fixtures::tourWorld();
  auto r = fixtures::makeHeadless();
  ASSERT_TRUE(r && w);
  const uint32_t before = vkutil::validationErrorCount();
  std::printf("%-10s %-12s %7s %7s %7s %7s\n", "station", "shot", "hero", "fill", "studio",
              "beyond");
  for (const world::Station& s : w->stations()) {
    SCOPED_TRACE(s.name);
    const auto kind = kinds().find(s.name);
    ASSERT_NE(kind, kinds().end()) << "declare what the station's shot is about";
    const Shot shot = kind->second.shot;
    // In context the hero is the station's own instance; the view frames its context with it.
    const Mask m =
        maskOf(*r, *w, s, s.viewpoint, s.name, {shot == Shot::InContext ? &s.bounds : nullptr});
    std::printf("%-10s %-12s %6.1f%% %6.1f%% %6.1f%% %6.1f%%\n", s.name.c_str(), shotName(shot),
                100 * m.hero, 100 * m.fill, 100 * m.studio, 100 * m.beyond);
    if (shot == Shot::Object) {
      EXPECT_GE(m.fill, MIN_OBJECT_COVERAGE);
    }
    if (shot == Shot::InContext) {
      EXPECT_GE(m.fill, MIN_IN_CONTEXT_COVERAGE);
    }
    if (shot == Shot::Surroundings) {
      EXPECT_GE(m.fill, MIN_SURROUNDINGS_COVERAGE);
    }
    if (shot == Shot::Object) {
      EXPECT_LE(m.studio + m.beyond, MAX_OBJECT_LEAK);
    }
    if (shot == Shot::InContext) {
      EXPECT_LE(m.beyond, MAX_OBJECT_LEAK);
    }
    // To look at the masks: DCWALK_HERO_MASK_DIR=<dir> (red hero, green studio, blue beyond).
    if (const char* dir = std::getenv("DCWALK_HERO_MASK_DIR")) {
      std::string error;
      EXPECT_TRUE(
          golden::writePngFile(std::filesystem::path(dir) / (s.name + ".png"), m.image, error))
          << error;
    }
  }
  EXPECT_EQ(vkutil::validationErrorCount(), before);
}

TEST(HeroMask, AWrongViewpointOrStudioFails) {
  auto w = fixtures::tourWorld();
  auto r = fixtures::makeHeadless();
  ASSERT_TRUE(r && w);
  const world::Station* s = w->station("package");
  ASSERT_NE(s, nullptr);
  // Pulled back 5x, the hero covers about 1/25 of what it did: far below the bound.
  world::OrbitPose far = s->viewpoint;
  far.distance_m *= 5.0;
  const Mask pulledBack = maskOf(*r, *w, *s, far, s->name);
  EXPECT_LT(pulledBack.fill, MIN_OBJECT_COVERAGE);
  EXPECT_GT(pulledBack.hero, 0.0);  // it is still in the picture, and the mask finds it
  // Lit as the campus (a studio that hides nothing), the tray and board round the package show.
  const Mask noStudio = maskOf(*r, *w, *s, s->viewpoint, "campus");
  EXPECT_GT(noStudio.studio + noStudio.beyond, MAX_OBJECT_LEAK);
}

// The package station's cold plate, lifted straight up off the dies (visual brief "package": a
// stand-in drawn in that studio alone): the package's still draws it; the tray's and the hbm
// station's stills, whose studios hold the same package, draw nothing where it hangs.
TEST(HeroMask, OnlyThePackageStillDrawsTheLiftedColdPlate) {
  auto w = fixtures::tourWorld();
  ASSERT_TRUE(w);
  const world::Station* package = w->station("package");
  ASSERT_NE(package, nullptr);
  const auto plate = w->scene().worldBounds(package->path + "/" + world::COLD_PLATE_DRAWING);
  ASSERT_TRUE(plate.has_value());
  for (const char* name : {"package", "tray", "hbm"}) {
    SCOPED_TRACE(name);
    const world::Station* s = w->station(name);
    ASSERT_NE(s, nullptr);
    world::Camera camera;
    camera.setPose(world::toPose(s->viewpoint));
    world::FrameDesc frame{SIZE.width, SIZE.height};
    frame.studio = name;
    world::RenderList list;
    w->buildRenderList(camera, frame, list);
    world::Aabb box = *plate;  // camera-relative, as the instances are
    box.min -= camera.position() + glm::dvec3(1e-7);
    box.max += glm::dvec3(1e-7) - camera.position();
    size_t drawn = 0;
    for (const world::DrawBatch& batch : list.batches) {
      const world::Aabb& mesh = w->scene().meshBounds(batch.mesh);
      for (uint32_t i = batch.firstInstance; i < batch.firstInstance + batch.instanceCount; ++i)
        drawn += within(list.instances[i], mesh, box);
    }
    if (std::string(name) == "package") {
      EXPECT_GT(drawn, 0u);
    } else {
      EXPECT_EQ(drawn, 0u);
    }
  }
}

// The hbm station shows the stack beside the GPU die it feeds (visual brief "hbm": "the GPU die
// next to it on the interposer"), not a stack alone that reads as an office block: a good part
// of the die is in the still, and the stack, the hero, still covers more of it than the die does.
TEST(HeroMask, TheHbmStillShowsTheGpuDieBesideTheStack) {
  auto w = fixtures::tourWorld();
  auto r = fixtures::makeHeadless();
  ASSERT_TRUE(r && w);
  const world::Station* hbm = w->station("hbm");
  const world::Station* die = w->station("die");
  ASSERT_TRUE(hbm && die);
  const auto dieBox = w->scene().worldBounds(die->path);
  ASSERT_TRUE(dieBox.has_value());
  const Mask m = maskOf(*r, *w, *hbm, hbm->viewpoint, hbm->name, {&hbm->bounds, &*dieBox});
  std::printf("hbm still: stack %.1f%%, GPU die %.1f%%\n", 100 * m.hero, 100 * m.studio);
  // "A good part of" the die: a sixth of the frame, where the stack alone showed a corner of it.
  EXPECT_GE(m.studio, 1.0 / 6.0);
  EXPECT_GT(m.hero, m.studio);
  EXPECT_GE(m.hero, 0.2);  // still the hero: a fifth of the frame at least
}
