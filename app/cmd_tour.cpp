// `dcwalk tour` (the default command): with a display, the window; without one (or with
// --headless), every station's key frame rendered to PNGs plus a contact sheet.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "app/commands.h"
#include "app/session.h"
#include "app/window_mode.h"
#include "renderer/image_io.h"

namespace app {
namespace {

struct TourOptions {
  RenderOptions render;
  bool headless = false;
  std::string out = "out";
  WindowModeOptions window;
};

bool haveDisplay() {
  const char* x = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x && *x) || (wayland && *wayland);
}

// The stations in tour order: the ladder from the smallest up, then the gallery.
std::vector<const world::Station*> tourOrder(const world::World& world) {
  std::vector<const world::Station*> order;
  for (const auto& s : world.stations()) {
    if (s.onLadder) order.push_back(&s);
  }
  std::stable_sort(
      order.begin(), order.end(),
      [](const world::Station* a, const world::Station* b) { return a->scale_m < b->scale_m; });
  for (const auto& s : world.stations()) {
    if (!s.onLadder) order.push_back(&s);
  }
  return order;
}

int runHeadlessTour(const TourOptions& options) {
  Session session;
  if (int status =
          openSession(options.render, nullptr, fontPixelsFor(options.render.height), session)) {
    return status;
  }
  std::error_code ec;
  std::filesystem::create_directories(options.out, ec);
  if (ec) {
    std::fprintf(stderr, "dcwalk: tour: cannot create '%s': %s\n", options.out.c_str(),
                 ec.message().c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  std::vector<renderer::Pixels> frames;
  int index = 1;
  for (const world::Station* station : tourOrder(*session.world)) {
    world::Camera camera;
    frameStation(*station, camera);
    renderer::Pixels pixels = renderView(session, camera, stationHud(*station),
                                         options.render.width, options.render.height);
    char name[64];
    std::snprintf(name, sizeof(name), "%02d-%s.png", index++, station->name.c_str());
    std::string error;
    if (!renderer::writePng(std::filesystem::path(options.out) / name, pixels, error)) {
      std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
      return EXIT_FAILURE_RUNTIME;
    }
    frames.push_back(std::move(pixels));
  }
  renderer::Pixels sheet = renderer::makeContactSheet(frames, 4, 480);
  std::string error;
  const auto sheetPath = std::filesystem::path(options.out) / "contact-sheet.png";
  if (!renderer::writePng(sheetPath, sheet, error)) {
    std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  std::printf("dcwalk: rendered %zu station frames and %s into %s\n", frames.size(),
              sheetPath.filename().c_str(), std::filesystem::absolute(options.out).c_str());
  return reportValidation() ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

}  // namespace

Command addTourCommand(CLI::App& cli) {
  auto options = std::make_shared<TourOptions>();
  CLI::App* sub = cli.add_subcommand(
      "tour", "the guided flight (default): a window with a display, else frames into --out");
  sub->add_flag("--headless", options->headless, "render frames to --out instead of a window");
  sub->add_option("--out", options->out, "folder for headless frames")->capture_default_str();
  sub->add_option("--station", options->window.startStation, "station to start at (window)")
      ->capture_default_str();
  sub->add_flag("--fullscreen", options->window.fullscreen, "full screen on the primary monitor");
  sub->add_option("--frames", options->window.maxFrames,
                  "quit after this many frames (window; 0 = run until closed)");
  addRenderOptions(*sub, options->render);
  return {sub, [options] {
            if (options->headless || !haveDisplay()) return runHeadlessTour(*options);
            return runWindowMode(options->render, options->window);
          }};
}

}  // namespace app
