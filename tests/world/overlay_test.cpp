// Live overlays: the palette against the published viridis table, the rack order, and that what
// the world draws (instance colours, labels) equals the engine's values at the same time.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/fault_spec.h"
#include "sim/engine/scenarios.h"
#include "tests/common/shipped_catalog.h"
#include "world/live/overlays.h"
#include "world_test_fixture.h"

namespace {

using sim::engine::Engine;
using world::OverlayMetric;

const sim::Catalog& catalog() {
  return testcatalog::shipped();
}

std::unique_ptr<Engine> makeEngine(sim::engine::EngineDesc desc) {
  auto e = Engine::create(catalog(), desc);
  if (!e) {
    ADD_FAILURE() << e.error();
    return nullptr;
  }
  return std::move(*e);
}

std::unique_ptr<Engine> makeBuiltin(const char* name, double dt_s = 0) {
  auto d = sim::engine::builtinScenario(name);
  if (!d) {
    ADD_FAILURE() << d.error();
    return nullptr;
  }
  if (dt_s > 0) d->dt_s = dt_s;
  return makeEngine(*d);
}

// The world with exactly the engine's campus racks (as the app builds it), built once.
world::World& campusWorld() {
  static std::unique_ptr<world::World> w = [] {
    auto e = makeBuiltin("training_405b");
    world::WorldDesc desc;
    desc.campus.totalRacks = int(e->cluster().campusRacks);
    auto created = world::World::create(worldtest::dims(), desc);
    if (!created) {
      ADD_FAILURE() << created.error();
      std::abort();
    }
    return std::move(*created);
  }();
  return *w;
}

// The instance whose camera-relative translation is `center` - `eye`, or nullptr.
const gpu::Instance* instanceAt(const world::RenderList& list, const glm::dvec3& center,
                                const glm::dvec3& eye) {
  const glm::dvec3 rel = center - eye;
  const double tolerance_m = 1e-3 * std::max(1.0, glm::length(rel));
  for (const gpu::Instance& inst : list.instances) {
    if (std::abs(inst.row0.w - rel.x) < tolerance_m &&
        std::abs(inst.row1.w - rel.y) < tolerance_m &&
        std::abs(inst.row2.w - rel.z) < tolerance_m) {
      return &inst;
    }
  }
  return nullptr;
}

// The scene colour a value takes: sRGB viridis at its place in [min, max], made linear.
world::Rgb expectedColour(double value, double min, double max) {
  const double t = std::clamp((value - min) / (max - min), 0.0, 1.0);
  return world::srgbToLinear(world::viridis(t));
}

// The metric's colour an instance shows: as light along its edges (a part keeping its finish,
// a proxy box), or as the light of an indicator part (its own colour then).
void expectColour(const gpu::Instance& inst, const world::Rgb& c, const std::string& what) {
  const bool edges = inst.glow.w > 0;
  // The same colour up to float rounding (the engine's power goes through a few more products).
  EXPECT_NEAR(edges ? inst.glow.x : inst.color.x, c.r, 1e-5) << what;
  EXPECT_NEAR(edges ? inst.glow.y : inst.color.y, c.g, 1e-5) << what;
  EXPECT_NEAR(edges ? inst.glow.z : inst.color.z, c.b, 1e-5) << what;
}

// Mean of the modelled racks' power, kW: what the mirrored racks show.
double meanModelledRack_kW(const Engine& e) {
  const auto s = e.snapshot();
  double sum = 0;
  for (uint32_t r = 0; r < e.cluster().racks; ++r) sum += s.rackPower_W[r];
  return sum / e.cluster().racks / 1e3;
}

}  // namespace

