// Every UI string follows the language (issue 21): each key of the UI's table has an English and
// a German text, the German one its own; every what-if field has a human name in both languages
// (issue 22: the panel listed raw config paths such as "workload.training.t"); numbers are
// written one way (issue 21: fault times read 1054.1100000000001, catalog rows 1.32e+05 W).
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "app/ui/panels.h"
#include "app/ui/ui_text.h"
#include "app/ui/whatif_panel.h"
#include "sim/engine/request.h"

TEST(UiText, EveryKeyHasBothLanguages) {
  std::set<std::string_view> seen;
  size_t translated = 0;
  for (std::string_view key : app::uiTextKeys()) {
    SCOPED_TRACE(std::string(key));
    EXPECT_TRUE(seen.insert(key).second) << "twice";
    const std::string en = app::uiText(key, "en"), de = app::uiText(key, "de");
    EXPECT_FALSE(en.empty());
    EXPECT_FALSE(de.empty());
    EXPECT_NE(en, std::string(key));
    if (en != de) ++translated;
    // A value slot is in both or in neither.
    EXPECT_EQ(en.find("{}") == std::string::npos, de.find("{}") == std::string::npos);
  }
  // Words that are the same in both (fps, GPUs, Pause) are few.
  EXPECT_GT(translated, seen.size() * 9 / 10);
}

TEST(UiText, EveryWhatIfFieldHasAHumanName) {
  for (const std::string& path : sim::engine::engineFieldPaths()) {
    SCOPED_TRACE(path);
    const app::FieldName* name = app::engineFieldName(path);
    ASSERT_NE(name, nullptr);
    EXPECT_EQ(std::string(name->en).find('.'), std::string::npos) << "not a path";
    EXPECT_FALSE(std::string(name->de).empty());
  }
}

TEST(UiText, NumbersAreWrittenOneWay) {
  sim::engine::FaultDesc fault;
  fault.kind = sim::engine::FaultKind::PumpTrip;
  fault.start_s = 1054.1100000000001;
  EXPECT_EQ(app::faultLabel(fault, "en"), "pump trip, CDU 0, from 1054.1\u00a0s");
  EXPECT_EQ(app::faultLabel(fault, "de"), "Pumpenausfall, CDU 0, ab 1054.1\u00a0s");
  // A catalog figure as the selection panel writes it: the panels' units, no exponent.
  EXPECT_EQ(sim::formatQuantity(1.32e5, "systems.gb200_nvl72.max_power_W"), "132 kW");
  EXPECT_EQ(sim::formatQuantity(3.35e12, "gpus.h100_sxm.hbm_bandwidth_Bps"), "3.35 TB/s");
}
