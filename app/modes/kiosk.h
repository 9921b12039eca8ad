// Booth mode as a pure state machine driven by (input, dt): an attract loop until someone
// touches a key, the tour, an "are you still there?" countdown after a quiet spell, then back to
// attract. Presenter keys (next, prev, blank) work in every state; the operator's quit chord is
// the only way out. The app maps keys onto KioskInput and acts on KioskOutput.
#pragma once

#include <cstdint>

namespace app {

enum class KioskState { Attract, Tour, IdleWarning };

enum class KioskInput {
  None,       // time passes
  AnyKey,     // any other key, click, touch or pointer move (Escape included: it does not quit)
  Next,       // Space, Right, PageDown (presenter remote)
  Prev,       // Left, PageUp (presenter remote)
  Chapter,    // a digit: jump to a chapter (the digit goes in KioskEvent::digit)
  Blank,      // B or period (presenter remote): screen to black and back
  QuitChord,  // the operator's key combination
  TourEnded,  // the tour player ran past its last step
};

struct KioskEvent {
  KioskInput input = KioskInput::None;
  int digit = -1;  // for KioskInput::Chapter
};

struct KioskDesc {
  double idleTimeout_s = 90.0;      // no input in the tour for this long: the warning
  double warningDuration_s = 15.0;  // the countdown before going back to attract
};

/// What the app does after one update.
struct KioskOutput {
  KioskState state = KioskState::Attract;
  bool startTour = false;     // restart the tour from chapter 1 (attract ended)
  bool startAttract = false;  // restart the attract loop (idle or tour ended)
  bool next = false;          // pass on to the tour player
  bool prev = false;
  int chapterDigit = -1;     // >= 0: jump to this chapter key
  bool blanked = false;      // draw black
  bool quit = false;         // only from the quit chord
  double warningLeft_s = 0;  // the countdown shown in IdleWarning
};

class KioskMachine {
 public:
  explicit KioskMachine(KioskDesc desc = {});

  /// Applies one input after `dt_s` seconds have passed.
  KioskOutput update(const KioskEvent& event, double dt_s);
  /// Shorthand for an input without a digit.
  KioskOutput update(KioskInput input, double dt_s) { return update(KioskEvent{input}, dt_s); }

  KioskState state() const { return m_state; }
  bool blanked() const { return m_blanked; }
  /// Seconds since the last input.
  double idle_s() const { return m_idle_s; }
  const KioskDesc& desc() const { return m_desc; }

 private:
  KioskOutput output() const;
  KioskDesc m_desc;
  KioskState m_state = KioskState::Attract;
  bool m_blanked = false;
  double m_idle_s = 0;
  double m_warning_s = 0;  // time spent in IdleWarning
};

/// "attract", "tour", "idle_warning".
const char* kioskStateName(KioskState state);

}  // namespace app
