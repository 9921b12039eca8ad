// The world as a function of the engine's cluster (issue 20). openSession builds the first world
// from worldPlanOf; when a restarted engine's cluster needs another world (another system, GPU,
// fabric counts or campus size) the sim host holds that engine (SimHost::awaitingWorld) while
// WorldRebuild builds the new world on a worker thread from values only — a WorldDesc and the
// dimensions, never the engine — and the old engine goes on running on the old world. At the
// first frame boundary after the build, in one step: the renderer takes the new meshes (it waits
// for the GPU to finish the frames that drew the old ones), the world takes the new contents
// (World::adopt: whatever holds the World still holds it), the host swaps the new engine in, and
// the frame source finds the camera's place again (FrameSource::worldRebuilt). So no frame
// shows the new engine's numbers on the old geometry, and none waits for a build.
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "app/session/sim_host.h"
#include "sim/engine/cluster.h"
#include "sim/result.h"
#include "world/builders/system_layout.h"
#include "world/live/selection.h"
#include "world/world.h"

namespace app {

struct Session;
class FrameSource;

/// What a world is built from besides the cluster, kept so that every rebuild uses what
/// openSession used.
struct WorldRecipe {
  world::Dimensions dims;
  int campusScale = 1;                                 // the benchmark's N x racks
  std::vector<world::ComponentModel> componentModels;  // --assets overrides (shared, const)
};

/// The world of one cluster: what makes two clusters draw the same world, and its description.
struct WorldPlan {
  world::SystemLayout layout;
  int campusRacks = 0;  // drawn: the engine's, times the campus scale
  world::WorldDesc desc;
  bool sameWorld(const WorldPlan& other) const {
    return layout == other.layout && campusRacks == other.campusRacks;
  }
};

/// The one place a cluster becomes a world description (openSession and every rebuild): the
/// halls hold exactly the racks the engine's campus has, of its system, with its fabric's
/// switches and its CDUs. Fails naming the system or GPU the world has no drawing of.
sim::Result<WorldPlan> worldPlanOf(const WorldRecipe& recipe, const sim::engine::Cluster& cluster);

/// Where a camera is in a world, to be found again in another one.
struct WorldPlace {
  world::Whereabouts where;
  glm::dvec3 inRack{0.5};  // Rack: the eye within its rack's bounds (0..1 on each axis)
  // The station the camera is at, then the stations out from it up the ladder (tray, rack,
  // row, hall, campus): the first the other world has is where the camera goes.
  std::vector<std::string> stations;
  double yaw_rad = 0, pitch_rad = 0;
};
WorldPlace placeOf(const world::World& world, const world::Pose& pose);
/// The pose in `world` for `place`: in the same rack at the same place in it (scaled to the
/// rack's new size) when that rack exists, else at the first of place.stations it has.
world::Pose poseIn(const world::World& world, const WorldPlace& place);

/// One frame's part of a rebuild, in counts (the tests hold every frame to a fixed share).
struct RebuildFrame {
  uint32_t buildsStarted = 0;
  uint32_t worldsBuiltOnFrameThread = 0;  // Background: always 0, the worker builds
  uint32_t meshUploads = 0;               // mesh libraries handed to the renderer
  uint64_t meshBytes = 0;                 // their vertex and index bytes
  bool swapped = false;                   // the new world and engine are on from the next frame
};

class WorldRebuild {
 public:
  // Every swap uploads the new world's mesh library at once (it is instanced: prototypes share
  // a few hundred meshes); a library beyond this would have to be sliced, so it is refused.
  static constexpr uint64_t MAX_SWAP_UPLOAD_BYTES = 32ull << 20;

  enum class Mode {
    Background,  // the window and the bench: built on a worker, swapped when done
    InFrame,     // stills, clips, the headless tour: built within the frame (deterministic)
  };
  WorldRebuild(WorldRecipe recipe, WorldPlan current, Mode mode = Mode::InFrame)
      : m_recipe(std::move(recipe)), m_current(std::move(current)), m_mode(mode) {}
  WorldRebuild(const WorldRebuild&) = delete;
  WorldRebuild& operator=(const WorldRebuild&) = delete;

  void setMode(Mode mode) { m_mode = mode; }
  /// The cluster of the world on screen cannot change (a --trace replay maps its ranks onto
  /// it): every engine needing another world is refused, saying `why`.
  void fixCluster(std::string why) { m_fixed = std::move(why); }

  /// The sim host's world check (openSession installs it).
  WorldFit check(const sim::engine::Cluster& cluster) const;

  /// The end of every frame (runFrame): starts building the world of the engine awaiting one,
  /// or, once it is built, swaps the world, the meshes and the engine for the next frame.
  RebuildFrame atFrameBoundary(Session& session, FrameSource& source);

  /// A world is being built for the engine waiting for it.
  bool pending() const { return m_job.valid(); }
  /// The system being built ("DGX H100"), while pending.
  const std::string& pendingSystem() const { return m_system; }
  /// The world on screen.
  const WorldPlan& current() const { return m_current; }

 private:
  using Built = sim::Result<std::unique_ptr<world::World>>;
  void start(const SimHost& sim, RebuildFrame& frame);
  void swap(Session& session, FrameSource& source, std::unique_ptr<world::World> fresh,
            RebuildFrame& frame);

  WorldRecipe m_recipe;
  WorldPlan m_current;
  Mode m_mode;
  std::string m_fixed;
  std::future<Built> m_job;  // std::async's: its destructor waits for a build in flight
  WorldPlan m_jobPlan;       // what m_job builds ...
  uint64_t m_jobSerial = 0;  // ... for the host's awaiting engine of this serial
  std::string m_system;
};

}  // namespace app