TEST(OverlayPalette, EndpointsAndMidpointAreThePublishedViridis) {
  // mpl-colormaps _viridis_data entries 0, 255 and 127/128 (sRGB).
  const world::Rgb first = world::viridis(0.0), last = world::viridis(1.0);
  EXPECT_FLOAT_EQ(first.r, 0.267004f);
  EXPECT_FLOAT_EQ(first.g, 0.004874f);
  EXPECT_FLOAT_EQ(first.b, 0.329415f);
  EXPECT_FLOAT_EQ(last.r, 0.993248f);
  EXPECT_FLOAT_EQ(last.g, 0.906157f);
  EXPECT_FLOAT_EQ(last.b, 0.143936f);
  const world::Rgb mid = world::viridis(0.5);  // between entries 127 and 128 of the table
  EXPECT_NEAR(mid.r, 0.5 * (0.128729 + 0.127568), 0.01);
  EXPECT_NEAR(mid.g, 0.5 * (0.563265 + 0.566949), 0.01);
  EXPECT_NEAR(mid.b, 0.5 * (0.551229 + 0.550556), 0.01);
  // Out of range clamps to the ends.
  EXPECT_FLOAT_EQ(world::viridis(-3.0).r, first.r);
  EXPECT_FLOAT_EQ(world::viridis(7.0).g, last.g);
  // Viridis rises in green (lightness) from end to end.
  for (int i = 1; i <= 64; ++i) {
    EXPECT_GT(world::viridis(i / 64.0).g, world::viridis((i - 1) / 64.0).g) << i;
  }
}

TEST(OverlayPalette, SrgbToLinearFollowsIec61966) {
  // IEC 61966-2-1: 0.5 -> ((0.5 + 0.055) / 1.055)^2.4 = 0.21404; the linear toe below 0.04045.
  EXPECT_NEAR(world::srgbToLinear({0.5f, 1.0f, 0.0f}).r, 0.214041, 1e-5);
  EXPECT_FLOAT_EQ(world::srgbToLinear({0.5f, 1.0f, 0.0f}).g, 1.0f);
  EXPECT_FLOAT_EQ(world::srgbToLinear({0.5f, 1.0f, 0.0f}).b, 0.0f);
  EXPECT_NEAR(world::srgbToLinear({0.04f, 0, 0}).r, 0.04 / 12.92, 1e-7);
}

TEST(OverlayMetricNames, RoundTripAndUnknown) {
  for (int i = 0; i < world::OVERLAY_METRIC_COUNT; ++i) {
    const OverlayMetric m = OverlayMetric(i);
    EXPECT_EQ(world::parseOverlayMetric(world::overlayMetricName(m)), m);
  }
  EXPECT_EQ(world::parseOverlayMetric("utilization"), OverlayMetric::Utilisation);
  EXPECT_FALSE(world::parseOverlayMetric("heat"));
  EXPECT_FALSE(world::parseOverlayMetric(""));
}

TEST(RackMap, HallByHallRowByRowRackByRack) {
  world::World& w = campusWorld();
  auto e = makeBuiltin("training_405b");
  const world::RackMap& racks = w.racks();
  ASSERT_EQ(racks.rackCount(), e->cluster().campusRacks);
  // Independent arithmetic: halls of HallDesc::rackCount racks, rows of a scalable unit.
  const uint32_t perHall = uint32_t(world::HallDesc{}.rackCount);
  const uint32_t perRow = uint32_t(worldtest::dims().count("row.racks_per_su"));
  for (uint32_t k = 0; k < racks.rackCount(); ++k) {
    const uint32_t hall = k / perHall, row = (k % perHall) / perRow, rack = k % perRow;
    const std::string path = "hall" + std::to_string(hall) + "/row" + std::to_string(row) +
                             "/rack" + std::to_string(rack);
    ASSERT_EQ(racks.pathOfRack(k), path);
    ASSERT_EQ(racks.rackIndexOfPath(path), k);
    ASSERT_TRUE(w.scene().resolve(path)) << path;
  }
  EXPECT_FALSE(racks.rackIndexOfPath("hall0/row0/rack" + std::to_string(perRow)));
  EXPECT_FALSE(racks.rackIndexOfPath("hall0/row0"));
  EXPECT_FALSE(racks.rackIndexOfPath("hallx/row0/rack0"));
  EXPECT_FALSE(racks.rackIndexOfPath("hall0/row0/rack0/compute_tray0"));
  EXPECT_FALSE(racks.rackIndexOfPath("hall999/row0/rack0"));
  // The hero rack is rack 0, and its open tray's GPUs are instances of their own.
  EXPECT_EQ(racks.pathOfRack(0), "hall0/row0/rack0");
  EXPECT_EQ(w.heroGpus().size(),
            size_t(worldtest::dims().count("compute_tray.superchips") *
                   worldtest::dims().count("compute_tray.gpus_per_superchip")));
}

