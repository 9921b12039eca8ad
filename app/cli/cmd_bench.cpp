// `dcwalk bench`: the command line of the benchmark (app/modes/bench.h).
#include <memory>
#include <string>

#include "app/cli/commands.h"
#include "app/cli/flag_domains.h"
#include "app/cli/options.h"
#include "app/modes/bench.h"
#include "app/modes/bench_paths.h"

namespace app {

Command addBenchCommand(CLI::App& cli) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* sub = cli.add_subcommand("bench", "fly fixed paths headless and report frame times");
  // Every path the bench knows, named from its own list so the help never leaves one out.
  std::string paths;
  for (const std::string& name : benchPathNames()) paths += (paths.empty() ? "" : ", ") + name;
  sub->add_option("--path", options->paths, "paths to fly: " + paths)
      ->check(CLI::IsMember(benchPathNames()))
      ->capture_default_str();
  addNumberOption(*sub, "bench", "--frames", options->frames, "measured frames per path")
      ->capture_default_str();
  addNumberOption(*sub, "bench", "--warmup", options->warmup, "frames drawn before measuring")
      ->capture_default_str();
  sub->add_flag("--key-frames", options->keyFrames,
                "one frame at each key moment of a path (every station or tour step held, every "
                "flight's middle) instead of --frames");
  sub->add_flag("--no-lod", options->noLod, "naive baseline: every prototype at full detail");
  sub->add_flag("--no-cull", options->noCull, "naive baseline: draw what is out of view too");
  addNumberOption(*sub, "bench", "--campus-scale", options->campusScale,
                  "N x the campus's racks (scaling)")
      ->capture_default_str();
  sub->add_option("--scenario", options->scenario, "engine scenario stepped every frame")
      ->capture_default_str();
  sub->add_option("--json", options->jsonOut, "also write the report as JSON to this file");
  sub->add_option("--trace", options->traceOut,
                  "append per-frame rows (path,t_s,frame_ms,gpu_ms,triangles) to this CSV file");
  addRenderOptions(*sub, options->render);
  return {sub, [options] { return runBench(*options); }};
}

}  // namespace app
