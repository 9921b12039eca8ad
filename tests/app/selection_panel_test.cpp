// The selection panel (app/ui/selection_panel.h) as ImGui draws it: the history plot of the
// first live number keeps its line clear of text — its label (the number's name and its range)
// stands above the plot, not over the line where ImGui puts a plot's overlay.
#include <gtest/gtest.h>
#include <imgui.h>

#include "app/ui/selection_panel.h"
#include "app/ui/widgets.h"
#include "tests/common/shipped_catalog.h"
#include "tests/world/world_test_fixture.h"

namespace {

TEST(SelectionPanel, TheHistoryPlotsLabelIsNotDrawnOverItsLine) {
  auto engine = worldtest::engineFor("training_405b");
  const sim::Catalog* catalog = &testcatalog::shipped();
  const world::World& world = worldtest::defaultWorld();
  world::PickHit hit;
  hit.path = world.racks().pathOfRack(0) + "/power_shelf0";  // a part of the hero rack
  hit.part = "power shelf";
  app::SelectionPanel panel;
  for (double t_s = 0.5; t_s <= 6.0; t_s += 0.5) {  // a history with a rise in it
    engine->advanceTo(t_s);
    panel.update(hit, world, engine->snapshot(), *catalog);
  }
  ASSERT_TRUE(panel.active());
  ASSERT_EQ(panel.info().kind, world::SelectionKind::Rack);

  ImGuiContext* context = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(1280, 720);
  io.DeltaTime = 1.0f / 30.0f;
  ImGui::GetStyle().AntiAliasedLinesUseTex = false;  // lines from the white pixel, as rects are
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  for (int frame = 0; frame < 2; ++frame) {  // a window shows from its second frame
    app::clearDrawnButtons();
    ImGui::NewFrame();
    EXPECT_TRUE(panel.draw({880, 40, 1270, 700}, "en"));
    ImGui::Render();
  }
  const app::DrawnButton* plot = nullptr;
  for (const app::DrawnButton& b : app::drawnButtons())
    if (b.id == "history") plot = &b;
  ASSERT_NE(plot, nullptr) << "the plot is recorded";
  EXPECT_NE(plot->label.find("power"), std::string::npos) << plot->label;
  // Glyphs are the quads whose texture coordinates are not the font atlas's white pixel (what
  // rectangles and, with AntiAliasedLinesUseTex off, lines are drawn with).
  const ImVec2 white = io.Fonts->TexUvWhitePixel;
  int glyphVertices = 0, insidePlot = 0;
  const ImDrawData* data = ImGui::GetDrawData();
  for (int l = 0; l < data->CmdListsCount; ++l) {
    for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer) {
      if (v.uv.x == white.x && v.uv.y == white.y) continue;
      ++glyphVertices;
      const bool inside = v.pos.x > plot->rect[0] && v.pos.x < plot->rect[2] &&
                          v.pos.y > plot->rect[1] && v.pos.y < plot->rect[3];
      if (inside) ++insidePlot;
    }
  }
  ImGui::DestroyContext(context);
  EXPECT_GT(glyphVertices, 100) << "the panel's text is drawn";
  EXPECT_EQ(insidePlot, 0) << "glyph vertices inside the plot " << plot->rect[0] << ","
                           << plot->rect[1] << " – " << plot->rect[2] << "," << plot->rect[3];
}

}  // namespace
