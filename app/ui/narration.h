// Narration that agrees with the picture (issue 21): every number in a narration line is a
// placeholder filled in from the same value the chapter's panel shows ("{memory.weights_bytes}",
// an output of the panel's evaluation, formatted as its row is) or from the catalog figure it
// names ("{catalog:gpus.h100_sxm.sm_count}"), never a number typed into the strings file that
// the simulation may contradict. With --trace, "{trace.measured.compute}" and
// "{trace.modelled.exposed_communication}" (compute, exposed_communication, idle) are the shares
// the timeline's measured vs modelled lines show. "{engine.campus_facility_W}",
// "{engine.campus_it_W}" and "{engine.campus_racks}" are the running engine's whole campus over
// its last step (sim::engine::campusPower, the step mean): the figures the campus's power flows
// are drawn from; "{engine.goodput_fraction}" and "{engine.step_time_s}" its training job's
// goodput so far and last step. Pure text: no ImGui.
#pragma once

#include <string>
#include <vector>

#include "app/ui/panels.h"
#include "sim/catalog.h"
#include "sim/engine/snapshot.h"
#include "sim/trace/compare.h"

namespace app {

/// What placeholders read: the chapter panel's evaluation (may be null) and the catalog.
struct NarrationSources {
  const PanelView* panel = nullptr;
  const sim::Catalog* catalog = nullptr;
  const sim::trace::StepShares* measured = nullptr;  // --trace: the traced step shown
  const sim::trace::StepShares* modelled = nullptr;  // the model's step of the same scenario
  const sim::engine::Snapshot* engine = nullptr;     // the running simulation, as drawn
};

/// The placeholders of `text` in order, without their braces ("memory.fits", "catalog:...").
std::vector<std::string> placeholders(const std::string& text);

/// True when `placeholder` is one whose source does not depend on the chapter: a figure
/// `catalog` has ("catalog:PATH"), a trace share ("trace.measured.compute" ...) or an engine
/// figure ("engine.campus_it_W" ...). Anything else must be a value of the chapter's panel.
bool knownPlaceholder(const std::string& placeholder, const sim::Catalog& catalog);

/// The text of one placeholder, or "" when its source lacks it.
std::string placeholderValue(const std::string& placeholder, const NarrationSources& sources);

/// `text` with every placeholder replaced by its value (its number and unit joined by a no-break
/// space); a placeholder that cannot be filled stays as it is and goes into `unresolved`.
std::string fillNarration(const std::string& text, const NarrationSources& sources,
                          std::vector<std::string>* unresolved = nullptr);

}  // namespace app
