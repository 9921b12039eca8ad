// Booth mode around a TourDriver: the kiosk state machine fed with this frame's events, the
// attract loop and the tour swapped in as it says, presenter keys passed on, the idle countdown
// as a banner, one log line per state change. Shared by the window (--kiosk) and the headless
// soak (--kiosk --headless --soak), which scripts a visitor instead of reading keys.
#pragma once

#include <string>
#include <vector>

#include "app/modes/kiosk.h"
#include "app/session/tour_driver.h"
#include "world/tour/tour_player.h"

namespace app {

class Booth {
 public:
  /// `tour` is the tour name or file, `player` the caption language and motion choice.
  Booth(const world::World& world, std::string tour, world::TourPlayerDesc player, KioskDesc kiosk,
        bool log);

  /// A fresh attract-loop player for the driver to start with.
  sim::Result<world::TourPlayer> attractPlayer() const { return makePlayer(true); }

  /// Applies this frame's events (none: time passes) after `wall_s` wall-clock seconds; a
  /// player swapped in asks for its first step's simulation in `commands`.
  void update(const std::vector<KioskEvent>& events, double wall_s, TourDriver& driver,
              std::vector<SimCommand>& commands);

  KioskState state() const { return m_machine.state(); }
  bool blanked() const { return m_blanked; }
  bool quitRequested() const { return m_quit; }
  /// The idle warning's countdown text; empty in other states.
  const std::string& banner() const { return m_banner; }
  /// The booth's one line: in the attract loop what this is and that a key starts it; for a
  /// while after a visitor woke it (until they press a presenter key), how to go on; else
  /// nothing.
  std::string hint() const;
  /// How long a woken booth shows how to go on.
  static constexpr double WOKEN_HINT_S = 12.0;
  /// State changes so far (attract -> tour counts one).
  uint64_t transitions() const { return m_transitions; }

 private:
  sim::Result<world::TourPlayer> makePlayer(bool attract) const;

  const world::World& m_world;
  std::string m_tour;
  world::TourPlayerDesc m_playerDesc;
  KioskMachine m_machine;
  bool m_log = true;
  bool m_blanked = false;
  bool m_quit = false;
  std::string m_banner;
  uint64_t m_transitions = 0;
  double m_sinceWoken_s = 1e9;  // since the last attract -> tour
};

}  // namespace app
