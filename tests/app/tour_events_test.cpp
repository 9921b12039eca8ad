// The tour tells its story in the picture (issue 21): a chapter's text-off frame (tour --text
// off, the clean plate) is rendered in two simulator states, and the change in the event's own
// screen region follows the engine's or calculator's values — red overflow in the HBM stack if
// and only if the panel says it does not fit (chapter 3), the NVLink domain lit tray by tray up
// to the engine's domain (chapter 8), the goodput columns split as the engine's step is and red
// only when a fault lost time (finale).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_session.h"
#include "app/session/tour_view.h"
#include "world/live/events/firehose.h"
#include "world/live/events/goodput.h"
#include "world/live/events/nvlink.h"
#include "world/live/events/phases.h"
#include "world/live/events/pixel_race.h"
#include "world/live/events/power_flow.h"
#include "world/live/events/ring.h"
#include "world/live/events/stages.h"
#include "world/live/events/value_bars.h"

namespace {

constexpr uint32_t W = 1280, H = 720;

struct Rect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // pixels, [x0, x1) x [y0, y1), clipped to the frame
  int area() const { return std::max(0, x1 - x0) * std::max(0, y1 - y0); }
};

// The screen rectangle a world box covers for `camera` (its corners projected).
Rect project(const world::Camera& camera, const world::Aabb& box) {
  const double focal = 0.5 * H / std::tan(0.5 * camera.verticalFov_rad());
  double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  for (int i = 0; i < 8; ++i) {
    const glm::dvec3 p((i & 1) ? box.max.x : box.min.x, (i & 2) ? box.max.y : box.min.y,
                       (i & 4) ? box.max.z : box.min.z);
    const glm::dvec3 rel = p - camera.position();
    const double depth = std::max(1e-9, glm::dot(rel, camera.forward()));
    const double x = 0.5 * W + glm::dot(rel, camera.right()) / depth * focal;
    const double y = 0.5 * H - glm::dot(rel, camera.up()) / depth * focal;
    x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
  }
  auto clip = [](double v, uint32_t n) { return int(std::clamp(v, 0.0, double(n))); };
  return {clip(x0, W), clip(y0, H), clip(x1, W), clip(y1, H)};
}

// The view the world culls and lays out its events for, from `camera`.
world::CullView viewOf(const world::Camera& camera) {
  world::CullView view;
  view.eye = camera.position();
  view.forward = camera.forward(), view.right = camera.right(), view.up = camera.up();
  view.verticalFov_rad = camera.verticalFov_rad();
  view.aspect = double(W) / H;
  view.viewportHeight_px = H;
  return view;
}

using PixelTest = bool (*)(const uint8_t* rgba);
bool isRed(const uint8_t* p) {
  return p[0] > 150 && p[1] < 70 && p[2] < 70;
}
bool isCyan(const uint8_t* p) {
  return p[2] > 170 && p[1] > 170 && p[0] < 170;
}
bool isGreen(const uint8_t* p) {
  return p[1] > 110 && p[0] < 0.8 * p[1] && p[2] < 60;
}

size_t count(const renderer::Pixels& pixels, const Rect& r, PixelTest test) {
  size_t n = 0;
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) n += test(&pixels.rgba[(size_t(y) * pixels.width + x) * 4]);
  return n;
}

// The default tour in a session, its frames text-off.
struct TourRig {
  app::Session session;
  std::optional<app::TourPanel> panel;
  std::unique_ptr<app::TourDriver> driver;
  std::unique_ptr<app::TourView> view;

  TourRig() {
    app::RenderOptions options;
    options.width = W;
    options.height = H;
    EXPECT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(H), session), 0);
    world::TourPlayerDesc desc;
    desc.reducedMotion = true;  // steps cut to their station: the camera has landed
    auto player = app::makeTourPlayer(*session.world, "default", desc);
    EXPECT_TRUE(player) << player.error();
    auto loaded = app::TourPanel::load(*session.catalog);
    EXPECT_TRUE(loaded) << loaded.error();
    panel = std::move(*loaded);
    driver = std::make_unique<app::TourDriver>(std::move(*player));
    view = std::make_unique<app::TourView>(*driver, *panel, "en");
    view->setTextMode(app::TextMode::Off);
    std::vector<app::SimCommand> commands;
    driver->start(commands, true);
    for (auto& c : commands) session.sim->queue(std::move(c));
  }
  // Goes to step `step` of chapter `chapter` (1..10, 11: the finale) and lets its simulation
  // start.
  void go(int chapter, size_t step) {
    world::TourPlayer& player = driver->player();
    ASSERT_TRUE(chapter == 11 ? player.jumpToFinale() : player.jumpToChapterKey(chapter % 10));
    for (size_t i = 0; i < step; ++i) ASSERT_TRUE(player.nextStep());
    settle();
  }
  // Frames until the commands of the step (or the test) have been applied and caught up.
  void settle() {
    for (int i = 0; i < 4; ++i) app::renderStill(session, *view, {W, H});
    for (int i = 0; i < 400 && session.sim->catchingUp(); ++i)
      app::renderStill(session, *view, {W, H});
  }
  // Runs the simulation on to `t_s` (sliced over frames as the window does).
  void runTo(double t_s) {
    session.sim->queue(app::SimCommand::runTo(t_s));
    settle();
  }
  renderer::Pixels still() { return app::renderStill(session, *view, {W, H}).pixels; }
  const world::Camera& camera() { return driver->camera(); }
};

}  // namespace

TEST(TourEvents, TheStackOverflowsRedIfAndOnlyIfThePanelSaysItDoesNotFit) {
  TourRig rig;
  const world::Station* hbm = rig.session.world->station("hbm");
  ASSERT_NE(hbm, nullptr);
  int overflowing = 0;
  for (size_t step : {0u, 1u}) {  // the designed 2K context, then 48 sequences of 32K
    SCOPED_TRACE("chapter 3 step " + std::to_string(step + 1));
    rig.go(3, step);
    const app::PanelView* view = rig.panel->view();
    ASSERT_NE(view, nullptr);
    const app::PanelRowView* fits = view->value("memory.fits");
    ASSERT_NE(fits, nullptr);
    const renderer::Pixels pixels = rig.still();
    const Rect stack = project(rig.camera(), hbm->bounds);
    ASSERT_GT(stack.area(), int(W * H / 10));  // the stack fills the frame
    const double red = double(count(pixels, stack, isRed)) / stack.area();
    if (fits->value > 0.5) {
      EXPECT_LT(red, 0.002) << "fits, yet red";
    } else {
      EXPECT_GT(red, 0.05) << "out of memory, yet not red";
      ++overflowing;
    }
  }
  EXPECT_EQ(overflowing, 1);  // one state of each
}

