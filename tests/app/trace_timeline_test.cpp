// The step timeline fed by a trace (--trace): its phases are the traced step's compute, exposed
// communication, memcpy alone and idle, checked against unions of the raw intervals computed
// here (not the breakdown's helpers); the replay host's timeline carries the measured vs
// modelled lines, and the timeline panel draws them (read back through ImGui's text log).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <imgui.h>

#include "app/session/tour_session.h"
#include "app/session/trace_replay.h"
#include "app/ui/narration.h"
#include "app/ui/timeline.h"
#include "app/ui/timeline_panel.h"
#include "sim/catalog.h"
#include "sim/trace/classify.h"
#include "sim/trace/rank_trace.h"
#include "tests/common/paths.h"
#include "tests/common/shipped_catalog.h"
#include "tests/world/world_test_fixture.h"

namespace {

namespace st = sim::trace;

std::string tracePath(const std::string& name) {
  return (testpaths::sharedDir() / "testdata" / "traces" / name).string();
}

using Span = std::pair<int64_t, int64_t>;

// Length of the union of `spans`, ns: sort by start and merge.
int64_t unionOf(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end());
  int64_t total = 0, start = 0, end = -1;
  for (const Span& s : spans) {
    if (s.first > end) {
      if (end > start) total += end - start;
      start = s.first;
      end = s.second;
    } else {
      end = std::max(end, s.second);
    }
  }
  if (end > start) total += end - start;
  return total;
}

// The step's measured quantities from its raw intervals, seconds.
struct Expected {
  double span_s = 0, compute_s = 0, exposed_s = 0, idle_s = 0;
};

Expected fromRawEvents(const st::RankTrace& rank, int64_t step) {
  std::vector<Span> compute, computeOrComm, all;
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (const st::GpuInterval& i : rank.intervals) {
    if (i.step != step) continue;
    const Span s{i.start_ns, i.end_ns};
    first = std::min(first, i.start_ns);
    last = std::max(last, i.end_ns);
    all.push_back(s);
    if (st::isCompute(i.cls)) compute.push_back(s);
    if (st::isCompute(i.cls) || i.cls == st::GpuClass::Communication) computeOrComm.push_back(s);
  }
  Expected e;
  e.span_s = double(last - first) * 1e-9;
  e.compute_s = double(unionOf(compute)) * 1e-9;
  // NCCL time nothing computes under: (compute u NCCL) minus compute.
  e.exposed_s = double(unionOf(computeOrComm) - unionOf(compute)) * 1e-9;
  e.idle_s = e.span_s - double(unionOf(all)) * 1e-9;
  return e;
}

const st::RankTrace& sampledRank0() {
  static const st::RankTrace rank = [] {
    auto loaded = st::loadRankTrace(tracePath("sampled_rank-0.json.gz"));
    EXPECT_TRUE(loaded) << loaded.error();
    return loaded ? std::move(*loaded) : st::RankTrace{};
  }();
  return rank;
}

