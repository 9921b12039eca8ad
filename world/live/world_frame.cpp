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

// Live labels: smallest on-screen size (px) worth a label, and how much of the way to the anchor
// a blocker may be hit at and still count as the labelled thing (its own cover, a cold plate).
constexpr double MIN_OVERLAY_LABEL_PX = 16.0;
constexpr double BLOCKER_SLACK = 0.93;
// Candidates tested for occlusion per label wanted (each test is one ray pick).
constexpr uint32_t CANDIDATES_PER_LABEL = 3;
constexpr uint32_t GPU_CANDIDATE_BIT = 0x80000000u;

bool contains(const Aabb& outer, const Aabb& inner) {
  const glm::dvec3 eps(1e-6);
  return glm::all(glm::lessThanEqual(outer.min - eps, inner.min)) &&
         glm::all(glm::lessThanEqual(inner.max, outer.max + eps));
}

// "184" for a value in `unit` (no decimals: labels are read at a glance).
std::string formatValue(double value, const std::string& unit) {
  if (std::isnan(value)) return "no data";  // a trace replay's GPU without a trace
  char text[48];
  std::snprintf(text, sizeof(text), "%.0f %s", value, unit.c_str());
  return text;
}

// Whether instance path `path` is `ancestor` or lies inside it ("" is the root).
bool isWithin(const std::string& path, const std::string& ancestor) {
  if (ancestor.empty() || path == ancestor) return true;
  return path.size() > ancestor.size() && path.compare(0, ancestor.size(), ancestor) == 0 &&
         path[ancestor.size()] == '/';
}

// Where a box's label points: the middle of its top face (world metres).
glm::dvec3 labelPoint(const Aabb& box) {
  return {box.center().x, box.max.y, box.center().z};
}

// A label at `anchor` (camera-relative metres).
Label makeLabel(const glm::dvec3& anchor, std::string text, float priority) {
  Label label;
  for (int k = 0; k < 3; ++k) label.anchor[k] = static_cast<float>(anchor[k]);
  label.text = std::move(text);
  label.priority = priority;
  return label;
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
  updateOverlay(snapshot, metric, m_overlayTarget);
  easeOverlay(m_overlay, m_overlayTarget, calm.maxStep());
  m_traffic.setSpeedScale(calm.reducedMotion ? Calm::REDUCED_TRAFFIC_SPEED : 1.0);
  m_traffic.update(snapshot);
  m_coolant.update(snapshot);
  m_computeGlow.update(snapshot, m_scene, calm.maxStep());
  m_stepSplit = sim::engine::stepSplit(snapshot);
  m_ringState = m_ring.state(snapshot);
  m_hallPower_W = m_power.hallPower_W(snapshot);
  if (generation != m_stagesGeneration) {  // a job's placement holds for its whole run
    m_stageBars = m_stages.layout(snapshot);
    m_stageRibbon = m_stages.ribbon(snapshot);
    m_stageCount = snapshot.training ? uint32_t(std::max(1, snapshot.training->desc.pp)) : 0;
    m_stagesGeneration = generation;
  }
  m_domainGpus = snapshot.cluster ? snapshot.cluster->gpusPerRack : 0;
  m_gpusPerTray = snapshot.cluster ? snapshot.cluster->gpusPerTray : 0;
  m_generation = generation;
}

