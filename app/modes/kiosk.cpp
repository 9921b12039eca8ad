#include "app/modes/kiosk.h"

#include <algorithm>

namespace app {

const char* kioskStateName(KioskState state) {
  switch (state) {
    case KioskState::Attract:
      return "attract";
    case KioskState::Tour:
      return "tour";
    case KioskState::IdleWarning:
      return "idle_warning";
  }
  return "?";
}

KioskMachine::KioskMachine(KioskDesc desc) : m_desc(desc) {
  m_desc.idleTimeout_s = std::max(m_desc.idleTimeout_s, 1.0);
  m_desc.warningDuration_s = std::max(m_desc.warningDuration_s, 1.0);
}

KioskOutput KioskMachine::output() const {
  KioskOutput out;
  out.state = m_state;
  out.blanked = m_blanked;
  if (m_state == KioskState::IdleWarning)
    out.warningLeft_s = std::max(m_desc.warningDuration_s - m_warning_s, 0.0);
  return out;
}

KioskOutput KioskMachine::update(const KioskEvent& event, double dt_s) {
  dt_s = std::max(dt_s, 0.0);
  bool startAttract = false;

  // Time first: the quiet spell, then the countdown (a long dt can cross both).
  if (m_state != KioskState::Attract) {
    m_idle_s += dt_s;
    if (m_state == KioskState::Tour && m_idle_s >= m_desc.idleTimeout_s) {
      m_state = KioskState::IdleWarning;
      m_warning_s = m_idle_s - m_desc.idleTimeout_s;
      m_blanked = false;  // the visitor must see the countdown
    } else if (m_state == KioskState::IdleWarning) {
      m_warning_s += dt_s;
    }
    if (m_state == KioskState::IdleWarning && m_warning_s >= m_desc.warningDuration_s) {
      m_state = KioskState::Attract;
      m_blanked = false;
      startAttract = true;
    }
  }

  KioskOutput out;
  const KioskInput input = event.input;
  if (input == KioskInput::QuitChord) {
    out = output();
    out.quit = true;
    out.startAttract = startAttract;
    return out;
  }
  if (input == KioskInput::TourEnded) {
    if (m_state != KioskState::Attract) {
      m_state = KioskState::Attract;
      m_blanked = false;
      startAttract = true;
    }
    out = output();
    out.startAttract = startAttract;
    return out;
  }
  if (input == KioskInput::None) {
    out = output();
    out.startAttract = startAttract;
    return out;
  }

  // A person is here.
  m_idle_s = 0;
  if (input == KioskInput::Blank) {
    if (m_state == KioskState::IdleWarning) m_state = KioskState::Tour;
    m_blanked = !m_blanked;
    out = output();
    out.startAttract = startAttract;
    return out;
  }
  if (m_blanked) {  // the first touch only brings the picture back
    m_blanked = false;
    out = output();
    out.startAttract = startAttract;
    return out;
  }
  switch (m_state) {
    case KioskState::Attract:
      m_state = KioskState::Tour;
      out = output();
      out.startTour = true;
      if (input == KioskInput::Chapter) out.chapterDigit = event.digit;
      break;
    case KioskState::IdleWarning:  // "still here": the touch only dismisses the warning
      m_state = KioskState::Tour;
      out = output();
      break;
    case KioskState::Tour:
      out = output();
      out.next = input == KioskInput::Next;
      out.prev = input == KioskInput::Prev;
      if (input == KioskInput::Chapter) out.chapterDigit = event.digit;
      break;
  }
  out.startAttract = startAttract;
  return out;
}

}  // namespace app