TEST(TourEvents, TheNvlinkDomainLightsTrayByTrayToTheEnginesDomain) {
  // From one DGX's 8 GPUs to the rack's 72 over GROW_S, whole trays of 4 at a time.
  EXPECT_EQ(world::NvlinkDomain::litGpus(0, 72, 4), 8u);
  EXPECT_EQ(world::NvlinkDomain::litGpus(0.5 * world::NvlinkDomain::GROW_S, 72, 4), 40u);
  EXPECT_EQ(world::NvlinkDomain::litGpus(world::NvlinkDomain::GROW_S, 72, 4), 72u);
  EXPECT_EQ(world::NvlinkDomain::litGpus(1e9, 8, 8), 8u);  // a DGX's domain is all it has

  TourRig rig;
  rig.go(8, 1);  // the rack
  const sim::engine::Snapshot snapshot = rig.session.sim->snapshot();
  const uint32_t domain = snapshot.cluster->gpusPerRack, perTray = snapshot.cluster->gpusPerTray;
  ASSERT_EQ(domain, 72u);  // GB200 NVL72 (NVIDIA's datasheet: 72 GPUs in one NVLink domain)
  EXPECT_EQ(rig.session.world->layer<world::NvlinkLayer>().domain().trays(),
            size_t(domain / perTray));
  const world::Aabb rack = rig.session.world->racks().rackBounds(0);
  size_t cyan[2] = {0, 0};
  uint32_t trays[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    const double t_s = k == 0 ? 0.0 : world::NvlinkDomain::GROW_S;
    rig.view->holdEventsAt(t_s);
    cyan[k] = count(rig.still(), project(rig.camera(), rack), isCyan);
    trays[k] = world::NvlinkDomain::litGpus(t_s, domain, perTray) / perTray;
  }
  EXPECT_EQ(trays[0], 2u);
  EXPECT_EQ(trays[1], 18u);
  EXPECT_GT(cyan[0], 200u) << "8 GPUs lit, yet no line";
  // Each lit tray draws its own line and bar (the trunk is shared): the cyan grows with them.
  EXPECT_GT(double(cyan[1]), 0.4 * double(trays[1]) / trays[0] * double(cyan[0]))
      << cyan[0] << " -> " << cyan[1];
}

TEST(TourEvents, TheGoodputColumnsSplitTheEnginesStepAndTurnRedOnlyWithAFault) {
  TourRig rig;
  rig.go(11, 1);  // the finale at the rack: a straggler from 2 s to 30 s
  world::World& w = *rig.session.world;
  for (int k = 0; k < 2; ++k) {
    SCOPED_TRACE(k == 0 ? "with the straggler" : "without a fault");
    if (k == 1) {
      rig.session.sim->queue(app::SimCommand::restart({"training_405b", {}, {}}, false, ""));
      rig.settle();
    }
    rig.runTo(16.0);
    const sim::engine::StepSplit split = w.layer<world::GoodputLayer>().stepSplit();
    ASSERT_GT(split.total_s, 0);
    const renderer::Pixels pixels = rig.still();
    const auto segments =
        w.layer<world::GoodputLayer>().columns().layout(split, rig.camera().right());
    ASSERT_GE(segments.size(), 3u);  // the ghost, compute, and more
    Rect columns;
    columns.x0 = int(W), columns.y0 = int(H);
    for (const auto& s : segments) {
      const Rect r = project(rig.camera(), s.box);
      columns.x0 = std::min(columns.x0, r.x0), columns.y0 = std::min(columns.y0, r.y0);
      columns.x1 = std::max(columns.x1, r.x1), columns.y1 = std::max(columns.y1, r.y1);
    }
    ASSERT_GT(columns.area(), 2000);
    const double lostShare = split.lost_s / split.total_s;
    const double red = double(count(pixels, columns, isRed)) / columns.area();
    if (k == 0) {
      EXPECT_GT(lostShare, 0.1);  // half speed on one GPU holds up every step
      EXPECT_GT(red, 0.02) << "time lost, yet no red";
    } else {
      EXPECT_LT(lostShare, 0.01);
      EXPECT_LT(red, 0.002) << "nothing lost, yet red";
    }
    // The green (compute) segment is as tall on screen as compute is of the step (the real
    // column's screen height is the whole step).
    const Rect whole = project(rig.camera(), [&] {
      world::Aabb b;
      for (size_t i = 1; i < segments.size(); ++i) b.extend(segments[i].box);
      return b;
    }());
    const Rect compute = project(rig.camera(), segments[1].box);
    size_t greenRows = 0;
    for (int y = whole.y0; y < whole.y1; ++y) {
      const Rect row{compute.x0, y, compute.x1, y + 1};
      greenRows += count(pixels, row, isGreen) > size_t(row.area() / 3);
    }
    const double share = split.compute_s / split.total_s;
    EXPECT_NEAR(double(greenRows) / (whole.y1 - whole.y0), share, 0.25 * share + 0.03)
        << greenRows << " green rows of " << whole.y1 - whole.y0;
  }
}

