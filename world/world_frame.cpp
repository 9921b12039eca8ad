// The world each frame: synced from the simulation's snapshot, turned into a render list for a
// camera (culled, LOD chosen, camera-relative, with live labels), and picked under a pixel.
#include "world/world.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <glm/gtc/matrix_transform.hpp>

namespace world {
namespace {

// The near plane sits at this fraction of the distance to the nearest surface.
constexpr double NEAR_FRACTION = 0.5;
constexpr double MIN_NEAR_M = 1e-7;
constexpr double MAX_NEAR_M = 1.0;
// The high preset's sun shadows reach this many clearances ahead (rounded up to a power of two
// metres): what the camera looks at closely, at every scale from an SM to the campus.
constexpr double SHADOW_REACH_PER_CLEARANCE = 8.0;

// Whether instance path `path` is `ancestor` or lies inside it ("" is the root).
bool isWithin(const std::string& path, const std::string& ancestor) {
  if (ancestor.empty() || path == ancestor) return true;
  return path.size() > ancestor.size() && path.compare(0, ancestor.size(), ancestor) == 0 &&
         path[ancestor.size()] == '/';
}

// "hall0/row0/rack0" as its segments.
void splitPath(const std::string& path, std::vector<std::string>& out) {
  out.clear();
  for (size_t start = 0; start < path.size();) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    out.push_back(path.substr(start, end - start));
    start = end + 1;
  }
}

// The backdrop (linear RGB, picked as screen colours in sRGB): one charcoal-to-blue studio
// gradient at every scale, chip to campus (a dusk purple from the hall outward read as another
// place, visual brief 2026-12-02).
constexpr float STUDIO_TOP[3] = {0.0024f, 0.0030f, 0.0052f};      // sRGB 8, 10, 16
constexpr float STUDIO_HORIZON[3] = {0.0129f, 0.0160f, 0.0252f};  // sRGB 30, 34, 44
// The one exposure rule: every hero's lit mid-tone (a face at 55 degrees to the key, its mean
// albedo, the environment's sheen on a dielectric added) at 45 % of the screen's range (sRGB
// 0.45 is linear 0.17), the lights scaled within EXPOSURE_MIN..MAX so that neither a grey chip
// blows out nor a black rack turns to fog.
constexpr float FILL = 0.22f;
constexpr float MID_TONE = 0.17f;
constexpr float KEY_AT_MID_TONE = 0.57f;  // cos 55 degrees
constexpr float DIELECTRIC_SHEEN = 0.012f;
constexpr float EXPOSURE_MIN = 0.7f;
constexpr float EXPOSURE_MAX = 1.3f;
// Black heroes (mean albedo below DARK_HERO_ALBEDO) get a stronger rim to part them from the
// backdrop.
constexpr float RIM = 0.35f;
constexpr float DARK_HERO_RIM = 0.7f;
constexpr float DARK_HERO_ALBEDO = 0.05f;
// Heroes up to this size are chips and packages: seen in x-ray, their floor plan drawn in light.
constexpr double CHIP_SCALE_M = 0.2;
// Station labels: a station is named when its size on screen lies between these (px; the upper
// one in viewport heights); a label whose anchor is hidden behind something else, met before
// this share of the way there, is left out.
constexpr double MIN_STATION_LABEL_PX = 24.0;
constexpr double MAX_STATION_LABEL_VIEWPORTS = 1.5;
constexpr double STATION_BLOCKER_SLACK = 0.97;
constexpr float XRAY_STRENGTH = 0.22f;

}  // namespace

World::Studio World::studioFor(const glm::dvec3& eye, const glm::dvec3& forward, double clearance,
                               const std::string& hint) const {
  Studio studio;
  studio.station = hint.empty() ? nullptr : station(hint);
  if (!studio.station) {
    const auto hit = m_scene.pick(eye, forward);
    studio.focus_m = hit ? hit->distance_m : std::max(4.0 * clearance, 1e-4);
    studio.station = studioStation(m_stations, eye, eye + forward * studio.focus_m);
  } else {
    studio.focus_m = glm::length(studio.station->viewpoint.target - eye);
  }
  if (studio.station && !studio.station->studioBounds.empty()) {
    const Aabb& hero = studio.station->studioBounds;
    const double radius = 0.5 * glm::length(hero.size());
    const double distance = glm::length(hero.center() - eye);
    // The hero stays crisp to its far side; what stands beside it fades within a few of its
    // sizes, and beyond that nothing is drawn.
    const bool neighbours = !studio.station->neighbours.empty();
    studio.fogStart_m = distance + (neighbours ? 0.5 : 1.0) * radius;
    studio.fogEnd_m = distance + (neighbours ? 3.5 : 2.0) * radius;
  } else {
    studio.fogStart_m = 2.0 * studio.focus_m;
    studio.fogEnd_m = 20.0 * studio.focus_m;
  }
  return studio;
}