TEST(Overlay, RackColoursAndLabelsEqualTheEngineAtTheSameTime) {
  world::World& w = campusWorld();
  auto e = makeBuiltin("training_405b");
  e->advanceTo(5.0);
  world::updateOverlay(e->snapshot(), OverlayMetric::Power, w.overlay());
  const auto snap = e->snapshot();
  const double maxRack_kW = e->cluster().rackMaxPower_W / 1e3;
  ASSERT_GT(maxRack_kW, 0);
  ASSERT_GT(e->cluster().racks, 0u);

  const world::Station* hall = w.station("hall");
  ASSERT_NE(hall, nullptr);
  const world::Camera camera = worldtest::cameraAt(*hall);
  world::RenderList list;
  w.buildRenderList(camera, {}, list);

  int found = 0;
  for (uint32_t k = 0; k < w.racks().rackCount(); ++k) {
    const gpu::Instance* inst =
        instanceAt(list, w.racks().rackBounds(k).center(), camera.position());
    if (!inst) continue;
    const double value_kW =
        k < e->cluster().racks ? snap.rackPower_W[k] / 1e3 : meanModelledRack_kW(*e);
    expectColour(*inst, expectedColour(value_kW, 0.0, maxRack_kW), "rack " + std::to_string(k));
    ++found;
  }
  EXPECT_GE(found, 8) << "racks drawn as proxies in the hall view";

  // Labels: "rack K  V kW (derived)" with V the engine's rack power.
  int rackLabels = 0;
  for (const world::Label& label : list.labels) {
    unsigned k = 0;
    double value = 0;
    char unit[8] = {};
    if (std::sscanf(label.text.c_str(), "rack %u %lf %7s", &k, &value, unit) != 3) continue;
    ++rackLabels;
    ASSERT_LT(k, w.racks().rackCount());
    const double expected_kW =
        k < e->cluster().racks ? snap.rackPower_W[k] / 1e3 : meanModelledRack_kW(*e);
    EXPECT_NEAR(value, expected_kW, 0.5) << label.text;
    EXPECT_STREQ(unit, "kW");
    EXPECT_NE(label.text.find("(derived)"), std::string::npos) << label.text;
  }
  EXPECT_GT(rackLabels, 0);
  EXPECT_LE(rackLabels, 6);

  // No overlay: the default looks again, no live labels.
  world::updateOverlay(e->snapshot(), OverlayMetric::None, w.overlay());
  w.buildRenderList(camera, {}, list);
  const gpu::Instance* plain =
      instanceAt(list, w.racks().rackBounds(0).center(), camera.position());
  ASSERT_NE(plain, nullptr);
  const world::Rgb tinted = expectedColour(snap.rackPower_W[0] / 1e3, 0.0, maxRack_kW);
  EXPECT_FALSE(plain->color.x == tinted.r && plain->color.y == tinted.g &&
               plain->color.z == tinted.b);
  for (const world::Label& label : list.labels) {
    EXPECT_EQ(label.text.find("(derived)"), std::string::npos) << label.text;
  }
}

TEST(Overlay, HeroGpusShowTheirOwnJunctionTemperature) {
  world::World& w = campusWorld();
  auto e = makeBuiltin("training_405b");
  e->advanceTo(3.0);
  world::updateOverlay(e->snapshot(), OverlayMetric::Temperature, w.overlay());
  const auto snap = e->snapshot();
  const double min_C = e->cluster().specs.facility.coolantSupply_C;
  const double max_C = e->figures().throttleJunction_C;
  const uint32_t heroFirst = e->cluster().firstGpuOfRack({0}).index;

  const world::Station* rack = w.station("rack");
  ASSERT_NE(rack, nullptr);
  const world::Camera camera = worldtest::cameraAt(*rack);
  world::RenderList list;
  w.buildRenderList(camera, {}, list);
  int found = 0;
  for (const world::HeroGpu& gpu : w.heroGpus()) {
    const uint32_t local = gpu.tray * e->cluster().gpusPerTray + gpu.slot;
    // The package's proxy box, or its parts when it is open: either way some instance of the
    // package sits at a place only it has; take the proxy when drawn.
    const gpu::Instance* inst = instanceAt(list, gpu.bounds.center(), camera.position());
    if (!inst) continue;
    expectColour(*inst, expectedColour(snap.gpuJunction_C[heroFirst + local], min_C, max_C),
                 "hero GPU " + std::to_string(local));
    ++found;
  }
  EXPECT_GE(found, 1);
  // The hero rack's compute trays: the mean of their GPUs, on what is drawn inside each tray.
  int trays = 0;
  const uint32_t perTray = e->cluster().gpusPerTray;
  for (uint32_t t = 0; t < e->cluster().gpusPerRack / perTray; ++t) {
    const auto bounds =
        w.scene().worldBounds(w.racks().pathOfRack(0) + "/compute_tray" + std::to_string(t));
    ASSERT_TRUE(bounds) << t;
    double sum = 0;
    for (uint32_t g = 0; g < perTray; ++g) sum += snap.gpuJunction_C[heroFirst + t * perTray + g];
    const world::Rgb c = expectedColour(sum / perTray, min_C, max_C);
    for (const gpu::Instance& inst : list.instances) {
      const glm::dvec3 p = camera.position() + glm::dvec3(inst.row0.w, inst.row1.w, inst.row2.w);
      const bool inside =
          glm::all(glm::lessThan(bounds->min, p)) && glm::all(glm::lessThan(p, bounds->max));
      const gpu::vec4& shown = inst.glow.w > 0 ? inst.glow : inst.color;  // see expectColour
      if (inside && shown.x == c.r && shown.y == c.g && shown.z == c.b) {
        ++trays;
        break;
      }
    }
  }
  EXPECT_GE(trays, 10);
  // Every rack's value is its hottest GPU.
  for (uint32_t r = 0; r < e->cluster().racks; ++r) {
    float hottest = -1e30f;
    for (uint32_t g = 0; g < e->cluster().gpusPerRack; ++g) {
      hottest = std::max(hottest, snap.gpuJunction_C[r * e->cluster().gpusPerRack + g]);
    }
    ASSERT_FLOAT_EQ(w.overlay().rackValues[r], hottest) << r;
  }
  world::updateOverlay(e->snapshot(), OverlayMetric::None, w.overlay());
}