// Chapter 6 in one frame: one slow GPU holds every other at the barrier. The straggler is the
// tour step's fault: its rack's cap and its own tray's bar red, the bar lit as far as the
// straggler's work is done (the useful share of the engine's step when the others arrive), every
// other rack's trays amber while they wait; with no straggler, neither.
TEST(TourEvents, TheRingWaitsInAmberAtTheStragglersRedTrayOnlyWhenThereIsOne) {
  TourRig rig;
  rig.go(6, 0);  // the hero row, a straggler at 60 % speed
  world::World& w = *rig.session.world;
  const world::AllReduceRing& ring = w.layer<world::RingLayer>().ring();
  ASSERT_GE(ring.nodes(), 2u);
  const auto isAmber = [](const uint8_t* p) {
    return p[0] > 180 && p[1] > 90 && p[1] < 200 && p[2] < 60;
  };
  auto share = [](const renderer::Pixels& pixels, const Rect& r, PixelTest test) {
    return double(count(pixels, r, test)) / std::max(1, r.area());
  };
  for (int k = 0; k < 2; ++k) {
    SCOPED_TRACE(k == 0 ? "with the straggler" : "without a fault");
    if (k == 1) {
      rig.session.sim->queue(app::SimCommand::restart({"training_405b", {}, {}}, false, ""));
      rig.settle();
    }
    rig.runTo(7.0);
    const sim::engine::Snapshot snapshot = rig.session.sim->snapshot();
    const world::AllReduceRing::State st = w.layer<world::RingLayer>().state();
    // The loop is the engine's DP collective, slowed for the eye.
    EXPECT_NEAR(st.loop_s,
                std::clamp(snapshot.dataParallelTime_s * world::AllReduceRing::DISPLAY_SLOWDOWN,
                           world::AllReduceRing::MIN_LOOP_S, world::AllReduceRing::MAX_LOOP_S),
                1e-9);
    const uint32_t perRack = snapshot.cluster->gpusPerRack, perTray = snapshot.cluster->gpusPerTray;
    ASSERT_GT(perTray, 0u);
    if (k == 1) {
      EXPECT_EQ(st.slow, -1);
      rig.view->holdEventsAt(0.0);
      const renderer::Pixels pixels = rig.still();
      for (size_t node = 0; node < ring.nodes(); ++node) {
        world::Aabb front = ring.trayBar(node, 0);
        for (size_t t = 1; !front.empty() && t < 18; ++t) front.extend(ring.trayBar(node, t));
        if (front.empty()) continue;
        const Rect r = project(rig.camera(), front);
        EXPECT_LT(share(pixels, r, isRed), 0.01) << "no straggler, yet red on rack " << node;
        EXPECT_LT(share(pixels, r, isAmber), 0.01) << "no straggler, yet rack " << node << " waits";
      }
      continue;
    }
    // The straggler where the tour's fault puts it: its rack in the row, its tray in the rack.
    ASSERT_EQ(snapshot.desc->faults.size(), 1u);
    const uint32_t target = snapshot.desc->faults[0].target;
    EXPECT_EQ(st.slow, int32_t(target / perRack));  // the row's first rack is rack 0
    EXPECT_EQ(st.slowTray, int32_t(target % perRack / perTray));
    // The pulse waits as long as the step loses to the straggler over its useful time.
    const sim::engine::StepSplit split = w.layer<world::GoodputLayer>().stepSplit();
    const double useful = (split.total_s - split.lost_s) / split.total_s;
    EXPECT_NEAR(st.wait_s, std::min(2 * st.loop_s, st.loop_s * (1 - useful) / useful), 1e-9);
    ASSERT_GT(st.wait_s, 0.0);
    ASSERT_LT(useful, 0.95);  // 60 % speed on one GPU costs the step more than 5 %
    const world::Aabb slowBar = ring.stragglerBar(st);
    ASSERT_FALSE(slowBar.empty());
    const Rect bar = project(rig.camera(), slowBar);
    ASSERT_GT(bar.area(), 60) << "the straggler's bar is too small to see";
    // A rack away from the straggler's, its trays' fronts.
    const size_t other = (size_t(st.slow) + ring.nodes() / 2) % ring.nodes();
    world::Aabb otherFront = ring.trayBar(other, 0);
    for (size_t t = 1; t < 18; ++t) otherFront.extend(ring.trayBar(other, t));
    const Rect waiting = project(rig.camera(), otherFront);
    ASSERT_GT(waiting.area(), 200);
    // The wait's first moment: the straggler has done the useful share of its work; late in the
    // wait, nearly all of it. Its bar's red columns say so.
    double lit[2] = {0, 0};
    for (int phase = 0; phase < 2; ++phase) {
      const double t_s = phase == 0 ? 0.0 : 0.9 * st.wait_s;
      rig.view->holdEventsAt(t_s);
      const renderer::Pixels pixels = rig.still();
      int columns = 0;
      for (int x = bar.x0; x < bar.x1; ++x)
        columns += count(pixels, {x, bar.y0, x + 1, bar.y1}, isRed) > size_t(bar.y1 - bar.y0) / 3;
      lit[phase] = double(columns) / (bar.x1 - bar.x0);
      EXPECT_GT(share(pixels, waiting, isAmber), 0.2) << "the others are not waiting";
      EXPECT_LT(share(pixels, waiting, isRed), 0.01) << "a waiting rack is red";
    }
    const double expected[2] = {useful, useful + 0.9 * (1 - useful)};
    EXPECT_NEAR(world::AllReduceRing::stragglerDone(st, 0.0), expected[0], 1e-9);
    // Seen at a slant and behind the row's cable drops, the bar shows fewer red columns than
    // its length's share; in proportion, they follow it.
    EXPECT_GT(lit[1], 0.7) << "late in the wait, the straggler's bar is not red";
    EXPECT_NEAR(lit[0] / lit[1], expected[0] / expected[1], 0.1)
        << "red " << lit[0] << " then " << lit[1] << " of the bar";
    std::printf("straggler tray %d of rack %d: useful %.2f, red %.2f then %.2f\n", st.slowTray,
                st.slow, useful, lit[0], lit[1]);
  }
}

TEST(TourEvents, RooflineSharesAreTheCalculatorsPoint) {
  app::RooflineView roof;
  roof.peak_flops = 989e12;      // H100 SXM dense BF16 (NVIDIA H100 datasheet)
  roof.bandwidth_Bps = 3.35e12;  // its HBM3
  // Decode at batch 1: ~1 FLOP per byte, memory bound: the HBM streams flat out and the tensor
  // cores do bandwidth x intensity of their peak.
  const app::RooflineView::Point decode{"decode", 1.0, 3.35e12 * 1.0, true};
  const world::ComputeShares d = app::rooflineShares(roof, decode);
  EXPECT_NEAR(d.hbm, 1.0, 1e-12);
  EXPECT_NEAR(d.tensor, 3.35e12 / 989e12, 1e-12);
  // Prefill of 2,048 tokens: compute bound, the HBM needed only for peak / intensity bytes/s.
  const app::RooflineView::Point prefill{"prefill", 2048.0, 989e12, false};
  const world::ComputeShares p = app::rooflineShares(roof, prefill);
  EXPECT_NEAR(p.tensor, 1.0, 1e-12);
  EXPECT_NEAR(p.hbm, 989e12 / 2048.0 / 3.35e12, 1e-12);
}

