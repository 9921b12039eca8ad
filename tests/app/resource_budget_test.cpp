// Resource budgets of issue 19: image sizes the UI can draw at (reproducer 1), the memory an image
// size implies (reproducer 10) and the simulated time one command may run (reproducer 8).
#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <imgui.h>

#include "app/session/render_options.h"
#include "app/session/sim_budget.h"
#include "app/session/sim_host.h"
#include "app/ui/ui_layer.h"
#include "sim/catalog.h"
#include "tests/common/cli.h"
#include "tests/common/shipped_catalog.h"
#include "world/tour/tour.h"

namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(DCWALK_BINARY_DIR) / "resource-budget-test" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

bool pngSize(const fs::path& file, uint32_t& width, uint32_t& height) {
  std::ifstream in(file, std::ios::binary);
  unsigned char h[24] = {};
  if (!in.read(reinterpret_cast<char*>(h), sizeof h)) return false;
  width = (uint32_t(h[16]) << 24) | (h[17] << 16) | (h[18] << 8) | h[19];
  height = (uint32_t(h[20]) << 24) | (h[21] << 16) | (h[22] << 8) | h[23];
  return true;
}

struct UiFrame {
  uint64_t atlasTexels = 0;  // the font atlas the renderer uploads
  float windowMinSize = 0;   // ImGui refuses a style below 1
};

// One headless UI frame with a HUD and a caption at `fontPixels` on a `w` x `h` screen.
UiFrame drawOneFrame(float fontPixels, float w, float h) {
  app::UiLayer ui(fontPixels);
  ImGuiIO& io = ImGui::GetIO();
  unsigned char* pixels = nullptr;
  int texW = 0, texH = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &texW, &texH);  // what the renderer uploads
  ui.beginFrame(w, h, 1.0f / 30);
  app::HudInfo hud;
  hud.title = "GB200 NVL72 rack";
  hud.subtitle = "72 GPUs in one NVLink domain";
  hud.status = "t = 0.00 s";
  hud.caption = "A caption that wraps over a few lines of a small screen.";
  ui.drawHud(hud, false);
  ui.endFrame();
  return {uint64_t(texW) * uint64_t(texH), ImGui::GetStyle().WindowMinSize.x};
}

const sim::Catalog& catalog() {
  return testcatalog::shipped();
}

}  // namespace

// Reproducer 1: a 16-pixel-tall image asked for a 0.4 px font; ImGui's scaled WindowMinSize
// rounded to 0 and NewFrame aborted ("Invalid style setting"). Any font size now draws a frame.
TEST(UiSizeGuard, AnyFontSizeDrawsAFrameWithoutAborting) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (float px : {nan, -1.0f, 0.0f, 0.2f, 0.4f, 5.0f, 6.0f, 18.0f}) {
    EXPECT_GE(drawOneFrame(px, 16, 16).windowMinSize, 1.0f) << px;
  }
}

// Reproducer 3: the longest caption a strings file may hold draws in one frame (a 50,000-byte
// one overflowed ImGui's 65,536 vertices: 4 a glyph).
TEST(UiSizeGuard, TheLongestCaptionDraws) {
  app::UiLayer ui(18.0f * 2160 / 720);
  unsigned char* pixels = nullptr;
  int texW = 0, texH = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &texW, &texH);  // as the renderer does
  app::HudInfo hud;
  hud.title = std::string(world::MAX_NAME_BYTES, 'T');
  hud.caption = std::string(world::MAX_CAPTION_BYTES, 'w');
  ImDrawData* data = nullptr;
  ui.setTextCapture(true);
  for (int frame = 0; frame < 2; ++frame) {  // ImGui sizes a new window in its first frame
    ui.beginFrame(3840, 2160, 1.0f / 30);
    ui.drawHud(hud, false);
    data = ui.endFrame();
  }
  ASSERT_NE(data, nullptr);
  EXPECT_GT(data->TotalVtxCount, 0);
  // Every glyph handed to ImGui (the caption keeps to its region, so ImGui clips what lies
  // outside it instead of emitting it).
  EXPECT_NE(ui.capturedText().find(hud.caption), std::string::npos);
}

// 16x8192 took 1.8 GB: the atlas of a 204 px font. Fonts are rasterised at 64 px at most.
TEST(UiSizeGuard, HugeFontsShareTheAtlasOfTheLargestRasterSize) {
  const uint64_t at64 = drawOneFrame(64, 1280, 720).atlasTexels;
  const uint64_t at205 = drawOneFrame(18.0f * 8192 / 720, 16, 8192).atlasTexels;
  const uint64_t at819 = drawOneFrame(18.0f * 8192 / 720 * 4, 16, 8192).atlasTexels;  // x4
  EXPECT_EQ(at205, at64);
  EXPECT_EQ(at819, at64);
  EXPECT_LE(at64, uint64_t(4096) * 4096);
  EXPECT_LT(drawOneFrame(18, 1280, 720).atlasTexels,
            at64);  // smaller fonts still get a smaller atlas
}

