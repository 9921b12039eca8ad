// `dcwalk shot`: one station rendered headless to a PNG, optionally at a simulated time of an
// engine scenario, with faults injected and a live overlay drawn; or, with --model, one glTF
// model on its own; or, with --compare, one station for two scenarios side by side.
#include <cstdio>
#include <filesystem>

#include "app/cli/commands.h"
#include "app/cli/flag_domains.h"
#include "app/cli/options.h"
#include "app/modes/shot.h"
#include "sim/engine/fault_spec.h"

namespace app {
namespace {

// The command line's shot options, before they are checked and typed.
struct ShotFlags {
  ShotOptions shot;
  std::string overlay = "none";
  std::vector<std::string> faults;
  int64_t step = -1;  // --step (with --trace)
  bool timeGiven = false, overlayGiven = false;
};

int runShotFlags(ShotFlags& flags) {
  // Flags first, before the (slow) world and renderer are made.
  const auto metric = world::parseOverlayMetric(flags.overlay);
  if (!metric) {
    std::fprintf(stderr,
                 "dcwalk: shot: unknown --overlay '%s' (power, temperature, utilisation, "
                 "link_load, pipeline_stage, none)\n",
                 flags.overlay.c_str());
    return EXIT_BAD_INPUT;
  }
  flags.shot.overlay = *metric;
  if (flags.shot.trace.active()) {
    // --time and --step are the trace's: seconds from its first GPU event, a ProfilerStep.
    if (flags.timeGiven) flags.shot.trace.time_s = flags.shot.time_s;
    flags.shot.time_s = 0;
    if (flags.step >= 0) flags.shot.trace.step = flags.step;
    // What a trace shows best unless asked otherwise: each GPU's tensor-core activity.
    if (!flags.overlayGiven) flags.shot.overlay = world::OverlayMetric::Utilisation;
  } else if (flags.step >= 0) {
    std::fprintf(stderr, "dcwalk: shot: --step needs --trace\n");
    return EXIT_BAD_INPUT;
  }
  for (const std::string& spec : flags.faults) {
    auto fault = sim::engine::parseFaultSpec(spec);
    if (!fault) {
      std::fprintf(stderr, "dcwalk: shot: --fault: %s\n", fault.error().c_str());
      return EXIT_BAD_INPUT;
    }
    flags.shot.faults.push_back(*fault);
  }
  return runShot(flags.shot);
}

}  // namespace

Command addShotCommand(CLI::App& cli) {
  auto flags = std::make_shared<ShotFlags>();
  ShotOptions* options = &flags->shot;
  CLI::App* sub = cli.add_subcommand("shot", "render one station headless to a PNG");
  sub->add_option("--station", options->station, "station name (see `dcwalk stations`)")
      ->capture_default_str();
  sub->add_option("--out", options->out, "PNG file to write")->capture_default_str();
  sub->add_option("--scenario", options->scenario, "engine built-in scenario")
      ->capture_default_str();
  addNumberOption(*sub, "shot", "--time", options->time_s,
                  "simulated seconds to advance before the shot (at most 3600); with --trace, "
                  "seconds from the trace's first GPU event")
      ->capture_default_str();
  sub->add_option(
         "--overlay", flags->overlay,
         "heatmap and live labels: power, temperature, utilisation, link_load, pipeline_stage, "
         "none")
      ->capture_default_str();
  sub->add_option("--fault", flags->faults,
                  "fault KIND[:TARGET]@START[-END][,severity=X] (repeatable), e.g. pump_trip@10");
  sub->add_flag("--traffic", options->traffic,
                "draw the hero rack's NVLink and fabric traffic as moving particles");
  sub->add_flag("--coolant", options->coolant,
                "draw the hero rack's coolant loop and its CDU's facility water by temperature");
  sub->add_flag("--clean", options->clean,
                "the picture alone: no HUD, no labels, no panel (the clean plate of `tour "
                "--text off`)");
  addNumberOption(*sub, "shot", "--supersample", options->supersample,
                  "draw the 3D picture at N times the size along each axis (1..4) in tiles of at "
                  "most 2048 pixels a side and box-filter it down: an anti-aliased still for "
                  "slides (e.g. --size 3840x2160 --quality high --supersample 2); the HUD, "
                  "labels and panel are drawn once at the output size")
      ->capture_default_str();
  sub->add_option("--model", options->model,
                  "a glTF 2.0 file (.gltf/.glb) to render on its own, at its own size")
      ->excludes("--station");
  CLI::Option* compare =
      sub->add_option("--compare", options->compare,
                      "two scenarios (engine built-ins, analytic names or files): the station for "
                      "each, side by side in one image with their step time or tokens/s, MW and "
                      "$/Mtok")
          ->expected(2);
  compare->excludes("--scenario")->excludes("--model");
  addTraceOptions(*sub, options->trace);
  compare->excludes("--trace");
  addNumberOption(*sub, "shot", "--step", flags->step,
                  "with --trace: the time counts from the start of ProfilerStep#N");
  addRenderOptions(*sub, options->render);
  return {sub, [flags, sub] {
            flags->timeGiven = sub->count("--time") > 0;
            flags->overlayGiven = sub->count("--overlay") > 0;
            return runShotFlags(*flags);
          }};
}

}  // namespace app