TEST(TourEvents, PrefillLightsTheDiesTensorCoresAndDecodeLeavesThemDark) {
  TourRig rig;
  rig.go(4, 1);  // the die, with the chapter's roofline: prefill, then decode
  const app::PanelView* view = rig.panel->view();
  ASSERT_NE(view, nullptr);
  ASSERT_TRUE(view->roofline);
  ASSERT_EQ(view->roofline->points.size(), 2u);
  const world::Station* die = rig.session.world->station("die");
  ASSERT_NE(die, nullptr);
  double green[2] = {0, 0}, tensor[2] = {0, 0};
  for (size_t i = 0; i < 2; ++i) {
    const double t_s = (double(i) + 0.5) * app::TourPanel::ROOFLINE_PHASE_S;
    rig.view->holdEventsAt(t_s);
    const auto shares = rig.panel->rooflineGlow(t_s);
    ASSERT_TRUE(shares);
    tensor[i] = shares->tensor;
    const Rect r = project(rig.camera(), die->bounds);
    green[i] = double(count(rig.still(), r, isGreen)) / std::max(1, r.area());
  }
  SCOPED_TRACE(view->roofline->points[0].label + " then " + view->roofline->points[1].label);
  EXPECT_FALSE(view->roofline->points[0].memoryBound);  // prefill: compute bound
  EXPECT_TRUE(view->roofline->points[1].memoryBound);   // decode: memory bound
  EXPECT_GT(tensor[0], 0.9);
  EXPECT_LT(tensor[1], 0.5 * tensor[0]);
  // The SMs glow green with the tensor cores: much of the die in prefill, far less in decode.
  EXPECT_GT(green[0], 0.1) << "prefill, yet the die is not green";
  EXPECT_LT(green[1], 0.5 * green[0])
      << "decode, yet the die glows as much: " << green[1] << " against " << green[0];
  std::printf("die green: prefill %.2f (tensor %.2f), decode %.2f (tensor %.2f)\n", green[0],
              tensor[0], green[1], tensor[1]);
}

// Chapter 4 in one frame: the B200 package's two dies, prefill on the first and decode on the
// second. Each die's green is as deep as its phase keeps the tensor cores busy, and its stacks
// stream as many lanes as its share of the HBM bandwidth: prefill lit with calm stacks, decode
// dark with its stacks at full stream. A larger batch raises decode's intensity, and its die's
// green grows with it.
TEST(TourEvents, PrefillAndDecodeStandSideBySideOnThePackagesTwoDies) {
  TourRig rig;
  rig.go(4, 0);  // the package
  const world::DiePhases& dies = rig.session.world->layer<world::PhasesLayer>().phases();
  ASSERT_EQ(dies.dies(), 2u);  // B200: two reticle-sized dies in one package (NVIDIA)
  const app::Panel* panel = rig.panel->panels().find("prefill_decode");
  ASSERT_NE(panel, nullptr);
  size_t batchKnob = panel->knobs.size();
  for (size_t i = 0; i < panel->knobs.size(); ++i)
    if (panel->knobs[i].path == "workload.batch") batchKnob = i;
  ASSERT_LT(batchKnob, panel->knobs.size());
  double green[2][2], tensor[2][2];
  for (int k = 0; k < 2; ++k) {
    SCOPED_TRACE(k == 0 ? "the chapter's batch" : "four times the batch");
    const app::PanelView* view = rig.panel->view();
    ASSERT_NE(view, nullptr);
    ASSERT_TRUE(view->roofline);
    const app::RooflineView& roof = *view->roofline;
    if (k == 1) {
      rig.panel->setKnob(batchKnob, 4 * view->knobs[batchKnob].value, "en");
      view = rig.panel->view();
    }
    ASSERT_EQ(view->roofline->points.size(), 2u);
    EXPECT_FALSE(view->roofline->points[0].memoryBound);  // prefill
    EXPECT_TRUE(view->roofline->points[1].memoryBound);   // decode
    const std::vector<world::DiePhase> phases = rig.panel->rooflinePhases();
    ASSERT_EQ(phases.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      const app::RooflineView::Point& p = view->roofline->points[i];
      // The roofline's own arithmetic: busy = attainable / peak, streaming = the bytes/s that
      // attainable needs at its intensity over the bandwidth.
      tensor[k][i] = std::min(1.0, p.attainable_flops / roof.peak_flops);
      EXPECT_NEAR(phases[i].shares.tensor, tensor[k][i], 1e-9);
      EXPECT_NEAR(
          phases[i].shares.hbm,
          std::min(1.0, p.attainable_flops / p.intensity_flops_per_byte / roof.bandwidth_Bps),
          1e-9);
    }
    const renderer::Pixels pixels = rig.still();
    size_t cyan[2];
    for (size_t i = 0; i < 2; ++i) {
      // The middle of the die across (x, the dies stand side by side): seen at a slant, a whole
      // die's screen rectangle takes in part of its neighbour.
      world::Aabb middle = dies.die(i).die();
      const double w = middle.max.x - middle.min.x;
      middle.min.x += 0.3 * w, middle.max.x -= 0.3 * w;
      const Rect die = project(rig.camera(), middle);
      ASSERT_GT(die.area(), 1000);
      green[k][i] = double(count(pixels, die, isGreen)) / die.area();
      world::Aabb feed = dies.die(i).die();
      for (const world::Aabb& stack : dies.die(i).stackBounds()) feed.extend(stack);
      cyan[i] = count(pixels, project(rig.camera(), feed), isCyan);
    }
    std::printf(
        "batch x%d: prefill tensor %.2f green %.2f cyan %zu; decode tensor %.2f green %.2f "
        "cyan %zu\n",
        k == 0 ? 1 : 4, tensor[k][0], green[k][0], cyan[0], tensor[k][1], green[k][1], cyan[1]);
    if (k == 0) {
      EXPECT_GT(green[0][0], 0.3) << "prefill, yet its die is not lit";
      EXPECT_LT(green[0][1], 0.5 * green[0][0]) << "decode lit as much as prefill";
      // Decode streams at the full bandwidth, prefill a fraction: more lanes, more cyan.
      EXPECT_GT(world::HbmStream::lanes(phases[1].shares.hbm),
                world::HbmStream::lanes(phases[0].shares.hbm));
      EXPECT_GT(cyan[1], cyan[0]) << "decode's stacks stream no more than prefill's";
    }
  }
  ASSERT_GT(tensor[1][1], 1.5 * tensor[0][1]);  // decode's intensity grows with the batch
  // Decode's green grows as its tensor share does.
  EXPECT_NEAR(green[1][1] / std::max(1e-9, green[0][1]), tensor[1][1] / tensor[0][1],
              0.3 * tensor[1][1] / tensor[0][1]);
}