TEST(Overlay, ALabelSaysTheEnginesValueWhileItsColourEasesTowardsIt) {
  // Issue 38, item 3: the GPU 37 label said 65 °C while the inspector said junction 90.4 °C: the
  // label printed the colour's eased value. Colours follow at a calm rate; words say the value.
  world::World& w = campusWorld();
  auto e = makeBuiltin("training_405b");
  e->advanceTo(0.5);
  w.sync(e->snapshot(), OverlayMetric::Temperature, 1, world::Calm{});  // a still: at once
  e->advanceTo(20.0);                                                   // the GPUs heat up
  world::Calm calm;
  calm.wall_s = 1.0 / 30.0;
  w.sync(e->snapshot(), OverlayMetric::Temperature, 2, calm);
  const auto snap = e->snapshot();
  const uint32_t heroFirst = e->cluster().firstGpuOfRack({0}).index;
  const world::Station* tray = w.station("tray");
  ASSERT_NE(tray, nullptr);
  world::RenderList list;
  world::FrameDesc frame{1280, 720};
  frame.studio = "tray";
  w.buildRenderList(worldtest::cameraAt(*tray), frame, list);
  int gpuLabels = 0, easing = 0;
  for (const world::Label& label : list.labels) {
    unsigned local = 0;
    double value = 0;
    if (std::sscanf(label.text.c_str(), "GPU %u %lf", &local, &value) != 2) continue;
    ASSERT_LT(local, e->cluster().gpusPerRack);
    ++gpuLabels;
    // formatValue's rounding: within half of its last digit for a junction in the tens of °C.
    EXPECT_NEAR(value, snap.gpuJunction_C[heroFirst + local], 0.5) << label.text;
    if (std::abs(w.overlay().heroGpuValues[local] - snap.gpuJunction_C[heroFirst + local]) > 1)
      ++easing;
  }
  EXPECT_GT(gpuLabels, 0);
  EXPECT_GT(easing, 0) << "the colours have not caught up yet: the case the label must not follow";
  w.sync(e->snapshot(), OverlayMetric::None, 3, world::Calm{});
}