void World::lightStudio(const Studio& studio, const glm::dvec3& eye, ViewParams& view) const {
  for (int i = 0; i < 3; ++i) {
    view.skyTop[i] = STUDIO_TOP[i];
    view.skyHorizon[i] = STUDIO_HORIZON[i];
  }
  // The exposure scales the fill and the key together (shaders/scene.frag: fill + key, the
  // environment's strength, is the exposure).
  const float albedo = studio.station ? studio.station->heroAlbedo : 0.0f;
  const float lit = albedo * (FILL + (1.0f - FILL) * KEY_AT_MID_TONE) + DIELECTRIC_SHEEN;
  const float exposure =
      albedo > 0.0f ? std::clamp(MID_TONE / lit, EXPOSURE_MIN, EXPOSURE_MAX) : 1.0f;
  view.ambient = FILL * exposure;
  view.keyStrength = exposure * (1.0f - FILL) / (1.0f - view.ambient);
  view.rimStrength = albedo > 0.0f && albedo < DARK_HERO_ALBEDO ? DARK_HERO_RIM : RIM;
  view.edgeStrength = 0.8f;
  view.xrayStrength =
      studio.station && studio.station->scale_m <= CHIP_SCALE_M ? XRAY_STRENGTH : 0.0f;
  view.fogStartMeters = static_cast<float>(studio.fogStart_m);
  view.fogEndMeters = static_cast<float>(studio.fogEnd_m);
  view.studioFloor = studio.station && !studio.station->studioPath.empty();
  if (view.studioFloor) {
    const Aabb& hero = studio.station->studioBounds;
    view.floorHeightMeters = static_cast<float>(hero.min.y - eye.y);
    view.heroCenter[0] = static_cast<float>(hero.center().x - eye.x);
    view.heroCenter[1] = static_cast<float>(hero.center().z - eye.z);
    view.heroHalfExtent[0] = static_cast<float>(0.5 * hero.size().x);
    view.heroHalfExtent[1] = static_cast<float>(0.5 * hero.size().z);
    view.poolRadiusMeters = static_cast<float>(0.9 * glm::length(hero.size()));
  }
}

void World::sync(const sim::engine::Snapshot& snapshot, OverlayMetric metric, uint64_t generation,
                 const Calm& calm) {
  m_heat.sync(snapshot, metric, calm);
  m_layers.sync({snapshot, generation, calm, m_scene});
  m_generation = generation;
}

CullView World::cullView(const Camera& camera, const FrameDesc& frame, const Studio& studio) const {
  CullView view;
  view.eye = camera.position();
  view.forward = camera.forward();
  view.right = camera.right();
  view.up = camera.up();
  view.verticalFov_rad = camera.verticalFov_rad();
  view.aspect = double(std::max(1u, frame.width_px)) / double(std::max(1u, frame.height_px));
  view.viewportHeight_px = std::max(1u, frame.height_px);
  view.lodScale = frame.lodScale;
  view.cull = frame.cull;
  splitPath(frame.selectedPath, view.selection);
  if (studio.station) {
    splitPath(studio.station->studioPath, view.studio.path);
    view.studio.neighbours = studio.station->neighbours;
    view.studio.standIns = studio.station->standIns;
  }
  if (frame.cull) view.drawDistance_m = studio.fogEnd_m;
  return view;
}

void World::keepShadowCasters(double clearance, const ViewParams& params, CullView& view) const {
  // The shadow distance is SHADOW_REACH_PER_CLEARANCE * the nearest surface (at most
  // `clearance`) rounded up to a power of two, so below twice that: a sphere round the
  // farthest possible centre that holds the largest possible square, swept towards the sun,
  // keeps every caster whatever this frame's distance is.
  const double reach = 2.0 * SHADOW_REACH_PER_CLEARANCE * clearance;  // rounded up to 2^k
  const glm::dvec3 sun(params.sunDirection[0], params.sunDirection[1], params.sunDirection[2]);
  view.keepShadowCasters = glm::dot(sun, sun) > 0;
  view.towardSun = view.keepShadowCasters ? glm::normalize(sun) : glm::dvec3(0, 1, 0);
  view.casterCentre = view.forward * (double(SHADOW_CENTRE_AHEAD) * reach);
  view.casterRadius_m = std::sqrt(2.0) * reach;
  view.casterReach_m = double(SHADOW_CASTER_REACH) * reach;
}