FrameStats World::buildRenderList(const Camera& camera, const FrameDesc& frame, RenderList& out) {
  out.clear();
  out.generation = m_generation;
  for (auto& bucket : m_scratch) bucket.clear();
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
  if (m_overlay.active()) {
    m_tint.prepare(m_overlay);
    view.tint = &m_tint;
  }
  const double clearance = m_scene.nearestSurfaceDistance(view.eye);
  const Studio studio = studioFor(view.eye, view.forward, clearance, frame.studio);
  if (studio.station) {
    splitPath(studio.station->studioPath, view.studio.path);
    view.studio.neighbours = studio.station->neighbours;
    view.studio.standIns = studio.station->standIns;
  }
  m_studio = view.studio;  // what a click on this frame can hit
  if (frame.cull) view.drawDistance_m = studio.fogEnd_m;
  if (m_shadowCasting) {
    // The shadow distance is SHADOW_REACH_PER_CLEARANCE * the nearest surface (at most
    // `clearance`) rounded up to a power of two, so below twice that: a sphere round the
    // farthest possible centre that holds the largest possible square, swept towards the sun,
    // keeps every caster whatever this frame's distance is.
    const double reach = 2.0 * SHADOW_REACH_PER_CLEARANCE * clearance;  // rounded up to 2^k
    const glm::dvec3 sun(out.view.sunDirection[0], out.view.sunDirection[1],
                         out.view.sunDirection[2]);
    view.keepShadowCasters = glm::dot(sun, sun) > 0;
    view.towardSun = view.keepShadowCasters ? glm::normalize(sun) : glm::dvec3(0, 1, 0);
    view.casterCentre = view.forward * (double(SHADOW_CENTRE_AHEAD) * reach);
    view.casterRadius_m = std::sqrt(2.0) * reach;
    view.casterReach_m = double(SHADOW_CASTER_REACH) * reach;
  }
  // The animated boxes come first out of the budget; they join the box bucket after the scene's.
  if (frame.compute) m_computeGlow.show(*frame.compute, m_scene);
  m_animated.clear();
  // The hero rack's traffic is drawn at the rack's scale: in a chip's studio its particles
  // would be slabs larger than the hero, sweeping across the frame.
  const bool chipStudio = studio.station && studio.station->scale_m <= CHIP_SCALE_M;
  if (frame.traffic && !chipStudio) m_traffic.emit(view.eye, m_animated);
  if (frame.coolant) m_coolant.emit(view.eye, m_animated);
  if (frame.hbmFill) m_hbmFill.emit(*frame.hbmFill, view.eye, m_animated);
  m_systolic.emit(frame.animationTime_s, view.eye, m_animated);
  if (frame.ring) m_ring.emit(m_ringState, frame.eventTime_s, view.eye, m_animated);
  if (frame.hbmStream) {
    const double share = frame.compute ? frame.compute->hbm : m_computeGlow.hbmShare();
    for (const HbmStream& s : m_hbmStreams) s.emit(share, frame.eventTime_s, view.eye, m_animated);
  }
  if (frame.powerFlow) m_power.emit(m_hallPower_W, frame.eventTime_s, view.eye, m_animated);
  if (frame.nvlinkDomain && m_gpusPerTray > 0) {
    const uint32_t lit = NvlinkDomain::litGpus(frame.eventTime_s, m_domainGpus, m_gpusPerTray);
    m_nvlink.emit(lit / m_gpusPerTray, view.eye, m_animated);
  }
  if (frame.goodput) m_goodput.emit(m_stepSplit, view.right, view.eye, m_animated);
  if (frame.stageBands) {
    StageBands::emit(m_stageBars, m_stageCount, view.eye, m_animated);
    StageBands::emit(m_stageRibbon, m_stageCount, view.eye, m_animated);
  }
  m_eventLabels.clear();
  auto topOf = [](const Aabb& box) {
    return glm::dvec3(box.center().x, box.max.y, box.center().z);
  };
  if (!frame.valueBars.empty() && studio.station) {
    const std::vector<Aabb> boxes =
        ValueBars::layout(studio.station->studioBounds, view.right, view.forward, frame.valueBars);
    ValueBars::emit(boxes, frame.valueBars, view.eye, m_animated);
    for (size_t i = 0; i < boxes.size(); ++i)
      m_eventLabels.emplace_back(topOf(boxes[i]), frame.valueBars[i].label);
  }
  if (frame.pixelRace && studio.station) {
    const PixelRace::Screens screens =
        PixelRace::layout(studio.station->studioBounds, view.right, view.forward);
    PixelRace::emit(screens, *frame.pixelRace, frame.eventTime_s, view.eye, m_animated);
    m_eventLabels.emplace_back(topOf(screens.left), frame.pixelRace->left.label);
    m_eventLabels.emplace_back(topOf(screens.right), frame.pixelRace->right.label);
  }
  const uint64_t animatedTriangles =
      uint64_t(m_meshes.mesh(m_primitives.box).triangleCount()) * m_animated.size();
  view.triangleBudget =
      frame.triangleBudget == UINT64_MAX
          ? UINT64_MAX
          : frame.triangleBudget - std::min(frame.triangleBudget, animatedTriangles);
  const CollectStats stats = m_scene.collect(view, {m_primitives.box, m_primitives.frontFace},
                                             m_scratch, &m_collectScratch);
  if (m_scratch.size() <= m_primitives.box.index) m_scratch.resize(m_primitives.box.index + 1);
  auto& boxes = m_scratch[m_primitives.box.index];
  boxes.insert(boxes.end(), m_animated.begin(), m_animated.end());

  FrameStats result;
  result.prototypesVisited = stats.prototypesVisited;
  result.heldBack = stats.heldBack;
  for (size_t mesh = 0; mesh < m_scratch.size(); ++mesh) {
    const auto& bucket = m_scratch[mesh];
    if (bucket.empty()) continue;
    // Near to far by centre distance: the early depth test then rejects most hidden fragments,
    // which matters when the camera sits inside a tray inside a rack inside a hall (each
    // enclosing part covers the screen) and fill rate is what software Vulkan runs out of.
    m_order.clear();
    for (uint32_t i = 0; i < bucket.size(); ++i) {
      const gpu::Instance& inst = bucket[i];
      const float d2 =
          inst.row0.w * inst.row0.w + inst.row1.w * inst.row1.w + inst.row2.w * inst.row2.w;
      m_order.push_back({d2, i});
    }
    std::sort(m_order.begin(), m_order.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    // The textured instances (a bezel's perforation among a tray's boxes) in a batch of their
    // own: the rest of the mesh's instances do not pay for the texture path per fragment.
    for (const bool textured : {false, true}) {
      DrawBatch batch;
      batch.mesh = MeshId{static_cast<uint32_t>(mesh)};
      batch.firstInstance = static_cast<uint32_t>(out.instances.size());
      for (const auto& [d2, i] : m_order) {
        const gpu::Instance& inst = bucket[i];
        if ((inst.material.x > 0.0f) != textured) continue;
        batch.alphaTest = batch.alphaTest || inst.material.y > 0.0f || inst.material.z > 0.0f;
        out.instances.push_back(inst);
      }
      batch.instanceCount = static_cast<uint32_t>(out.instances.size()) - batch.firstInstance;
      if (batch.instanceCount == 0) continue;
      batch.textured = textured;
      // The box's front face alone (proxies' faces, LED lines) and its sides alone are drawn as
      // the box is.
      batch.boxDetail = batch.mesh.index == m_primitives.box.index ||
                        batch.mesh.index == m_primitives.frontFace.index ||
                        batch.mesh.index == m_primitives.boxSides.index;
      out.batches.push_back(batch);
    }
  }
  result.instances = static_cast<uint32_t>(out.instances.size());
  result.triangles = out.triangleCount(m_meshes);

  const double nearest = std::min(clearance, stats.nearestVisible_m);
  result.nearestSurface_m = nearest;
  camera.fillView(out.view);
  out.view.nearMeters =
      static_cast<float>(std::clamp(NEAR_FRACTION * nearest, MIN_NEAR_M, MAX_NEAR_M));
  lightStudio(studio, view.eye, out.view);
  out.view.shadowDistanceMeters = 0.0f;
  if (m_shadowCasting && nearest > 0 && std::isfinite(nearest)) {
    // A power of two, so the map's texel size changes only at doublings, not with every move.
    const double distance = std::exp2(std::ceil(std::log2(SHADOW_REACH_PER_CLEARANCE * nearest)));
    out.view.shadowDistanceMeters = static_cast<float>(distance);
    float axes[2][3];
    shadowAxes(out.view.sunDirection, axes[0], axes[1]);
    // The grid is anchored at the campus's own origin, so it lies the same on the campus
    // wherever the campus is placed.
    const glm::dvec3 eyeOnCampus = view.eye - glm::dvec3(m_scene.rootTransform()[3]);
    for (int i = 0; i < 2; ++i) {
      const double along = glm::dot(eyeOnCampus, glm::dvec3(axes[i][0], axes[i][1], axes[i][2]));
      const double period = 2.0 * distance;
      out.view.shadowGridOffset[i] =
          static_cast<float>(along - period * std::floor(along / period));
    }
  }

  // Labels: stations in front of the camera whose size on screen is readable, largest first.
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
    if (px < 24.0 || px > 1.5 * view.viewportHeight_px) continue;
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
    if (blocker && blocker->distance_m < 0.97 * anchorDistance &&
        !isWithin(blocker->path, s.path)) {
      continue;
    }
    out.labels.push_back(makeLabel(anchor, s.title, static_cast<float>(candidates[i].first)));
  }
  if (studio.station && frame.maxLabels > 0) addCallouts(*studio.station, view, out);
  addOverlayLabels(view, frame, out);
  if (frame.coolant) addCoolantLabel(view, out);
  if (frame.traffic) addFabricLabels(view, out);
  if (frame.powerFlow) addPowerLabels(view, frame, out);
  addEventLabels(view, frame, out);
  return result;
}

