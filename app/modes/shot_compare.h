// `dcwalk shot --compare A B`: the same station for two scenarios side by side in one PNG, for
// slides. Each scenario gets a world of its own, built in turn (one session at a time, so the
// memory is one world's), rendered at half the width; each half's HUD names its scenario and
// carries its key numbers (app/ui/key_numbers.h), and the halves are composited with a dark seam
// between them.
#pragma once

#include "app/modes/shot.h"

namespace app {

/// Renders options.compare[0] and [1] at options.station into options.out (options.render's
/// size in all); prints each half's scenario and numbers. Returns the exit status: 2 naming a
/// scenario that is neither a built-in nor a readable analytic scenario, before any world is
/// built.
int runCompareShot(const ShotOptions& options);

}  // namespace app