FrameStats World::buildRenderList(const Camera& camera, const FrameDesc& frame, RenderList& out) {
  out.clear();
  out.generation = m_generation;
  const glm::dvec3 eye = camera.position();
  const double clearance = m_scene.nearestSurfaceDistance(eye);
  const Studio studio = studioFor(eye, camera.forward(), clearance, frame.studio);
  CullView view = cullView(camera, frame, studio);
  m_frame.studio = view.studio;  // what a click on this frame can hit
  if (m_shadowCasting) keepShadowCasters(clearance, out.view, view);
  view.tint = m_heat.tint();

  // The live layers' boxes come first out of the budget; they join the box bucket after the
  // scene's.
  const bool chipStudio = studio.station && studio.station->scale_m <= CHIP_SCALE_M;
  const LayerFrame live{
      view, frame.inputs, studio.station, chipStudio, frame.maxOverlayLabels > 0, m_scene};
  m_frame.animated.clear();
  m_layers.emit(frame.layers, live, m_frame.animated);
  const uint64_t animatedTriangles =
      uint64_t(m_meshes.mesh(m_primitives.box).triangleCount()) * m_frame.animated.size();
  view.triangleBudget =
      frame.triangleBudget == UINT64_MAX
          ? UINT64_MAX
          : frame.triangleBudget - std::min(frame.triangleBudget, animatedTriangles);
  for (auto& bucket : m_frame.buckets) bucket.clear();
  const CollectStats stats = m_scene.collect(view, {m_primitives.box, m_primitives.frontFace},
                                             m_frame.buckets, &m_frame.collect);
  if (m_frame.buckets.size() <= m_primitives.box.index) {
    m_frame.buckets.resize(m_primitives.box.index + 1);
  }
  auto& boxes = m_frame.buckets[m_primitives.box.index];
  boxes.insert(boxes.end(), m_frame.animated.begin(), m_frame.animated.end());
  batch(out);

  FrameStats result;
  result.prototypesVisited = stats.prototypesVisited;
  result.heldBack = stats.heldBack;
  result.instances = static_cast<uint32_t>(out.instances.size());
  result.triangles = out.triangleCount(m_meshes);
  result.nearestSurface_m = std::min(clearance, stats.nearestVisible_m);
  placeView(camera, studio, eye, result.nearestSurface_m, out.view);

  addStationLabels(studio, view, frame, out);
  if (studio.station && frame.maxLabels > 0) addCallouts(*studio.station, view, out);
  m_heat.labels(view, frame.width_px, frame.maxOverlayLabels, m_scene, m_racks, m_heroGpus,
                out.labels);
  m_layers.labels(frame.layers, live, out.labels);
  return result;
}