void World::addCallouts(const Station& station, const CullView& view, RenderList& out) const {
  for (const Callout& c : station.callouts) {
    const glm::dvec3 anchor = c.anchor - view.eye;
    if (glm::dot(anchor, view.forward) <= 0) continue;
    // Seen from behind, what it names is hidden by the hero itself, or by what stands in front.
    const auto blocker = m_scene.pick(view.eye, anchor, &view.studio);
    if (blocker && blocker->distance_m < BLOCKER_SLACK * glm::length(anchor)) continue;
    // What the station's picture is about: before station names, after the live events.
    out.labels.push_back(makeLabel(anchor, c.text, 2e5f));
  }
}

std::string coolantLabel(const CoolantState& state) {
  char text[128];
  std::snprintf(text, sizeof text, "CDU  supply %.0f °C  return %.0f °C  flow %.0f %% (derived)",
                state.at_C(CoolantTemp::Supply), state.at_C(CoolantTemp::LoopReturn),
                100.0 * state.flowFraction);
  return text;
}

void World::addCoolantLabel(const CullView& view, RenderList& out) const {
  if (m_cduBounds.empty()) return;
  const glm::dvec3 anchor = labelPoint(m_cduBounds) - view.eye;
  if (glm::dot(anchor, view.forward) <= 0) return;
  // What the coolant view is about: before station names.
  out.labels.push_back(makeLabel(anchor, coolantLabel(m_coolant.state()), 1e6f));
}