TEST(TourEvents, PowerFlowsFromTheSubstationToEveryHallAsWideAsItsPower) {
  TourRig rig;
  rig.go(10, 3);  // the campus
  world::World& w = *rig.session.world;
  const std::vector<double>& halls = w.layer<world::PowerFlowLayer>().hallPower_W();
  ASSERT_FALSE(halls.empty());
  const sim::engine::Snapshot snapshot = rig.session.sim->snapshot();
  double sum_W = 0;
  for (double p : halls) sum_W += p;
  // The halls hold every rack of the campus: together they draw the campus's IT power over the
  // last step, every rack the engine does not model at the mean of those it does.
  double modelled_W = 0;
  for (float p : snapshot.rackMeanPower_W) modelled_W += p;
  const double campus_W =
      modelled_W / double(snapshot.cluster->racks) * double(snapshot.cluster->campusRacks);
  EXPECT_NEAR(sum_W, campus_W, 1e-6 * campus_W);
  const auto flows = w.layer<world::PowerFlowLayer>().flow().layout(halls);
  size_t feeds = 0, heat = 0;
  for (const auto& f : flows) {
    std::printf("flow hall %d heat %d %.1f MW box (%.0f %.0f)-(%.0f %.0f)\n", f.hall, f.heat,
                f.power_W * 1e-6, f.box.min.x, f.box.min.z, f.box.max.x, f.box.max.z);
    if (f.hall < 0) {
      EXPECT_LE(f.power_W, sum_W * (1 + 1e-9));  // the trunk carries what lies beyond
      continue;
    }
    const glm::dvec3 size = f.box.size();
    EXPECT_NEAR(std::min(size.x, size.z), world::PowerFlow::width_m(halls[f.hall]), 1e-6);
    EXPECT_NEAR(f.power_W, halls[f.hall], 1e-6 * halls[f.hall]);
    (f.heat ? heat : feeds)++;
  }
  EXPECT_EQ(feeds, halls.size());
  EXPECT_EQ(heat, halls.size());
  EXPECT_NEAR(world::PowerFlow::width_m(30e6), 30 * world::PowerFlow::WIDTH_M_PER_MW, 1e-12);
}

// The power follows the feeders from the substation to the halls (visual brief, tour chapter 10):
// however much the halls draw, no band runs through a generator yard, and the trunk lies between
// the halls' walls and the substation, on the substation's side.
TEST(TourEvents, PowerRunsFromTheSubstationToTheHallsClearOfTheGeneratorYards) {
  TourRig rig;
  rig.go(10, 3);  // the campus
  world::World& w = *rig.session.world;
  const world::Scene& scene = w.scene();
  const auto substation = scene.worldBounds("substation");
  ASSERT_TRUE(substation);
  std::vector<world::Aabb> yards, halls;
  for (size_t h = 0; h < w.layer<world::PowerFlowLayer>().hallPower_W().size(); ++h) {
    if (auto yard = scene.worldBounds("gensets" + std::to_string(h))) yards.push_back(*yard);
    if (auto hall = scene.worldBounds("hall" + std::to_string(h))) halls.push_back(*hall);
  }
  ASSERT_FALSE(yards.empty());
  ASSERT_EQ(halls.size(), w.layer<world::PowerFlowLayer>().hallPower_W().size());
  const auto overlapInPlan = [](const world::Aabb& a, const world::Aabb& b) {
    return a.min.x < b.max.x && b.min.x < a.max.x && a.min.z < b.max.z && b.min.z < a.max.z;
  };
  // The span between the halls and the substation, on its side of them.
  double hallsMin = 1e300, hallsMax = -1e300;
  for (const world::Aabb& hall : halls)
    hallsMin = std::min(hallsMin, hall.min.z), hallsMax = std::max(hallsMax, hall.max.z);
  const bool beyond = substation->center().z > 0.5 * (hallsMin + hallsMax);
  const double spanMin = beyond ? hallsMax : substation->max.z;
  const double spanMax = beyond ? substation->min.z : hallsMin;
  ASSERT_LT(spanMin, spanMax) << "the substation stands level with the halls";
  // The tour's load, and every hall at 60 MW (past the widest band).
  const std::vector<double> heavy(halls.size(), 60e6);
  for (const std::vector<double>& load : {w.layer<world::PowerFlowLayer>().hallPower_W(), heavy}) {
    SCOPED_TRACE(load == heavy ? "60 MW a hall" : "the tour's load");
    for (const auto& f : w.layer<world::PowerFlowLayer>().flow().layout(load)) {
      for (const world::Aabb& yard : yards)
        EXPECT_FALSE(overlapInPlan(f.box, yard))
            << "hall " << f.hall << (f.heat ? " heat" : " power") << " band through a genset yard";
      if (f.heat) continue;
      if (f.hall < 0) {  // the substation's feed and the trunk
        EXPECT_GE(f.box.min.z, spanMin) << "the trunk runs behind the halls";
        EXPECT_LE(f.box.max.z, spanMax) << "the trunk runs past the substation";
      }
      // Power never runs through a hall either: it stops at the wall.
      for (const world::Aabb& hall : halls) EXPECT_FALSE(overlapInPlan(f.box, hall));
    }
  }
}