void World::batch(RenderList& out) {
  for (size_t mesh = 0; mesh < m_frame.buckets.size(); ++mesh) {
    const auto& bucket = m_frame.buckets[mesh];
    if (bucket.empty()) continue;
    // Near to far by centre distance: the early depth test then rejects most hidden fragments,
    // which matters when the camera sits inside a tray inside a rack inside a hall (each
    // enclosing part covers the screen) and fill rate is what software Vulkan runs out of.
    m_frame.order.clear();
    for (uint32_t i = 0; i < bucket.size(); ++i) {
      const gpu::Instance& inst = bucket[i];
      const float d2 =
          inst.row0.w * inst.row0.w + inst.row1.w * inst.row1.w + inst.row2.w * inst.row2.w;
      m_frame.order.push_back({d2, i});
    }
    std::sort(m_frame.order.begin(), m_frame.order.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    // The textured instances (a bezel's perforation among a tray's boxes) in a batch of their
    // own: the rest of the mesh's instances do not pay for the texture path per fragment.
    for (const bool textured : {false, true}) {
      DrawBatch batch;
      batch.mesh = MeshId{static_cast<uint32_t>(mesh)};
      batch.firstInstance = static_cast<uint32_t>(out.instances.size());
      for (const auto& [d2, i] : m_frame.order) {
        const gpu::Instance& inst = bucket[i];
        if ((inst.material.x > 0.0f) != textured) continue;
        batch.alphaTest = batch.alphaTest || inst.material.y > 0.0f || inst.material.z > 0.0f;
        out.instances.push_back(inst);
      }
      batch.instanceCount = static_cast<uint32_t>(out.instances.size()) - batch.firstInstance;
      if (batch.instanceCount == 0) continue;
      batch.textured = textured;
      // The box's front face alone (proxies' faces, LED lines), its sides alone and its top with
      // holes are drawn as the box is.
      batch.boxDetail = m_meshes.mesh(batch.mesh).boxFaces;
      out.batches.push_back(batch);
    }
  }
}

void World::placeView(const Camera& camera, const Studio& studio, const glm::dvec3& eye,
                      double nearest_m, ViewParams& view) const {
  camera.fillView(view);
  view.nearMeters =
      static_cast<float>(std::clamp(NEAR_FRACTION * nearest_m, MIN_NEAR_M, MAX_NEAR_M));
  lightStudio(studio, eye, view);
  view.shadowDistanceMeters = 0.0f;
  if (!m_shadowCasting || !(nearest_m > 0) || !std::isfinite(nearest_m)) return;
  // A power of two, so the map's texel size changes only at doublings, not with every move.
  const double distance = std::exp2(std::ceil(std::log2(SHADOW_REACH_PER_CLEARANCE * nearest_m)));
  view.shadowDistanceMeters = static_cast<float>(distance);
  float axes[2][3];
  shadowAxes(view.sunDirection, axes[0], axes[1]);
  // The grid is anchored at the campus's own origin, so it lies the same on the campus
  // wherever the campus is placed.
  const glm::dvec3 eyeOnCampus = eye - glm::dvec3(m_scene.rootTransform()[3]);
  for (int i = 0; i < 2; ++i) {
    const double along = glm::dot(eyeOnCampus, glm::dvec3(axes[i][0], axes[i][1], axes[i][2]));
    const double period = 2.0 * distance;
    view.shadowGridOffset[i] = static_cast<float>(along - period * std::floor(along / period));
  }
}

void World::addStationLabels(const Studio& studio, const CullView& view, const FrameDesc& frame,
                             RenderList& out) const {
  const double focal = 0.5 * view.viewportHeight_px / std::tan(0.5 * view.verticalFov_rad);
  std::vector<std::pair<double, const Station*>> candidates;
  for (const Station& s : m_stations) {
    // The hero needs no label naming it: the title says it (and it would sit on the subject);
    // stations outside the studio are not drawn, so not named.
    if (studio.station && s.studioPath == studio.station->studioPath) continue;
    if (studio.station && s.path.rfind(studio.station->studioPath, 0) != 0) continue;
    const glm::dvec3 rel = s.bounds.center() - view.eye;
    const double depth = glm::dot(rel, view.forward);
    if (depth <= 0) continue;
    const double px = s.scale_m / depth * focal;
    if (px < MIN_STATION_LABEL_PX || px > MAX_STATION_LABEL_VIEWPORTS * view.viewportHeight_px) {
      continue;
    }
    candidates.emplace_back(px, &s);
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < candidates.size() && out.labels.size() < frame.maxLabels; ++i) {
    const Station& s = *candidates[i].second;
    const glm::dvec3 anchor = labelPoint(s.bounds) - view.eye;
    // Hidden behind something else (a wall, a rack): no label through it.
    const double anchorDistance = glm::length(anchor);
    const auto blocker = m_scene.pick(view.eye, anchor, &view.studio);
    if (blocker && blocker->distance_m < STATION_BLOCKER_SLACK * anchorDistance &&
        !isWithin(blocker->path, s.path)) {
      continue;
    }
    out.labels.push_back(makeLabel(anchor, s.title, static_cast<float>(candidates[i].first)));
  }
}

void World::addCallouts(const Station& station, const CullView& view, RenderList& out) const {
  for (const Callout& c : station.callouts) {
    const glm::dvec3 anchor = c.anchor - view.eye;
    if (glm::dot(anchor, view.forward) <= 0) continue;
    // Seen from behind, what it names is hidden by the hero itself, or by what stands in front.
    const auto blocker = m_scene.pick(view.eye, anchor, &view.studio);
    if (blocker && blocker->distance_m < LABEL_BLOCKER_SLACK * glm::length(anchor)) continue;
    // What the station's picture is about: before station names, after the live events.
    out.labels.push_back(makeLabel(anchor, c.text, LabelRank::CALLOUT));
  }
}

std::optional<PickHit> World::pick(const Camera& camera, double x_px, double y_px,
                                   const FrameDesc& frame) const {
  const glm::dvec3 dir = camera.rayThroughPixel(x_px, y_px, frame.width_px, frame.height_px);
  return pickAlong(camera.position(), dir);
}

}  // namespace world