std::string fabricLegLabel(const FabricLeg& leg, size_t index) {
  const std::string name = index == 0 ? "to leaf" : "to spine " + std::to_string(index - 1);
  if (leg.down) return name + "  links down";
  if (leg.flow.paused) return name + "  PFC-paused";
  // All of the leg's cables together: Tb/s once it reaches a thousand Gb/s.
  const double rate_bps = leg.flow.rate_Bps * 8.0;
  char text[96];
  if (rate_bps >= 1e12) {
    std::snprintf(text, sizeof text, "  %.3g Tb/s  %.0f %% (derived)", rate_bps * 1e-12,
                  100.0 * leg.flow.load());
  } else {
    std::snprintf(text, sizeof text, "  %.0f Gb/s  %.0f %% (derived)", rate_bps * 1e-9,
                  100.0 * leg.flow.load());
  }
  return name + text;
}

void World::addFabricLabels(const CullView& view, RenderList& out) const {
  const std::vector<FabricLeg>& legs = m_traffic.legs();
  for (size_t i = 0; i < legs.size(); ++i) {
    if (legs[i].rackBounds.empty()) continue;
    const glm::dvec3 anchor = labelPoint(legs[i].rackBounds) - view.eye;
    if (glm::dot(anchor, view.forward) <= 0) continue;
    // After the CDU, before station names.
    Label label = makeLabel(anchor, fabricLegLabel(legs[i], i), 5e5f);
    // Light red: still 4.5:1 against the label plate (tests/app/label_legibility_test.cpp).
    if (legs[i].flow.paused || legs[i].down) label.rgba = 0xffaaaaffu;  // IM_COL32(255, 170, 170)
    out.labels.push_back(std::move(label));
  }
}

std::string powerFlowLabel(const PowerFlow::Flow& flow) {
  char text[64];
  if (flow.hall < 0) {
    std::snprintf(text, sizeof text, "substation  %.1f MW IT, step mean", flow.power_W * 1e-6);
  } else {
    std::snprintf(text, sizeof text, "hall %d  %.1f MW%s", flow.hall, flow.power_W * 1e-6,
                  flow.heat ? " of heat" : "");
  }
  return text;
}

void World::addEventLabels(const CullView& view, const FrameDesc& frame, RenderList& out) const {
  if (frame.maxOverlayLabels == 0) return;
  for (const auto& [at, text] : m_eventLabels) {
    if (!text.empty()) out.labels.push_back(makeLabel(at - view.eye, text, 3e5f));
  }
}

void World::addPowerLabels(const CullView& view, const FrameDesc& frame, RenderList& out) const {
  if (frame.maxOverlayLabels == 0) return;
  const std::vector<PowerFlow::Flow> flows = m_power.layout(m_hallPower_W);
  // The substation's feed (the first flow) and each hall's feed: what the campus draws and where.
  for (size_t i = 0; i < flows.size(); ++i) {
    const PowerFlow::Flow& f = flows[i];
    if (f.heat || (f.hall < 0 && i != 0)) continue;
    const glm::dvec3 anchor = labelPoint(f.box) - view.eye;
    if (glm::dot(anchor, view.forward) <= 0) continue;
    out.labels.push_back(makeLabel(anchor, powerFlowLabel(f), 4e5f));
  }
}

