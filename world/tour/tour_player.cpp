#include "world/tour/tour_player.h"

#include <algorithm>
#include <glm/glm.hpp>

namespace world {
namespace {

// A step's beats: its narration chunks, then its call to action.
size_t beatsOf(const TourStep& s) {
  return s.narration.size() + (s.action.empty() ? 0 : 1);
}

}  // namespace

sim::Result<TourPlayer> TourPlayer::create(TourBundle bundle,
                                           std::map<std::string, OrbitPose> views,
                                           TourPlayerDesc desc) {
  using R = sim::Result<TourPlayer>;
  TourPlayer player;
  player.m_bundle = std::move(bundle);
  player.m_views = std::move(views);
  player.m_desc = desc;
  const Tour& tour = player.m_bundle.tour;
  auto language = std::find_if(player.m_bundle.languages.begin(), player.m_bundle.languages.end(),
                               [&](const StringTable& t) { return t.language == desc.language; });
  if (language == player.m_bundle.languages.end())
    return R::failure(tour.file.string() + ": no strings for language \"" + desc.language + "\"");
  player.m_language = static_cast<size_t>(language - player.m_bundle.languages.begin());
  if (const TourStep* step = player.stepWithoutView(player.m_views))
    return R::failure(step->where + ": station \"" + *step->station + "\" has no viewpoint");
  bool anyHighlight = false;
  for (const TourChapter& chapter : tour.chapters) anyHighlight = anyHighlight || chapter.highlight;
  for (size_t c = 0; c < tour.chapters.size(); ++c) {
    if (desc.highlightsOnly && anyHighlight && !tour.chapters[c].highlight) continue;
    for (size_t s = 0; s < tour.chapters[c].steps.size(); ++s) player.m_order.emplace_back(c, s);
  }
  if (player.m_order.empty()) return R::failure(tour.file.string() + ": the tour has no steps");
  player.m_target = player.targetOf(player.step());
  player.m_pose = toPose(player.m_target);
  return player;
}

const TourStep* TourPlayer::stepWithoutView(const std::map<std::string, OrbitPose>& views) const {
  for (const TourChapter& chapter : m_bundle.tour.chapters) {
    for (const TourStep& step : chapter.steps) {
      if (step.station && !views.count(*step.station)) return &step;
    }
  }
  return nullptr;
}

bool TourPlayer::setViews(std::map<std::string, OrbitPose> views) {
  if (stepWithoutView(views)) return false;
  m_views = std::move(views);
  // The step's view in the new world, reached at once: a flight between two worlds has no way.
  m_flight.reset();
  m_target = targetOf(step());
  if (!m_free) m_pose = toPose(m_target);
  return true;
}

const TourStep& TourPlayer::step() const {
  const auto [c, s] = m_order[m_index];
  return m_bundle.tour.chapters[c].steps[s];
}

size_t TourPlayer::beatCount() const {
  return beatsOf(step());
}

double TourPlayer::beatDuration_s() const {
  return step().hold_s / static_cast<double>(beatCount());
}

OrbitPose TourPlayer::targetOf(const TourStep& s) const {
  return s.station ? m_views.at(*s.station) : *s.orbit;
}

void TourPlayer::flyTo(const Pose& from, const OrbitPose& to) {
  // Start orbiting a point ahead of the camera as far away as the new target is: the distance
  // then changes geometrically from there.
  const double distance_m = std::max(glm::length(to.target - from.position), 1e-9);
  flyFromOrbit(toOrbitPose(from, distance_m), to);
}

void TourPlayer::flyFromOrbit(const OrbitPose& from, const OrbitPose& to) {
  m_target = to;
  m_flightElapsed_s = 0;
  if (m_desc.reducedMotion) {
    m_flight.reset();
    m_pose = toPose(to);
    return;
  }
  m_flight.emplace(from, to, m_desc.flight);
  m_pose = toPose(from);
}

void TourPlayer::goTo(size_t orderIndex, size_t beat) {
  const bool stepChanged = orderIndex != m_index;
  m_index = orderIndex;
  m_beat = std::min(beat, beatCount() - 1);
  m_beatElapsed_s = 0;
  m_finished = false;
  if (!stepChanged) return;
  ++m_stepSerial;
  const OrbitPose to = targetOf(step());
  const bool sameView = to.target == m_target.target && to.distance_m == m_target.distance_m &&
                        to.yaw_rad == m_target.yaw_rad && to.pitch_rad == m_target.pitch_rad;
  // On the path the camera orbits the step it is at (or the flight's pose there): the new
  // flight continues from that orbit, so its target slides from one thing to the other and the
  // camera stays as close to them as it was (a point "ahead" could lie behind a wall, under the
  // floor or outside the hall, and the flight would show the hall from outside).
  if (!sameView && !m_free) {
    flyFromOrbit(m_flight ? m_flight->sampleOrbit(m_flightElapsed_s) : m_target, to);
  }
  if (m_free) m_target = to;  // reached on return
}

void TourPlayer::start(const Pose& from) {
  m_index = 0;
  m_beat = 0;
  m_beatElapsed_s = 0;
  m_free = false;
  m_finished = false;
  ++m_stepSerial;
  flyTo(from, targetOf(step()));
}

bool TourPlayer::next() {
  if (m_beat + 1 < beatCount()) {
    goTo(m_index, m_beat + 1);
    return true;
  }
  return nextStep();
}

bool TourPlayer::prev() {
  if (m_beat > 0) {
    goTo(m_index, m_beat - 1);
    return true;
  }
  if (m_index == 0) return false;
  goTo(m_index - 1, 0);
  goTo(m_index, beatCount() - 1);
  return true;
}

bool TourPlayer::nextStep() {
  if (m_index + 1 < m_order.size()) {
    goTo(m_index + 1, 0);
    return true;
  }
  if (!m_desc.loop) return false;
  goTo(0, 0);
  return true;
}

bool TourPlayer::prevStep() {
  if (m_index == 0) return false;
  goTo(m_index - 1, 0);
  return true;
}

bool TourPlayer::jumpToChapter(size_t index) {
  for (size_t i = 0; i < m_order.size(); ++i) {
    if (m_order[i].first != index) continue;
    goTo(i, 0);
    return true;
  }
  return false;
}

bool TourPlayer::jumpToChapterKey(int digit) {
  if (digit < 0 || digit > 9) return false;
  const size_t number = digit == 0 ? 10 : static_cast<size_t>(digit);
  size_t numbered = 0;
  const auto& chapters = m_bundle.tour.chapters;
  for (size_t c = 0; c < chapters.size(); ++c) {
    if (chapters[c].finale) continue;
    if (++numbered == number) return jumpToChapter(c);
  }
  return false;
}

bool TourPlayer::jumpToFinale() {
  const auto& chapters = m_bundle.tour.chapters;
  if (chapters.empty() || !chapters.back().finale) return false;
  return jumpToChapter(chapters.size() - 1);
}

void TourPlayer::leavePath() {
  m_free = true;
  m_flight.reset();
}

void TourPlayer::returnToPath(const Pose& current) {
  m_free = false;
  m_beatElapsed_s = 0;
  flyTo(current, targetOf(step()));
}

void TourPlayer::advance(double dt_s) {
  if (m_free || !(dt_s > 0)) return;
  if (m_flight) {
    m_flightElapsed_s += dt_s;
    m_pose = m_flight->sample(m_flightElapsed_s);
    if (m_flight->finished(m_flightElapsed_s)) {
      m_pose = toPose(m_target);
      m_flight.reset();
    }
    return;  // beats wait for the camera to arrive
  }
  if (!m_desc.autoAdvance || m_finished) return;
  m_beatElapsed_s += dt_s;
  const double over_s = m_beatElapsed_s - beatDuration_s();
  if (over_s < 0) return;
  if (!next()) {
    m_finished = true;
    return;
  }
  m_beatElapsed_s = over_s;  // carried over, so the holds add up exactly
}

void TourPlayer::land() {
  m_flight.reset();
  m_pose = toPose(m_target);
}

void TourPlayer::setReducedMotion(bool on) {
  m_desc.reducedMotion = on;
  if (on) land();
}

bool TourPlayer::setLanguage(const std::string& code) {
  for (size_t i = 0; i < m_bundle.languages.size(); ++i) {
    if (m_bundle.languages[i].language != code) continue;
    m_language = i;
    return true;
  }
  return false;
}

std::string TourPlayer::text(const std::string& key) const {
  const std::string* found = m_bundle.languages[m_language].find(key);
  return found ? *found : key;
}

TourFrame TourPlayer::frame() const {
  const auto [c, s] = m_order[m_index];
  const TourChapter& chapter = m_bundle.tour.chapters[c];
  const TourStep& st = chapter.steps[s];
  TourFrame f;
  f.chapter = c;
  f.step = s;
  f.beatNumber = m_beat + 1;
  f.beatTotal = 0;
  for (size_t i = 0; i < m_order.size(); ++i) {
    const auto [oc, os] = m_order[i];
    const size_t beats = beatsOf(m_bundle.tour.chapters[oc].steps[os]);
    f.beatTotal += beats;
    if (i < m_index) f.beatNumber += beats;
  }
  f.beat = m_beat;
  f.beatCount = beatCount();
  if (!chapter.finale) {
    int number = 0;
    for (size_t i = 0; i <= c; ++i) number += m_bundle.tour.chapters[i].finale ? 0 : 1;
    f.chapterNumber = number;
  }
  f.chapterTitle = text(chapter.title);
  f.captionIsAction = m_beat >= st.narration.size();
  f.caption = text(f.captionIsAction ? st.action : st.narration[m_beat]);
  if (!st.booth.empty()) f.boothCaption = text(st.booth);
  if (!st.headline.empty()) f.boothHeadline = text(st.headline);
  f.controls = st.controls;
  f.freeFlight = m_free;
  f.cameraPose = m_pose;
  f.cameraMoving = m_flight.has_value();
  f.station = st.station.value_or("");
  f.target = m_target;
  f.overlays = st.overlays;
  f.panel = chapter.panel;
  f.scenario = st.scenario;
  f.engineScenario = st.engineScenario;
  f.faults = st.faults;
  f.stepSerial = m_stepSerial;
  return f;
}

}  // namespace world
