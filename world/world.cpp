// Building the world: the campus from catalog dimensions (and the component models that
// replace built-in parts), or a viewer around one imported model; its stations, and the live
// layers bound to their parts.
#include "world/world.h"

#include <algorithm>

#include <glm/gtc/matrix_transform.hpp>

#include "world/scene/procedural_textures.h"

namespace world {

sim::Result<std::unique_ptr<World>> World::create(const Dimensions& dims, const WorldDesc& desc) {
  if (desc.campus.hallCount < 1 || desc.campus.hall.rackCount < 1) {
    return sim::Result<std::unique_ptr<World>>::failure(
        "world: a campus needs at least one hall with at least one rack");
  }
  std::unique_ptr<World> world(new World());
  world->m_primitives = registerPrimitives(world->m_meshes);
  registerPatterns(world->m_textures);  // first: the patterns' layers are fixed
  BuildContext ctx{world->m_scene, world->m_primitives, dims, world->m_meshes};
  const PrototypeId campus = buildCampus(ctx, desc.campus);
  if (!desc.componentModels.empty()) {
    const auto replaced = replaceComponents(desc.componentModels,
                                            {world->m_meshes, world->m_textures, world->m_scene});
    if (!replaced) return sim::Result<std::unique_ptr<World>>::failure(replaced.error());
  }
  world->m_scene.setRoot(campus, glm::translate(glm::dmat4(1.0), desc.origin_m));
  world->m_scene.countTriangles(world->m_meshes);
  world->m_stations = makeStations(world->m_scene, desc.verticalFov_rad, desc.campus.hall.system);
  world->bindLive();
  return world;
}

sim::Result<std::unique_ptr<World>> World::createViewer(const ImportedModel& model,
                                                        double verticalFov_rad) {
  using R = sim::Result<std::unique_ptr<World>>;
  std::unique_ptr<World> world(new World());
  world->m_primitives = registerPrimitives(world->m_meshes);
  registerPatterns(world->m_textures);  // first: the patterns' layers are fixed
  auto contents = modelPrototype(model, glm::dmat4(1.0), model.source.filename().string(),
                                 {world->m_meshes, world->m_textures, world->m_scene});
  if (!contents) return R::failure(contents.error());
  const PrototypeId modelId = world->m_scene.add(std::move(*contents));
  const Aabb bounds = world->m_scene.prototype(modelId).bounds;
  // The model stands on the studio's floor (the backdrop draws it under the station's hero).
  Prototype stage;
  stage.name = "model stage";
  stage.children.push_back(placeChild(modelId, glm::dvec3(0.0), "model"));
  world->m_scene.setRoot(world->m_scene.add(std::move(stage)));
  world->m_scene.countTriangles(world->m_meshes);
  const StationSpec spec{"model", "Model", "an imported glTF model at its own size",
                         "model", false,   glm::dvec3(0.35, 0.3, 1.0),
                         1.1};
  world->m_stations.push_back(makeStation(spec, bounds, glm::dmat4(1.0), verticalFov_rad));
  world->bindLive();
  return world;
}

std::unique_ptr<World> World::adopt(std::unique_ptr<World> fresh) {
  std::swap(*this, *fresh);
  std::swap(m_shadowCasting, fresh->m_shadowCasting);
  // Each tint pointed at the racks of the object it was bound in; the old contents are not
  // drawn again, so theirs is only cleared.
  m_heat.bind(m_scene, m_racks);
  fresh->m_heat.unbind();
  return fresh;
}

void World::bindLive() {
  m_racks = RackMap::build(m_scene);
  m_heat.bind(m_scene, m_racks);
  m_heroGpus = findHeroGpus(m_scene, m_racks);
  m_layers = LiveLayers::build({m_scene, m_racks, m_heroGpus, m_stations});
}

const Station* World::station(const std::string& name) const {
  for (const Station& s : m_stations) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace world