TEST(Overlay, PumpTripHeatsTheRacksOfItsCdu) {
  // 50 ms steps: the loop's time constant is ~40 s, the trip starts at 10 s.
  auto trip = makeBuiltin("pump_trip", 0.05);
  auto calm = makeBuiltin("training_405b", 0.05);
  ASSERT_TRUE(trip && calm);
  world::OverlayState zero, tripped, normal;
  world::updateOverlay(trip->snapshot(), OverlayMetric::Temperature, zero);
  trip->advanceTo(70.0);
  calm->advanceTo(70.0);
  world::updateOverlay(trip->snapshot(), OverlayMetric::Temperature, tripped);
  world::updateOverlay(calm->snapshot(), OverlayMetric::Temperature, normal);
  const auto& c = trip->cluster();
  int onCdu0 = 0;
  for (uint32_t r = 0; r < c.racks; ++r) {
    if (c.rackCdu[r] != 0) continue;
    ++onCdu0;
    EXPECT_GT(tripped.rackValues[r], zero.rackValues[r]) << "rack " << r;
    // Junctions follow the phase's power as well as the loop, so the fault is measured against
    // the same job without it at the same time.
    EXPECT_GT(tripped.rackValues[r], normal.rackValues[r] + 2.0f) << "rack " << r;
    // Equal to the engine's hottest junction of the rack.
    const auto snap = trip->snapshot();
    float hottest = -1e30f;
    for (uint32_t g = 0; g < c.gpusPerRack; ++g) {
      hottest = std::max(hottest, snap.gpuJunction_C[r * c.gpusPerRack + g]);
    }
    EXPECT_FLOAT_EQ(tripped.rackValues[r], hottest);
  }
  EXPECT_GT(onCdu0, 0);
}

TEST(Overlay, UtilisationAndLinkLoadArePercentOfTheEngineShares) {
  auto e = makeBuiltin("training_405b");
  e->advanceTo(1.0);
  const auto snap = e->snapshot();
  const auto& c = e->cluster();
  world::OverlayState util, link;
  world::updateOverlay(e->snapshot(), OverlayMetric::Utilisation, util);
  world::updateOverlay(e->snapshot(), OverlayMetric::LinkLoad, link);
  ASSERT_EQ(util.rackValues.size(), c.campusRacks);
  ASSERT_EQ(util.heroGpuValues.size(), c.gpusPerRack);
  double sum = 0, busiest = 0;
  for (uint32_t g = 0; g < c.gpusPerRack; ++g) {
    sum += snap.gpuUtilisation[g];
    busiest = std::max(busiest, double(snap.linkUtilisation[c.gpuLink[g]]));
    EXPECT_FLOAT_EQ(util.heroGpuValues[g], 100.0f * snap.gpuUtilisation[g]);
  }
  EXPECT_NEAR(util.rackValues[0], 100.0 * sum / c.gpusPerRack, 1e-3);
  EXPECT_NEAR(link.rackValues[0], 100.0 * busiest, 1e-3);
  EXPECT_EQ(util.rackRange.unit, "%");
  EXPECT_DOUBLE_EQ(util.rackRange.max, 100.0);
}

namespace {

TEST(Overlay, PipelineStagesColourTheHeroGpusAndRacksByTheJobsPlacement) {
  auto e = makeBuiltin("training_405b");
  ASSERT_NE(e, nullptr);
  world::OverlayState state;
  world::updateOverlay(e->snapshot(), OverlayMetric::Stage, state);
  const sim::engine::Cluster& c = e->cluster();
  const sim::engine::TrainingPlan* plan = e->training();
  ASSERT_NE(plan, nullptr);
  EXPECT_EQ(state.rackRange.max, plan->desc.pp - 1);
  // Hero rack (RackId 0): each GPU's own stage; a TP group of GPUs shares one.
  for (uint32_t g = 0; g < c.gpusPerRack; ++g) {
    EXPECT_EQ(state.heroGpuValues[g], float(plan->stageOfGpu[g])) << g;
    EXPECT_EQ(state.heroGpuValues[g], state.heroGpuValues[g / plan->desc.tp * plan->desc.tp]);
  }
  // Every modelled rack: the mean stage of its job GPUs, computed here from the plan.
  bool variesAcrossRacks = false;
  for (uint32_t r = 0; r < c.racks; ++r) {
    double sum = 0;
    int n = 0;
    for (uint32_t g = r * c.gpusPerRack; g < (r + 1) * c.gpusPerRack; ++g) {
      if (plan->stageOfGpu[g] == sim::engine::NOT_IN_JOB) continue;
      sum += plan->stageOfGpu[g];
      ++n;
    }
    EXPECT_NEAR(state.rackValues[r], n ? sum / n : 0.0, 1e-4) << r;
    variesAcrossRacks = variesAcrossRacks || state.rackValues[r] != state.rackValues[0];
  }
  EXPECT_TRUE(variesAcrossRacks);
  EXPECT_EQ(world::parseOverlayMetric("pipeline_stage"), OverlayMetric::Stage);
}

}  // namespace
