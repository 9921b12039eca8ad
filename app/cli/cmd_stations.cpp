// `dcwalk stations`: every station of the world, one per line: name, scale, description.
// `--json` prints the same as a JSON array (with the viewpoint) for scripts and tours.
#include <cstdio>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "sim/format.h"
#include "world/world.h"

namespace app {
namespace {

int runStations(bool asJson) {
  auto dims = world::Dimensions::loadDefault();
  if (!dims) {
    std::fprintf(stderr, "dcwalk: stations: %s\n", dims.error().c_str());
    return EXIT_BAD_INPUT;
  }
  auto built = world::World::create(*dims);
  if (!built) {
    std::fprintf(stderr, "dcwalk: stations: %s\n", built.error().c_str());
    return EXIT_BAD_INPUT;
  }
  const auto& stations = (*built)->stations();
  if (asJson) {
    nlohmann::json out = nlohmann::json::array();
    for (const world::Station& s : stations) {
      out.push_back(
          {{"name", s.name},
           {"title", s.title},
           {"scale_m", s.scale_m},
           {"description", s.description},
           {"path", s.path},
           {"on_ladder", s.onLadder},
           {"viewpoint",
            {{"target_m", {s.viewpoint.target.x, s.viewpoint.target.y, s.viewpoint.target.z}},
             {"distance_m", s.viewpoint.distance_m},
             {"yaw_rad", s.viewpoint.yaw_rad},
             {"pitch_rad", s.viewpoint.pitch_rad}}}});
    }
    std::cout << out.dump(2) << "\n";
    return EXIT_OK;
  }
  for (const world::Station& s : stations) {
    std::printf("%-10s %-9s %s: %s\n", s.name.c_str(), sim::formatLength(s.scale_m).c_str(),
                s.title.c_str(), s.description.c_str());
  }
  return EXIT_OK;
}

}  // namespace

Command addStationsCommand(CLI::App& cli) {
  auto asJson = std::make_shared<bool>(false);
  CLI::App* sub = cli.add_subcommand("stations", "list every station: name, scale, description");
  sub->add_flag("--json", *asJson, "print a JSON array (with viewpoints) instead of text");
  return {sub, [asJson] { return runStations(*asJson); }};
}

}  // namespace app