// Chapter 9: each TP group's trays wear their pipeline stage's colour on every rack of the hall.
// The stage of a rack's slot follows the engine's documented placement (sim/engine/training.cpp):
// group i = stage x dp + replica of tp GPUs sits in rack i mod racks at slot i / racks. Turning
// PP in the panel restarts the engine with it, and the bars and their colours follow.
TEST(TourEvents, EveryTrayWearsItsPipelineStagesColourAndFollowsThePanelsPp) {
  TourRig rig;
  rig.go(9, 1);  // the row of racks
  const world::Station* row = rig.session.world->station("row");
  ASSERT_NE(row, nullptr);
  const app::Panel* panel = rig.panel->panels().find("parallelism");
  ASSERT_NE(panel, nullptr);
  size_t ppKnob = panel->knobs.size();
  for (size_t i = 0; i < panel->knobs.size(); ++i)
    if (panel->knobs[i].path == "workload.pp") ppKnob = i;
  ASSERT_LT(ppKnob, panel->knobs.size());
  size_t bars[2] = {0, 0};
  for (const int pp : {16, 8}) {
    SCOPED_TRACE("pp " + std::to_string(pp));
    if (pp == 8) {
      const auto& choices = panel->knobs[ppKnob].choices;
      const auto at = std::find(choices.begin(), choices.end(), "8");
      ASSERT_NE(at, choices.end());
      rig.panel->setKnob(ppKnob, double(at - choices.begin()), "en");
      auto command = rig.panel->engineCommand(
          app::RunningSim{rig.session.sim->request(), rig.session.sim->time_s()}, "en");
      ASSERT_TRUE(command) << "a turned PP knob must restart the engine with it";
      rig.session.sim->queue(std::move(*command));
      rig.settle();
    }
    const sim::engine::Snapshot snapshot = rig.session.sim->snapshot();
    ASSERT_NE(snapshot.training, nullptr);
    ASSERT_EQ(snapshot.training->desc.pp, pp);
    const sim::engine::Cluster& c = *snapshot.cluster;
    const uint32_t dp = uint32_t(snapshot.training->desc.dp);
    const uint32_t unit = uint32_t(snapshot.training->desc.tp * snapshot.training->desc.cp);
    const uint32_t groups = uint32_t(pp) * dp, slots = c.gpusPerRack / unit;
    const renderer::Pixels pixels = rig.still();
    // The palette as the bars draw it, in the frame's sRGB: the stage's hue at full brightness.
    std::vector<std::array<double, 3>> palette;
    for (int s = 0; s < pp; ++s) {
      world::Look look = world::OverlayTint::lookOf(double(s) / (pp - 1));
      const double peak = std::max({look.r, look.g, look.b});
      auto srgb = [&](double v) {
        v /= peak;
        return 255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1 / 2.4) - 0.055);
      };
      palette.push_back({srgb(look.r), srgb(look.g), srgb(look.b)});
    }
    size_t matched = 0, seen = 0;
    std::vector<int> rackBars(c.racks, 0);
    for (const world::StageBands::Bar& bar :
         rig.session.world->layer<world::StageBandsLayer>().bars()) {
      // Which rack and slot: the bar stands on the rack whose bounds hold it.
      const world::RackMap& racks = rig.session.world->racks();
      uint32_t rack = UINT32_MAX;
      for (uint32_t r = 0; r < racks.rackCount() && r < c.racks; ++r) {
        const world::Aabb& b = racks.rackBounds(r);
        const glm::dvec3 m = bar.box.center();
        if (m.x >= b.min.x - 0.1 && m.x <= b.max.x + 0.1 && m.z >= b.min.z - 0.1 &&
            m.z <= b.max.z + 0.1)
          rack = r;
      }
      ASSERT_NE(rack, UINT32_MAX);
      const uint32_t slot = uint32_t(rackBars[rack]++);
      // The k-th group of the rack in the job: slot k holds group k x racks + rack.
      const uint64_t group = uint64_t(slot) * c.racks + rack;
      ASSERT_LT(group, groups) << "a bar on a tray of spare GPUs";
      EXPECT_EQ(bar.stage, uint32_t(group / dp)) << "rack " << rack << " slot " << slot;
      // In the picture: the pixel at the bar's centre is nearest its own stage's colour.
      const Rect r = project(rig.camera(), bar.box);
      if (r.area() < 4 || rack >= 8) continue;
      const int x = (r.x0 + r.x1) / 2, y = (r.y0 + r.y1) / 2;
      const uint8_t* p = &pixels.rgba[(size_t(y) * pixels.width + x) * 4];
      size_t nearest = 0;
      double best = 1e30;
      for (size_t s = 0; s < palette.size(); ++s) {
        const double d = std::pow(p[0] - palette[s][0], 2) + std::pow(p[1] - palette[s][1], 2) +
                         std::pow(p[2] - palette[s][2], 2);
        if (d < best) best = d, nearest = s;
      }
      ++seen;
      matched += nearest == bar.stage;
    }
    // Every slot of every rack holds a group while the job fills the racks, none beyond.
    for (uint32_t r = 0; r < c.racks; ++r) {
      uint32_t expected = 0;
      for (uint32_t k = 0; k < slots; ++k) expected += uint64_t(k) * c.racks + r < groups;
      if (r < rig.session.world->racks().rackCount() && rackBars[r] > 0) {
        EXPECT_EQ(uint32_t(rackBars[r]), expected) << "rack " << r;
      }
    }
    bars[pp == 8] = rig.session.world->layer<world::StageBandsLayer>().bars().size();
    // The model over the row, cut into its stages: one piece per stage in order, each as long
    // as an even share of Llama 3.1 405B's 126 layers (Meta, arXiv:2407.21783 Table 3), give
    // or take the remainder's one layer.
    const std::vector<world::StageBands::Bar>& ribbon =
        rig.session.world->layer<world::StageBandsLayer>().ribbon();
    ASSERT_EQ(ribbon.size(), size_t(pp));
    double total = 0;
    for (const auto& piece : ribbon)
      total +=
          std::max(piece.box.size().x, piece.box.size().z) / (1 - world::StageBands::CUT_SHARE);
    for (size_t s = 0; s < ribbon.size(); ++s) {
      EXPECT_EQ(ribbon[s].stage, uint32_t(s));
      const double layers = std::max(ribbon[s].box.size().x, ribbon[s].box.size().z) /
                            (1 - world::StageBands::CUT_SHARE) / total * 126.0;
      EXPECT_GE(layers, std::floor(126.0 / pp) - 1e-6) << "stage " << s;
      EXPECT_LE(layers, std::ceil(126.0 / pp) + 1e-6) << "stage " << s;
    }
    EXPECT_GT(seen, 20u) << "the row's bars are not on screen";
    EXPECT_GE(double(matched), 0.9 * double(seen)) << matched << " of " << seen;
    std::printf("pp %d: %zu bars, %zu of %zu on screen in their stage's colour\n", pp,
                bars[pp == 8], matched, seen);
  }
  // Half the stages on as many replicas: half the GPUs in the job, the rest's trays dark.
  EXPECT_LT(double(bars[1]), 0.6 * double(bars[0]));
}

