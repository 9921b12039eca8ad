// Labels at booth size (1280x720) with the live overlays on: every placed label is whole on
// screen, none overlaps another or a HUD window, its text is at least the UI font's 18 px at 720p,
// and its text against its plate reaches WCAG 2.1's 4.5:1 contrast whatever lies behind the plate
// (white or black). Each frame is also a golden, so a change in how labels look is seen and looked
// at.
#include <cmath>

#include <gtest/gtest.h>
#include <imgui.h>

#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_view.h"
#include "renderer/vk/validation.h"
#include "tests/renderer/golden.h"

namespace {

// WCAG 2.1 relative luminance of an sRGB colour (components 0..255).
double luminance(double r, double g, double b) {
  auto channel = [](double c) {
    c /= 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

double contrast(double a, double b) {
  return (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
}

// IM_COL32 packing: R in the low byte.
double component(uint32_t rgba, int i) {
  return double((rgba >> (8 * i)) & 0xffu);
}

// The text's contrast against its plate blended over `backdrop` (0..255 grey).
double labelContrast(uint32_t text, double backdrop) {
  const double alpha = component(app::LABEL_PLATE_RGBA, 3) / 255.0;
  double plate[3];
  for (int i = 0; i < 3; ++i)
    plate[i] = component(app::LABEL_PLATE_RGBA, i) * alpha + backdrop * (1 - alpha);
  return contrast(luminance(component(text, 0), component(text, 1), component(text, 2)),
                  luminance(plate[0], plate[1], plate[2]));
}

struct Case {
  const char* station;
  world::OverlayMetric metric;
  size_t minLabels;      // station names plus live values seen in these frames when looked at
  bool traffic = false;  // with the traffic on: the fabric legs' labels
};

}  // namespace

TEST(LabelLegibility, OverlayStationsAtBoothSize) {
  app::RenderOptions options;  // 1280x720
  options.validation = true;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  const uint32_t errorsBefore = vkutil::validationErrorCount();
  session.sim->runTo(12.0);  // inside the first training step's pipeline phase
  const Case cases[] = {
      // The hero of each station has no label naming it (the title does); its neighbours and
      // what lies inside do.
      {"rack", world::OverlayMetric::Power, 1},
      {"row", world::OverlayMetric::Temperature, 4},
      {"hall", world::OverlayMetric::Utilisation, 2},
      {"fabric", world::OverlayMetric::LinkLoad, 1, true},
  };
  const float fontPx = app::fontPixelsFor(options.height);
  EXPECT_GE(fontPx, 18.0f);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.station);
    const world::Station* station = session.world->station(c.station);
    ASSERT_NE(station, nullptr);
    app::StationView view;  // what `dcwalk shot --overlay` draws
    view.camera().setPose(world::toPose(station->viewpoint));
    view.setStation(station);
    view.setOverlay(c.metric);
    view.setTraffic(c.traffic);
    const renderer::Pixels pixels =
        app::renderStill(session, view, {options.width, options.height}).pixels;
    const auto& placed = session.ui->placedLabels();
    EXPECT_GE(placed.size(), c.minLabels);
    for (size_t i = 0; i < placed.size(); ++i) {
      const float* b = placed[i].box;
      SCOPED_TRACE(placed[i].text);
      EXPECT_GE(b[0], 0.0f);
      EXPECT_GE(b[1], 0.0f);
      EXPECT_LE(b[2], float(options.width));
      EXPECT_LE(b[3], float(options.height));
      EXPECT_GE(b[3] - b[1], fontPx);  // the text line plus its padding
      EXPECT_GE(labelContrast(placed[i].rgba, 255.0), 4.5);
      EXPECT_GE(labelContrast(placed[i].rgba, 0.0), 4.5);
      for (const app::ScreenRect& w : session.ui->windowRects()) {
        const bool underWindow = b[0] < w[2] && w[0] < b[2] && b[1] < w[3] && w[1] < b[3];
        EXPECT_FALSE(underWindow) << "under a HUD window at " << w[0] << ", " << w[1];
      }
      for (size_t j = 0; j < i; ++j) {
        const float* o = placed[j].box;
        const bool overlap = b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3];
        EXPECT_FALSE(overlap) << "overlaps " << placed[j].text;
      }
    }
    golden::expectMatchesGolden(std::string("labels_") + c.station, pixels);
  }
  EXPECT_EQ(vkutil::validationErrorCount(), errorsBefore);
}

TEST(LabelLegibility, LabelsKeepClearOfAWindowFirstDrawnInTheSameFrame) {
  // A window that appears in this very frame (the legend when an overlay is switched on, a
  // panel opening) must push labels away at once: placing against the previous frame's windows
  // let such a window cover a label.
  app::RenderOptions options;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  world::RenderList list;
  world::Label label;
  label.anchor[2] = -10.0f;  // straight ahead: the middle of the screen
  label.text = "rack 7  61 kW";
  list.labels.push_back(label);
  const float width = float(options.width), height = float(options.height);

  auto frame = [&](bool withWindow) {
    session.ui->beginFrame(width, height, 1.0f / 30.0f);
    if (withWindow) {
      ImGui::SetNextWindowPos(ImVec2(0.25f * width, 0.25f * height));
      ImGui::SetNextWindowSize(ImVec2(0.5f * width, 0.5f * height));
      ImGui::Begin("covers the middle", nullptr, ImGuiWindowFlags_NoSavedSettings);
      ImGui::TextUnformatted("a panel");
      ImGui::End();
    }
    const int placed = session.ui->drawLabels(list, width, height);
    session.ui->endFrame();
    return placed;
  };
  EXPECT_EQ(frame(false), 1);
  EXPECT_EQ(frame(true), 0);   // the window's first frame
  EXPECT_EQ(frame(false), 1);  // and gone again once the window is
}
