// `dcwalk shot`: one station rendered headless to a PNG.
#include <cstdio>

#include "app/commands.h"
#include "app/session.h"
#include "renderer/image_io.h"

namespace app {
namespace {

struct ShotOptions {
  RenderOptions render;
  std::string station = "rack";
  std::string out = "shot.png";
};

int runShot(const ShotOptions& options) {
  Session session;
  if (int status =
          openSession(options.render, nullptr, fontPixelsFor(options.render.height), session)) {
    return status;
  }
  const world::Station* station = session.world->station(options.station);
  if (!station) {
    std::string names;
    for (const auto& s : session.world->stations()) names += (names.empty() ? "" : ", ") + s.name;
    std::fprintf(stderr, "dcwalk: shot: unknown station '%s' (stations: %s)\n",
                 options.station.c_str(), names.c_str());
    return EXIT_BAD_INPUT;
  }
  world::Camera camera;
  frameStation(*station, camera);
  renderer::Pixels pixels = renderView(session, camera, stationHud(*station), options.render.width,
                                       options.render.height);
  std::string error;
  if (!renderer::writePng(options.out, pixels, error)) {
    std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  std::printf("wrote %s (%ux%u, station %s, %llu triangles)\n", options.out.c_str(), pixels.width,
              pixels.height, station->name.c_str(),
              static_cast<unsigned long long>(session.worldStats.triangles));
  return reportValidation() ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

}  // namespace

Command addShotCommand(CLI::App& cli) {
  auto options = std::make_shared<ShotOptions>();
  CLI::App* sub = cli.add_subcommand("shot", "render one station headless to a PNG");
  sub->add_option("--station", options->station, "station name (see `dcwalk stations`)")
      ->capture_default_str();
  sub->add_option("--out", options->out, "PNG file to write")->capture_default_str();
  addRenderOptions(*sub, options->render);
  return {sub, [options] { return runShot(*options); }};
}

}  // namespace app