// Chapter 5: the TCO panel's dollars per million tokens as bars behind the chip, as tall as
// their values and none cut by the frame, the chosen accelerator's green; choosing another in
// the panel moves the green.
TEST(TourEvents, TheTcoBarsStandAsTallAsTheirCostsAndTheChosenOneIsGreen) {
  TourRig rig;
  rig.go(5, 0);  // the TPU
  const app::Panel* panel = rig.panel->panels().find("tco");
  ASSERT_NE(panel, nullptr);
  size_t gpuKnob = panel->knobs.size();
  for (size_t i = 0; i < panel->knobs.size(); ++i)
    if (panel->knobs[i].path == "cluster.gpu") gpuKnob = i;
  ASSERT_LT(gpuKnob, panel->knobs.size());
  const std::vector<std::string>& choices = panel->knobs[gpuKnob].choices;
  int greenAt[2] = {-1, -1};
  for (int k = 0; k < 2; ++k) {
    const std::string accelerator = k == 0 ? "h100_sxm" : "mi300x";
    SCOPED_TRACE(accelerator);
    const auto at = std::find(choices.begin(), choices.end(), accelerator);
    ASSERT_NE(at, choices.end());
    rig.panel->setKnob(gpuKnob, double(at - choices.begin()), "en");
    const std::vector<world::ValueBar> bars = rig.panel->valueBars();
    ASSERT_GE(bars.size(), 3u);
    const app::PanelView* view = rig.panel->view();
    ASSERT_NE(view, nullptr);
    const app::PanelRowView* verdict = view->value("cost.per_million_tokens_usd");
    ASSERT_NE(verdict, nullptr);
    // Exactly one chosen, the one whose cost is the verdict's; every bar a comparison row's.
    int chosen = -1;
    for (size_t i = 0; i < bars.size(); ++i) {
      if (!bars[i].chosen) continue;
      EXPECT_EQ(chosen, -1) << "two chosen";
      chosen = int(i);
      EXPECT_NEAR(bars[i].value, verdict->value, 1e-9 * verdict->value);
    }
    ASSERT_GE(chosen, 0);
    greenAt[k] = chosen;
    // In the world: heights in proportion to the costs, the tallest HEIGHT_SHARE of the chip
    // or less, as tall as the frame shows with a margin.
    const world::Station* tpu = rig.session.world->station("tpu");
    ASSERT_NE(tpu, nullptr);
    const world::Camera& camera = rig.camera();
    const world::CullView cull = viewOf(camera);
    const std::vector<world::Aabb> boxes = world::ValueBars::layout(tpu->studioBounds, cull, bars);
    ASSERT_EQ(boxes.size(), bars.size());
    size_t tallest = 0;
    for (size_t i = 0; i < bars.size(); ++i)
      if (bars[i].value > bars[tallest].value) tallest = i;
    const double width = std::max(tpu->studioBounds.size().x, tpu->studioBounds.size().z);
    const double top = boxes[tallest].max.y - tpu->studioBounds.max.y;
    EXPECT_LE(top, world::ValueBars::HEIGHT_SHARE * width * (1 + 1e-9));
    EXPECT_GT(top, 0.05 * width) << "the bars are squashed flat";
    for (size_t i = 0; i < bars.size(); ++i) {
      const double above = boxes[i].max.y - tpu->studioBounds.max.y;
      EXPECT_NEAR(above / top, bars[i].value / bars[tallest].value, 1e-6) << bars[i].label;
      // Nothing cut by the frame: every bar's top inside it, under the margin.
      const Rect r = project(camera, boxes[i]);
      EXPECT_GE(r.y0, int(0.5 * H * world::ValueBars::TOP_MARGIN_SHARE) - 2) << bars[i].label;
    }
    // In the picture: the chosen bar's column is green, the others' are not.
    const renderer::Pixels pixels = rig.still();
    for (size_t i = 0; i < boxes.size(); ++i) {
      world::Aabb upper = boxes[i];
      upper.min.y = tpu->studioBounds.max.y + 0.5 * (boxes[i].max.y - tpu->studioBounds.max.y);
      const Rect r = project(camera, upper);
      if (r.area() < 20) continue;
      const double share = double(count(pixels, r, isGreen)) / r.area();
      if (int(i) == chosen)
        EXPECT_GT(share, 0.3) << bars[i].label;
      else
        EXPECT_LT(share, 0.1) << bars[i].label;
    }
  }
  EXPECT_NE(greenAt[0], greenAt[1]) << "the green did not follow the chosen accelerator";
}