TEST(UiSizeGuard, SmallImagesInsideTheAllowedRangeRender) {
  const fs::path dir = scratch("small");
  for (const char* size : {"16x16", "17x17", "8192x16"}) {
    const fs::path png = dir / (std::string(size) + ".png");
    auto run = testcli::dcwalk("shot --station rack --size " + std::string(size) + " --out '" +
                               png.string() + "'");
    ASSERT_EQ(run.status, 0) << size << ": " << run.out;
    uint32_t w = 0, h = 0;
    ASSERT_TRUE(pngSize(png, w, h)) << size;
    EXPECT_EQ(std::to_string(w) + "x" + std::to_string(h), size);
  }
  auto tour = testcli::dcwalk("tour --headless --chapter 1 --size 20x20 --ui-scale 0.5 --out '" +
                              (dir / "tour").string() + "'");
  EXPECT_EQ(tour.status, 0) << tour.out;
}

TEST(UiSizeGuard, SizesThatOverflowThirtyTwoBitsAreRefused) {
  for (const char* size : {"4294967312x16", "4294967360x4294967360", "16x18446744073709551632",
                           "-16x16", "+16x16", "16x16x16", "0x0", "8193x16", "15x16"}) {
    auto run =
        testcli::dcwalk("shot --size " + std::string(size) + " --out " + testcli::scratchPng());
    EXPECT_EQ(run.status, 2) << size << ": " << run.out;
    EXPECT_NE(run.out.find("--size"), std::string::npos) << size << ": " << run.out;
  }
}

// Reproducer 10: 8192x8192 peaked at 2.5 GB (the font atlas was 1.6 GB of it). What a size
// implies, from the bytes a pixel takes at each quality: 8192x8192 is 64 Mi pixels.
TEST(ImageMemory, TheLargestLowQualityImageFitsAndHighQualityIsCapped) {
  const uint64_t pixels = uint64_t(8192) * 8192;
  EXPECT_EQ(app::imageMemoryBytes(8192, 8192, renderer::Quality::Low), pixels * 22);
  EXPECT_EQ(app::checkImageMemory(8192, 8192, renderer::Quality::Low), "");
  EXPECT_EQ(app::checkImageMemory(4096, 4096, renderer::Quality::High), "");
  const std::string refusal = app::checkImageMemory(8192, 8192, renderer::Quality::High);
  EXPECT_NE(refusal.find("8192x8192"), std::string::npos) << refusal;
  EXPECT_NE(refusal.find("--quality low"), std::string::npos) << refusal;
  // Budget + the ~150 MB rest of a run stays under 2 GiB.
  EXPECT_LE(app::IMAGE_MEMORY_BUDGET_BYTES + (256ull << 20), 2ull << 30);
}

TEST(ImageMemory, TheLargestImageStaysUnderTwoGigabytes) {
  const fs::path dir = scratch("largest");
  auto run = testcli::dcwalk("shot --station rack --quality low --size 8192x8192 --out '" +
                             (dir / "big.png").string() + "'");
  ASSERT_EQ(run.status, 0) << run.out;
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);  // the largest child waited for: dcwalk
  EXPECT_LT(uint64_t(usage.ru_maxrss) * 1024, 2ull << 30) << "peak " << usage.ru_maxrss << " KiB";
  auto high = testcli::dcwalk("shot --station rack --quality high --size 8192x8192 --out '" +
                              (dir / "high.png").string() + "'");
  EXPECT_EQ(high.status, 2) << high.out;
  EXPECT_FALSE(fs::exists(dir / "high.png"));
}

// Reproducer 8: `shot --time 1e9` ran ~2 days; the flag stops at an hour, and the host refuses
// to run further than that at once, so no command path can hang on simulated time.
TEST(SimBudget, TheHostRefusesRunsBeyondTheBudget) {
  auto created = app::SimHost::create(catalog(), {"training_405b", {}, {}});
  ASSERT_TRUE(created) << created.error();
  app::SimHost& host = **created;
  EXPECT_FALSE(host.runTo(1e9));
  EXPECT_FALSE(host.runTo(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_EQ(host.time_s(), 0.0);
  EXPECT_TRUE(host.notice().error);
  EXPECT_NE(host.notice().text.find("3600"), std::string::npos) << host.notice().text;
  host.queue(app::SimCommand::runFor(1e9));
  host.applyCommands();
  EXPECT_EQ(host.time_s(), 0.0);
  EXPECT_TRUE(host.runTo(2.0));
  EXPECT_GE(host.time_s(), 2.0);
}

TEST(SimBudget, ALongRunReportsProgressOnStderr) {
  auto created = app::SimHost::create(catalog(), {"training_405b", {}, {}});
  ASSERT_TRUE(created) << created.error();
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  // Thresholds of 0: every clock read prints, so the test does not depend on the machine's speed.
  app::SimProgress progress("dcwalk shot", 0, 20.0, out, 0.0, 0.0);
  ASSERT_TRUE((*created)->runTo(20.0, &progress));
  EXPECT_GE(progress.lines(), 3);  // 2,000 steps: a line every 256 steps, and the last
  std::rewind(out);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), out));
  std::fclose(out);
  EXPECT_NE(text.find("dcwalk shot: simulated "), std::string::npos) << text;
  EXPECT_NE(text.find("of 20 s (100 %)"), std::string::npos) << text;
}

TEST(SimBudget, AShortRunPrintsNoProgress) {
  auto run = testcli::dcwalk("sim --engine training_405b --until 1 --series json", true);
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out.find("dcwalk sim: simulated"), std::string::npos);
}
