#include "app/modes/booth.h"

#include <cstdio>

#include "app/session/tour_session.h"
#include "app/ui/ui_text.h"

namespace app {

Booth::Booth(const world::World& world, std::string tour, world::TourPlayerDesc player,
             KioskDesc kiosk, bool log)
    : m_world(world),
      m_tour(std::move(tour)),
      m_playerDesc(std::move(player)),
      m_machine(kiosk),
      m_log(log) {
  if (m_log) std::printf("dcwalk: kiosk %s\n", kioskStateName(m_machine.state()));
}

sim::Result<world::TourPlayer> Booth::makePlayer(bool attract) const {
  world::TourPlayerDesc desc = m_playerDesc;
  desc.autoAdvance = attract;
  desc.loop = attract;
  desc.highlightsOnly = attract;
  return makeTourPlayer(m_world, m_tour, desc);
}

void Booth::update(const std::vector<KioskEvent>& events, double wall_s, TourDriver& driver,
                   std::vector<SimCommand>& commands) {
  std::vector<KioskEvent> all = events;
  if (driver.player().finished()) all.push_back({KioskInput::TourEnded});
  if (all.empty()) all.push_back({KioskInput::None});
  double step_s = wall_s;  // the booth's timeouts run on the wall clock
  m_sinceWoken_s += wall_s;
  for (const KioskEvent& event : all) {
    const KioskState before = m_machine.state();
    const KioskOutput out = m_machine.update(event, step_s);
    step_s = 0;
    if (out.quit) m_quit = true;
    if (out.startTour || out.startAttract) {
      // The tour file was checked when the booth started; should it fail now (edited on disk),
      // the booth keeps playing what it has.
      auto fresh = makePlayer(out.startAttract);
      if (fresh) driver.setPlayer(std::move(*fresh), commands);
    }
    if (out.next) driver.next();
    if (out.prev) driver.prev();
    if (out.chapterDigit >= 0) driver.chapter(out.chapterDigit);
    // A visitor who has found the keys needs the step's line, which the how-to hint replaces.
    if (out.next || out.prev || out.chapterDigit >= 0) m_sinceWoken_s = WOKEN_HINT_S;
    m_blanked = out.blanked;
    if (before == KioskState::Attract && out.state == KioskState::Tour) m_sinceWoken_s = 0;
    if (out.state != before) {
      ++m_transitions;
      if (m_log) {  // a log line per transition, for the booth operator
        std::printf("dcwalk: kiosk %s -> %s\n", kioskStateName(before), kioskStateName(out.state));
        std::fflush(stdout);
      }
    }
    m_banner.clear();
    if (out.state == KioskState::IdleWarning) {
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%.0f\u00a0s", out.warningLeft_s);
      m_banner = withValue(uiText("kiosk.still_there", m_playerDesc.language), seconds);
    }
  }
}

}  // namespace app

namespace app {

std::string Booth::hint() const {
  const std::string& language = m_playerDesc.language;
  if (m_machine.state() == KioskState::Attract) return uiText("kiosk.attract", language);
  if (m_machine.state() == KioskState::Tour && m_sinceWoken_s < WOKEN_HINT_S)
    return uiText("kiosk.woken", language);
  return {};
}

}  // namespace app