// Chapter 1: the pixel race on two screens; each side lights its share of the frame at its own
// rate, the panel's, until the faster is done: the slower has then lit gpu / cpu frame time of it.
TEST(TourEvents, ThePixelRaceLightsEachScreenAtItsChipsRate) {
  world::PixelRaceDesc race;
  race.left.frame_s = 9.33e-3, race.right.frame_s = 1e-3;
  race.left.lanes = 896, race.right.lanes = 16896;  // 56 cores x 16 AVX-512 lanes; 132 SMs x 128
  const double cycle = world::PixelRace::CYCLE_S;
  EXPECT_NEAR(world::PixelRace::shares(race, 0.5 * cycle).right, 0.5, 1e-9);
  EXPECT_NEAR(world::PixelRace::shares(race, 0.5 * cycle).left, 0.5 / 9.33, 1e-9);
  // The photo finish, held: the GPU done, the CPU at 1 / 9.33; then the race starts again.
  const world::PixelRace::Shares finish = world::PixelRace::shares(race, world::PixelRace::KEY_S);
  EXPECT_EQ(finish.right, 1.0);
  EXPECT_NEAR(finish.left, 1 / 9.33, 1e-9);
  EXPECT_EQ(world::PixelRace::shares(race, cycle + world::PixelRace::HOLD_S).right, 0.0);
  const auto [cpuBands, gpuBands] = world::PixelRace::bands(race);
  EXPECT_EQ(gpuBands, world::PixelRace::MAX_BANDS);
  EXPECT_EQ(cpuBands, uint32_t(std::lround(world::PixelRace::MAX_BANDS * 896.0 / 16896.0)));
  // A side of few units shows each: an H100 SM's 4 tensor cores against its 128 FP32 lanes, lit
  // in whole stamps (4 of them: 0.3 of the way shows 0.25).
  world::PixelRaceDesc tiles;
  tiles.left = {1.0 / 256, 128, 0, ""};
  tiles.right = {1.0 / 4096, 4, 4, ""};
  EXPECT_EQ(world::PixelRace::bands(tiles).second, 4u);
  EXPECT_NEAR(world::PixelRace::shares(tiles, 0.3 * cycle).right, 0.25, 1e-12);
  EXPECT_NEAR(world::PixelRace::shares(tiles, world::PixelRace::KEY_S).left, 256.0 / 4096, 1e-12);

  TourRig rig;
  rig.go(1, 1);  // the die, with the chapter's panel race
  const std::optional<world::PixelRaceDesc> shown = rig.panel->pixelRace();
  ASSERT_TRUE(shown);
  const app::PanelView* view = rig.panel->view();
  ASSERT_NE(view, nullptr);
  ASSERT_TRUE(view->race);
  EXPECT_EQ(shown->left.frame_s, view->race->cpuFrame_s);
  EXPECT_EQ(shown->right.frame_s, view->race->gpuFrame_s);
  const world::Station* die = rig.session.world->station("die");
  ASSERT_NE(die, nullptr);
  const world::PixelRace::Screens screens =
      world::PixelRace::layout(die->studioBounds, rig.camera().right(), rig.camera().forward());
  const Rect cpu = project(rig.camera(), screens.left), gpu = project(rig.camera(), screens.right);
  ASSERT_GT(cpu.area(), 400);
  ASSERT_GT(gpu.area(), 400);
  // Half way, and the photo finish: both sides' lit areas double.
  double lit[2][2];
  for (int k = 0; k < 2; ++k) {
    rig.view->holdEventsAt(k == 0 ? 0.5 * cycle : world::PixelRace::KEY_S);
    const renderer::Pixels pixels = rig.still();
    lit[k][0] = double(count(pixels, cpu, isGreen)) / cpu.area();
    lit[k][1] = double(count(pixels, gpu, isGreen)) / gpu.area();
  }
  EXPECT_NEAR(lit[1][0] / lit[0][0], 2.0, 0.4) << lit[0][0] << " -> " << lit[1][0];
  EXPECT_NEAR(lit[1][1] / lit[0][1], 2.0, 0.4) << lit[0][1] << " -> " << lit[1][1];
  // At the finish the GPU's screen is lit as many times more as it is faster (the CPU's few
  // bands leave a fifth of each band dark between them).
  const double speedup = view->race->cpuFrame_s / view->race->gpuFrame_s;
  EXPECT_NEAR(lit[1][1] / lit[1][0], speedup / 0.8, 0.25 * speedup / 0.8)
      << lit[1][1] << " / " << lit[1][0];
}

TEST(TourEvents, PowerFlowLabelsSayTheirMegawatts) {
  world::PowerFlow::Flow hall;
  hall.hall = 2;
  hall.power_W = 6.1e6;
  EXPECT_EQ(world::powerFlowLabel(hall), "hall 2  6.1 MW");
  world::PowerFlow::Flow trunk;
  trunk.power_W = 30.04e6;
  EXPECT_EQ(world::powerFlowLabel(trunk), "substation  30.0 MW IT, step mean");
}

TEST(TourEvents, TheHbmFirehoseRunsFullInDecodeAndThinInPrefill) {
  EXPECT_EQ(world::HbmStream::lanes(0.0), 0u);
  EXPECT_EQ(world::HbmStream::lanes(0.01), 1u);  // any traffic shows
  EXPECT_EQ(world::HbmStream::lanes(1.0), world::HbmStream::MAX_LANES);
  TourRig rig;
  rig.go(2, 1);  // the H100 package beside its six HBM3 stacks, with the chapter's roofline
  const world::Station* gh100 = rig.session.world->station("gh100");
  ASSERT_NE(gh100, nullptr);
  ASSERT_FALSE(rig.session.world->layer<world::FirehoseLayer>().streams().empty());
  size_t cyan[2] = {0, 0};
  double hbm[2] = {0, 0};
  for (size_t i = 0; i < 2; ++i) {  // prefill, then decode
    const double t_s = (double(i) + 0.5) * app::TourPanel::ROOFLINE_PHASE_S;
    rig.view->holdEventsAt(t_s);
    hbm[i] = rig.panel->rooflineGlow(t_s)->hbm;
    cyan[i] = count(rig.still(), project(rig.camera(), gh100->bounds), isCyan);
  }
  EXPECT_LT(hbm[0], 0.5);          // prefill needs a fraction of the bandwidth
  EXPECT_NEAR(hbm[1], 1.0, 1e-9);  // decode streams it all
  EXPECT_GT(cyan[0], 0u);
  // The lanes follow the share: more of them, more cyan.
  EXPECT_GT(double(cyan[1]), 1.5 * double(world::HbmStream::lanes(hbm[1])) /
                                 world::HbmStream::lanes(hbm[0]) /
                                 double(world::HbmStream::MAX_LANES) * double(cyan[0]))
      << cyan[0] << " -> " << cyan[1];
}