void World::addOverlayLabels(const CullView& view, const FrameDesc& frame, RenderList& out) {
  if (!m_overlay.active() || frame.maxOverlayLabels == 0) return;
  const double focal = 0.5 * view.viewportHeight_px / std::tan(0.5 * view.verticalFov_rad);
  const double halfW = 0.5 * double(std::max(1u, frame.width_px));
  const double halfH = 0.5 * view.viewportHeight_px;
  // On screen and large enough: its depth, else a negative number.
  auto depthIfShown = [&](const Aabb& b) {
    const glm::dvec3 rel = labelPoint(b) - view.eye;
    const double depth = glm::dot(rel, view.forward);
    if (depth <= 0) return -1.0;
    const double x = glm::dot(rel, view.right) / depth * focal;
    const double y = glm::dot(rel, view.up) / depth * focal;
    if (std::abs(x) > halfW || std::abs(y) > halfH) return -1.0;
    const glm::dvec3 size = b.size();
    const double px = std::max({size.x, size.y, size.z}) / depth * focal;
    return px < MIN_OVERLAY_LABEL_PX ? -1.0 : depth;
  };

  m_labelCandidates.clear();
  const uint32_t racks =
      std::min<uint32_t>(m_racks.rackCount(), uint32_t(m_overlay.rackValues.size()));
  for (uint32_t i = 0; i < racks; ++i) {
    const double depth = depthIfShown(m_racks.rackBounds(i));
    if (depth > 0) m_labelCandidates.emplace_back(depth, i);
  }
  for (uint32_t i = 0; i < m_heroGpus.size(); ++i) {
    if (m_heroGpus[i].local(m_overlay.gpusPerTray) >= m_overlay.heroGpuValues.size()) continue;
    const double depth = depthIfShown(m_heroGpus[i].bounds);
    if (depth > 0) m_labelCandidates.emplace_back(depth, GPU_CANDIDATE_BIT | i);
  }
  const size_t tested = std::min<size_t>(m_labelCandidates.size(),
                                         size_t(frame.maxOverlayLabels) * CANDIDATES_PER_LABEL);
  std::partial_sort(m_labelCandidates.begin(), m_labelCandidates.begin() + tested,
                    m_labelCandidates.end());

  const std::string badge = " (" + std::string(sim::basisName(m_overlay.basis)) + ")";
  uint32_t added = 0;
  for (size_t c = 0; c < tested && added < frame.maxOverlayLabels; ++c) {
    const uint32_t id = m_labelCandidates[c].second;
    const bool gpu = (id & GPU_CANDIDATE_BIT) != 0;
    const uint32_t index = id & ~GPU_CANDIDATE_BIT;
    const Aabb& bounds = gpu ? m_heroGpus[index].bounds : m_racks.rackBounds(index);
    const glm::dvec3 anchor = labelPoint(bounds) - view.eye;
    const double anchorDistance = glm::length(anchor);
    const auto blocker = m_scene.pick(view.eye, anchor, &view.studio);
    if (blocker && blocker->distance_m < BLOCKER_SLACK * anchorDistance &&
        !contains(bounds, blocker->worldBounds)) {
      continue;
    }
    Label label;
    for (int k = 0; k < 3; ++k) label.anchor[k] = static_cast<float>(anchor[k]);
    // The colour eases towards the engine's value (calm); the words say the value itself, the
    // one the inspector and the panels show.
    const OverlayState& now =
        m_overlayTarget.metric == m_overlay.metric &&
                m_overlayTarget.heroGpuValues.size() == m_overlay.heroGpuValues.size() &&
                m_overlayTarget.rackValues.size() == m_overlay.rackValues.size()
            ? m_overlayTarget
            : m_overlay;
    if (gpu) {
      const uint32_t local = m_heroGpus[index].local(now.gpusPerTray);
      label.text = "GPU " + std::to_string(local) + "  " +
                   formatValue(now.heroGpuValues[local], now.gpuRange.unit) + badge;
    } else {
      label.text = "rack " + std::to_string(index) + "  " +
                   formatValue(now.rackValues[index], now.rackRange.unit) + badge;
    }
    // Nearer first when labels collide.
    label.priority = static_cast<float>(focal / std::max(1e-3, m_labelCandidates[c].first));
    out.labels.push_back(std::move(label));
    ++added;
  }
}

std::optional<PickHit> World::pick(const Camera& camera, double x_px, double y_px,
                                   const FrameDesc& frame) const {
  const glm::dvec3 dir = camera.rayThroughPixel(x_px, y_px, frame.width_px, frame.height_px);
  return pickAlong(camera.position(), dir);
}

}  // namespace world