TEST(TraceTimeline, PhasesAreTheTracedStepsUnionsOfItsRawEvents) {
  const st::RankTrace& rank = sampledRank0();
  const std::vector<st::Breakdown> perStep = st::stepBreakdowns(rank);
  const st::Breakdown whole = st::breakdown(rank);
  int checked = 0;
  for (const st::StepWindow& w : rank.steps) {
    if (w.gpuEvents == 0) continue;
    const int64_t middle_ns = w.start_ns + (w.end_ns - w.start_ns) / 2;
    const app::Timeline t = app::traceTimelineOf(rank, perStep, whole, middle_ns);
    ASSERT_TRUE(t.measured);
    // Windows may overlap (the GPU runs step N while N+1 launches): the first one holding the
    // time is shown.
    if (t.stepNumber != w.number) continue;
    const Expected e = fromRawEvents(rank, w.number);
    ASSERT_EQ(t.phases.size(), 4u);
    const double tol = 1e-9 + 1e-6 * e.span_s;
    EXPECT_EQ(t.phases[0].label, "compute");
    EXPECT_NEAR(t.phases[0].duration_s, e.compute_s, tol) << "step " << w.number;
    EXPECT_EQ(t.phases[1].label, "exposed communication");
    EXPECT_NEAR(t.phases[1].duration_s, e.exposed_s, tol) << "step " << w.number;
    EXPECT_EQ(t.phases[3].label, "idle");
    EXPECT_NEAR(t.phases[3].duration_s, e.idle_s, tol) << "step " << w.number;
    EXPECT_NEAR(t.step_s, e.span_s, tol);
    EXPECT_NEAR(t.step_s, double(w.end_ns - w.start_ns) * 1e-9, tol);
    double sum_s = 0;
    for (const app::TimelineSegment& s : t.phases) {
      EXPECT_GE(s.duration_s, 0) << s.label;
      sum_s += s.duration_s;
    }
    EXPECT_NEAR(sum_s, t.step_s, tol);  // exclusive shares fill the step
    EXPECT_NEAR(t.cursor_s, 0.5 * t.step_s, 1e-6 * t.step_s);
    ++checked;
  }
  EXPECT_GT(checked, 0) << "sampled_rank-0 has ProfilerSteps with GPU events";
}

TEST(TraceTimeline, OutsideEveryStepItIsTheWholeTrace) {
  const st::RankTrace& rank = sampledRank0();
  const st::Breakdown whole = st::breakdown(rank);
  // Past the last GPU event no step holds the clock.
  const app::Timeline t =
      app::traceTimelineOf(rank, st::stepBreakdowns(rank), whole, INT64_MAX / 2);
  EXPECT_EQ(t.stepNumber, -1);
  int64_t last = 0;
  for (const st::GpuInterval& i : rank.intervals) last = std::max(last, i.end_ns);
  EXPECT_NEAR(t.step_s, double(last) * 1e-9, 1e-9);  // the origin is the first GPU event
}

st::StepShares shares(double compute, double exposedCommunication, double idle) {
  st::StepShares s;
  s.compute = compute;
  s.exposedCommunication = exposedCommunication;
  s.idle = idle;
  return s;
}

// The text ImGui renders while `draw` runs, through its log.
template <typename Draw>
std::string drawnText(Draw draw) {
  ImGuiContext* context = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(1280, 720);
  io.DeltaTime = 1.0f / 30.0f;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  std::string text;
  for (int frame = 0; frame < 2; ++frame) {  // a window shows from its second frame
    ImGui::NewFrame();
    ImGui::LogToClipboard();
    draw();
    ImGui::LogFinish();
    ImGui::Render();
    text = ImGui::GetClipboardText();
  }
  ImGui::DestroyContext(context);
  return text;
}

TEST(TraceTimeline, ThePanelDrawsMeasuredVersusModelledWithTheLargestGapNamed) {
  const st::StepShares measured = shares(0.60, 0.30, 0.10), modelled = shares(0.80, 0.03, 0.17);
  app::Timeline t;
  t.training = t.measured = true;
  t.stepNumber = 7;
  t.rank = 0;
  t.step_s = 0.5;
  t.phases = {{"compute", 0.3}, {"exposed communication", 0.15}, {"memcpy", 0}, {"idle", 0.05}};
  t.comparison = app::comparisonLines(measured, modelled, "en");
  app::TimeState state;
  state.controls = false;
  std::vector<app::SimCommand> commands;
  const std::string text = drawnText([&] {
    app::drawTimeline(t, state, {0, 400, 900, 700}, "en", commands);
  });
  EXPECT_NE(text.find("ProfilerStep#7"), std::string::npos) << text;
  EXPECT_NE(text.find("Measured / modelled:"), std::string::npos) << text;
  EXPECT_NE(text.find("compute 60.0 / 80.0 %"), std::string::npos) << text;
  EXPECT_NE(text.find("exposed communication 30.0 / 3.0 %"), std::string::npos) << text;
  EXPECT_NE(text.find("idle 10.0 / 17.0 %"), std::string::npos) << text;
  // |30 - 3| = 27 points is the largest of 20, 27 and 7.
  EXPECT_NE(text.find("Largest gap: exposed communication: 30.0 % measured, 3.0 % modelled"),
            std::string::npos)
      << text;
  EXPECT_TRUE(commands.empty());  // no controls drawn, nothing to click
  const std::vector<std::string> de = app::comparisonLines(measured, modelled, "de");
  EXPECT_NE(de[2].find("Größte Abweichung: offene Kommunikation"), std::string::npos) << de[2];
}

