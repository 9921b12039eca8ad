// The benchmark's fixed paths through the one world, sampled by time: camera paths over the
// stations, and the default tour played step by step.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/sim_host.h"

namespace app {

/// What a path draws: a frame source moved along the path, frame by frame.
class PathView {
 public:
  virtual ~PathView() = default;
  virtual FrameSource& source() = 0;
  /// Moves to `time_s` on the path (never earlier than the last move); returns the seconds the
  /// frame drawn there advances the simulation and the source (runFrame's dt).
  virtual double moveTo(double time_s) = 0;
  /// The station held at, or flown to, after the last move.
  virtual std::string station() const = 0;
  /// The benchmark's naive baselines: LOD scale, culling, triangle budget.
  virtual void setBaseline(double lodScale, bool cull, uint64_t triangleBudget) = 0;
};

struct BenchPath {
  std::string name;
  std::string description;
  double duration_s = 0;
  /// The moments that tell the path (each station or step held, each flight's middle), in
  /// order: what a test samples instead of the whole path.
  std::vector<double> keyTimes_s;
  /// Makes the path's view for `session` (the path's world is the session's); null with `error`
  /// set when it cannot (a tour that does not load).
  std::function<std::unique_ptr<PathView>(Session& session, std::string& error)> view;
  bool bySystem = false;  // frames reported per station and system (the systems change)
  std::function<void(SimHost&)> prepare;  // before the first frame (the simulation's start)
  // Before measured frame k (0-based): what a visitor asks of the simulation then.
  std::function<void(uint32_t k, SimHost&)> atFrame;
};

/// Names of the paths `makeBenchPath` knows.
std::vector<std::string> benchPathNames();
/// Builds path `name` over `world`'s stations (the tour path: over the default tour's steps);
/// false with `error` set when the name is unknown or the tour does not load.
bool makeBenchPath(const world::World& world, const std::string& name, BenchPath& out,
                   std::string& error);

}  // namespace app
