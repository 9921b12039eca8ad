// The UI's own words (timeline, HUD, key help, panels, selection, legend, notices) in every
// language the tour has: English and German. The tour's narration and the panels' labels are
// data files (assets/tours/strings.*.json, assets/panels.json); these are the app's controls.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/engine_desc.h"

namespace app {

/// The text of UI string `key` in `language` ("de", else English); the key itself when there is
/// no such string (a test checks that every key used has both languages).
const char* uiText(std::string_view key, std::string_view language);

/// Every key of the table (tests).
std::vector<std::string_view> uiTextKeys();

/// A fault for people: "pump trip, CDU 0, from 605.0 s" (until ... when it ends).
std::string faultLabel(const sim::engine::FaultDesc& fault, std::string_view language);
/// Simulated seconds as the UI shows them everywhere: "605.0 s".
std::string secondsText(double t_s);

/// `format` with "{}" replaced by `value` once.
std::string withValue(std::string_view format, std::string_view value);

}  // namespace app
