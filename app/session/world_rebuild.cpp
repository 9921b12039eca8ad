#include "app/session/world_rebuild.h"

#include <malloc.h>

#include <algorithm>
#include <chrono>

#include "app/session/frame.h"
#include "app/session/session.h"

namespace app {

sim::Result<WorldPlan> worldPlanOf(const WorldRecipe& recipe, const sim::engine::Cluster& cluster) {
  using R = sim::Result<WorldPlan>;
  const world::Dimensions& dims = recipe.dims;
  auto layout = world::layoutOf(cluster, dims, dims.count("row.racks_per_su"));
  if (!layout) return R::failure(layout.error());
  WorldPlan plan;
  plan.layout = *layout;
  plan.campusRacks = int(cluster.campusRacks) * std::max(1, recipe.campusScale);
  plan.desc.campus = world::campusOf(plan.layout, plan.campusRacks);
  plan.desc.componentModels = recipe.componentModels;
  return plan;
}

WorldPlace placeOf(const world::World& world, const world::Pose& pose) {
  WorldPlace place;
  place.where = world::locate(world, pose.position);
  place.yaw_rad = pose.yaw_rad;
  place.pitch_rad = pose.pitch_rad;
  if (place.where.kind == world::Whereabouts::Kind::Rack) {
    const world::Aabb& rack = world.racks().rackBounds(place.where.index);
    place.inRack = (pose.position - rack.min) / glm::max(rack.size(), glm::dvec3(1e-9));
  }
  // The station the camera is in (by its title) or at, then the ladder out from it.
  const std::vector<world::Station>& stations = world.stations();
  std::string name;
  for (const world::Station& s : stations) {
    if (place.where.kind == world::Whereabouts::Kind::Station && s.title == place.where.station)
      name = s.name;
  }
  if (name.empty()) {
    if (auto rung = world::ladderRungAt(stations, pose)) name = stations[*rung].name;
  }
  for (size_t guard = 0; !name.empty() && guard <= stations.size(); ++guard) {
    place.stations.push_back(name);
    const auto out = world::neighbourOnLadder(stations, name, +1);
    name = out ? stations[*out].name : std::string();
  }
  place.stations.push_back("campus");
  return place;
}

world::Pose poseIn(const world::World& world, const WorldPlace& place) {
  const world::RackMap& racks = world.racks();
  if (place.where.kind == world::Whereabouts::Kind::Rack && place.where.index < racks.rackCount()) {
    const world::Aabb& rack = racks.rackBounds(place.where.index);
    return {rack.min + place.inRack * rack.size(), place.yaw_rad, place.pitch_rad};
  }
  for (const std::string& name : place.stations) {
    if (const world::Station* s = world.station(name)) return world::toPose(s->viewpoint);
  }
  return world::toPose(world::OrbitPose{});
}

WorldFit WorldRebuild::check(const sim::engine::Cluster& cluster) const {
  auto plan = worldPlanOf(m_recipe, cluster);
  if (!plan) return {WorldFit::Kind::Refuse, "cannot rebuild the world: " + plan.error()};
  if (plan->sameWorld(m_current)) return {};
  if (!m_fixed.empty()) return {WorldFit::Kind::Refuse, m_fixed};
  return {WorldFit::Kind::Rebuild, {}};
}

void WorldRebuild::start(const SimHost& sim, RebuildFrame& frame) {
  auto plan = worldPlanOf(m_recipe, sim.awaitingWorld()->cluster());
  m_jobSerial = sim.awaitingSerial();
  if (!plan) {  // checked when the engine was made; kept for a recipe that changed since
    m_job = std::async(std::launch::deferred, [why = plan.error()] { return Built::failure(why); });
    return;
  }
  m_jobPlan = std::move(*plan);
  m_system = m_jobPlan.layout.systemName;
  ++frame.buildsStarted;
  // The worker reads only its own copies: the dimensions and the description (the models in it
  // are shared and const); the engine, the catalog and the world on screen are not touched.
  auto build = [dims = m_recipe.dims, desc = m_jobPlan.desc] {
    return world::World::create(dims, desc);
  };
  if (m_mode == Mode::Background) {
    m_job = std::async(std::launch::async, std::move(build));
  } else {
    m_job = std::async(std::launch::deferred, std::move(build));  // runs in get(), here
    ++frame.worldsBuiltOnFrameThread;
  }
}

RebuildFrame WorldRebuild::atFrameBoundary(Session& session, FrameSource& source) {
  RebuildFrame frame;
  SimHost& sim = *session.sim;
  for (;;) {
    if (!m_job.valid()) {
      if (!sim.awaitingWorld() || sim.awaitingSerial() == m_jobSerial) return frame;
      start(sim, frame);
      // A frame starts a build or swaps one in, never both: the worker has a frame at least.
      if (m_mode == Mode::Background) return frame;
    }
    const bool deferred = m_job.wait_for(std::chrono::seconds(0)) == std::future_status::deferred;
    if (!deferred && m_job.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
      return frame;  // still building: the old world and engine go on
    Built built = m_job.get();
    m_system.clear();
    if (!sim.awaitingWorld() || sim.awaitingSerial() != m_jobSerial) {
      continue;  // a newer request replaced (or withdrew) the engine it was built for
    }
    if (!built) {
      sim.refuseAwaiting("cannot rebuild the world: " + built.error());
      return frame;
    }
    swap(session, source, std::move(*built), frame);
    return frame;
  }
}

void WorldRebuild::swap(Session& session, FrameSource& source, std::unique_ptr<world::World> fresh,
                        RebuildFrame& frame) {
  uint64_t bytes = 0;
  for (const world::MeshData& mesh : fresh->meshes().meshes()) {
    bytes += mesh.vertices.size() * sizeof(world::MeshVertex) + mesh.indices.size() * 4;
  }
  if (bytes > MAX_SWAP_UPLOAD_BYTES) {
    session.sim->refuseAwaiting("cannot rebuild the world: its meshes (" +
                                std::to_string(bytes >> 20) +
                                " MiB) exceed what one frame uploads");
    return;
  }
  // The renderer waits for the GPU to finish the frames in flight (they draw the old meshes)
  // before it replaces them.
  session.renderer->setMeshes(fresh->meshes());
  session.renderer->setTextures(fresh->textures());
  ++frame.meshUploads;
  frame.meshBytes += bytes;
  std::unique_ptr<world::World> old = session.world->adopt(std::move(fresh));
  session.sim->acceptAwaiting();
  m_current = std::move(m_jobPlan);
  // The frame source finds its place again while the old world can still be read.
  source.worldRebuilt(*old, *session.world);
  session.list.clear();
  old.reset();
  malloc_trim(0);  // the old scene's pages go back to the system (see SimHost::swapIn)
  frame.swapped = true;
}

}  // namespace app