TEST(TraceTimeline, TheReplayHostsTimelineComparesItsStepWithTheModel) {
  auto engine = worldtest::engineFor("training_405b");
  const sim::Catalog* catalog = &testcatalog::shipped();
  app::TraceRequest request;
  request.files = {tracePath("sampled_rank-0.json.gz"), tracePath("sampled_rank-1.json.gz")};
  const st::RankTrace& rank = sampledRank0();
  const auto stepWithEvents =
      std::find_if(rank.steps.begin(), rank.steps.end(), [](auto& w) { return w.gpuEvents > 0; });
  ASSERT_NE(stepWithEvents, rank.steps.end());
  request.step = stepWithEvents->number;
  auto host = app::ReplayHost::open(request, engine->snapshot(), *catalog);
  ASSERT_TRUE(host) << host.error();
  ASSERT_FALSE((*host)->comparisons().empty());
  const app::Timeline t = (*host)->timeline("en");
  EXPECT_EQ(t.stepNumber, *request.step);
  ASSERT_EQ(t.comparison.size(), 3u);
  // The lines compare the step shown with the model's step of the scenario.
  EXPECT_EQ(t.comparison,
            app::comparisonLines(t.measuredShares, (*host)->comparisons().front().modelled, "en"));
  const Expected e = fromRawEvents(rank, *request.step);
  EXPECT_NEAR(t.measuredShares.exposedCommunication, e.exposed_s / e.span_s, 1e-6);
  // Without a trace the engine's timeline is shown.
  EXPECT_FALSE(app::stepTimeline(nullptr, engine->snapshot(), "en").measured);
}

// The finale of a tour with a trace asks its question of the visitor's job: its narration names
// the measured and modelled shares through placeholders, filled from the shares it is given.
TEST(TraceTimeline, TheFinaleWithATraceNarratesMeasuredVersusModelled) {
  const st::StepShares measured = shares(0.612, 0.276, 0.101);
  const st::StepShares modelled = shares(0.80, 0.031, 0.169);
  app::NarrationSources sources;
  sources.measured = &measured;
  sources.modelled = &modelled;
  for (const std::string language : {"en", "de"}) {
    SCOPED_TRACE(language);
    world::TourPlayerDesc desc;
    desc.language = language;
    for (const bool traced : {false, true}) {
      auto player = app::makeTourPlayer(worldtest::defaultWorld(), "default", desc, traced);
      ASSERT_TRUE(player) << player.error();
      ASSERT_TRUE(player->jumpToFinale());
      const world::TourChapter& finale = player->tour().chapters[player->frame().chapter];
      std::string all;
      for (const world::TourStep& step : finale.steps) {
        for (const std::string& key : step.narration) {
          std::vector<std::string> unresolved;
          all += app::fillNarration(player->text(key), sources, &unresolved) + "\n";
          if (traced) {
            EXPECT_TRUE(unresolved.empty()) << key << ": " << unresolved.front();
          }
        }
      }
      // 61.2 %, 27.6 %, 10.1 % measured; 80.0 %, 3.1 %, 16.9 % modelled, each joined to its unit.
      for (const char* share : {"61.2", "27.6", "10.1", "80.0", "3.1", "16.9"}) {
        const bool shown = all.find(std::string(share) + "\u00a0%") != std::string::npos;
        EXPECT_EQ(shown, traced) << share << " in\n" << all;
      }
    }
  }
}

}  // namespace
