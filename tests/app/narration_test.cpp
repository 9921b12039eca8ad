// Words and numbers that agree with the picture (issue 21), for every chapter, step and
// language of the shipped tour:
// - every number in a narration line, an action or a booth line is a placeholder filled in from
//   the chapter panel's evaluation (the value its row shows, evaluated here again for the step's
//   scenario) or from the catalog figure it names; the strings hold no number of their own
//   besides names (H100, Llama 3.1), years and formulas (before: chapter 9 said ~48 % where its
//   panel said 93.8 %, chapter 4 8.8 ms where its panel said 3.71 ms, chapter 10's title 100 MW
//   where its panel said 36 MW);
// - every call to action names a control that its chapter's panel has;
// - a caption fits in three lines at 1280x720, a booth line has at most 15 words.
#include <cmath>
#include <regex>
#include <set>

#include <gtest/gtest.h>
#include <imgui.h>

#include "app/session/session.h"
#include "app/session/tour_session.h"
#include "app/ui/narration.h"
#include "app/ui/tour_panel.h"
#include "app/ui/ui_layer.h"
#include "app/ui/ui_text.h"
#include "sim/engine/engine.h"
#include "sim/engine/request.h"
#include "sim/engine/scenarios.h"
#include "sim/scenario.h"

namespace {

// Numbers a narration may hold as they are: parts of names, years, formulas, the hour, a key.
const std::vector<std::string>& allowedLiterals() {
  static const std::vector<std::string> allowed = {
      "Llama 3.1", "Llama 3", "NVLink 4",     "NVLink-4", "2(n−1)/n", "(p−1)/(m+p−1)",
      "3 AM",      "3 Uhr",   "Q = ṁ·c_p·ΔT", "2023",     "key 1",    "Taste 1"};
  return allowed;
}

// `text` with every `from` replaced by `to`, built front to back (GCC 12 warns falsely on
// replace() of a short string by a literal).
std::string replaceAll(const std::string& text, const std::string& from, const std::string& to) {
  std::string out;
  size_t at = 0;
  for (size_t hit = text.find(from); hit != std::string::npos; hit = text.find(from, at)) {
    out += text.substr(at, hit - at) + to;
    at = hit + from.size();
  }
  return out + text.substr(at);
}

// The numbers in `text` outside placeholders and allowed literals: digits not glued to letters
// (H100, HBM3e, 405B, 4K, 1F1B, NVL72 and chapter numbers at the start are names).
std::vector<std::string> strayNumbers(std::string text, bool isTitle) {
  text = std::regex_replace(text, std::regex(R"(\{[^}]*\})"), " ");
  for (const std::string& a : allowedLiterals()) text = replaceAll(text, a, " ");
  if (isTitle) text = std::regex_replace(text, std::regex(R"(^\d+\. )"), "");
  std::vector<std::string> out;
  const std::regex number(R"((^|[^A-Za-z0-9\-])(\d[\d,.]*)(?=$|[^A-Za-z0-9]))");
  for (std::sregex_iterator it(text.begin(), text.end(), number), end; it != end; ++it)
    out.push_back((*it)[2]);
  return out;
}

// Whether `action` names the control `label`: its name before any "(" or ",", that name's first
// word, or an abbreviation in it (TP, PP, DP), case-insensitively.
bool names(const std::string& action, const std::string& label) {
  auto lower = [](std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  const std::string text = lower(action);
  std::string name = label.substr(0, label.find_first_of("(,"));
  while (!name.empty() && name.back() == ' ') name.pop_back();
  if (text.find(lower(name)) != std::string::npos) return true;
  if (text.find(lower(name.substr(0, name.find(' ')))) != std::string::npos) return true;
  const std::regex abbreviation(R"(\b[A-Z]{2,}\b)");
  for (std::sregex_iterator it(label.begin(), label.end(), abbreviation), end; it != end; ++it)
    if (action.find(it->str()) != std::string::npos) return true;
  return false;
}

size_t words(const std::string& text) {
  size_t n = 0;
  bool inWord = false;
  for (char c : text) {
    const bool space = c == ' ';
    if (!space && !inWord) ++n;
    inWord = !space;
  }
  return n;
}

}  // namespace

TEST(Narration, EveryNumberIsTheValueItNamesAndEveryActionAControlOfItsChapter) {
  app::RenderOptions options;  // 1280x720
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  auto panels = app::TourPanel::load(*session.catalog);
  ASSERT_TRUE(panels) << panels.error();
  // The caption's width at 1280x720 with the panel on the right (ui_layout.cpp).
  app::LayoutDesc desc{1280, 720, 18};
  desc.rightColumn = desc.timeline = true;
  const app::ScreenRect caption = app::layoutUi(desc).caption;
  const float captionWidth = caption[2] - caption[0] - 2 * 0.8f * 18;
  session.ui->beginFrame(1280, 720, 1.0f / 30);
  size_t filled = 0, actions = 0;
  for (const std::string language : {"en", "de"}) {
    world::TourPlayerDesc playerDesc;
    playerDesc.language = language;
    auto player = app::makeTourPlayer(*session.world, "default", playerDesc);
    ASSERT_TRUE(player) << player.error();
    std::set<std::string> seenTitles;
    do {
      const world::TourFrame frame = player->frame();
      const world::TourChapter& chapter = player->tour().chapters[frame.chapter];
      const world::TourStep& step = chapter.steps[frame.step];
      SCOPED_TRACE(language + " " + chapter.id + " step " + std::to_string(frame.step + 1));
      // The panel as the chapter shows it for this step, evaluated here on its own.
      const app::Panel* panel = panels->panels().find(chapter.panel);
      ASSERT_NE(panel, nullptr);
      auto scenario = sim::loadScenario(frame.scenario);
      ASSERT_TRUE(scenario) << scenario.error();
      const app::PanelView view = app::evaluatePanel(
          *panel, *scenario, app::defaultKnobValues(*panel), *session.catalog, language);
      ASSERT_TRUE(view.error.empty()) << view.error;
      app::NarrationSources sources{&view, session.catalog.get()};

      std::vector<std::string> keys = step.narration;
      if (!step.action.empty()) keys.push_back(step.action);
      if (!step.booth.empty()) keys.push_back(step.booth);
      if (seenTitles.insert(chapter.title).second) keys.push_back(chapter.title);
      // The step's engine a few steps in, where a line quotes it ("{engine.*}").
      std::unique_ptr<sim::engine::Engine> engine;
      sim::engine::Snapshot snapshot;
      for (const std::string& key : keys) {
        if (engine || player->text(key).find("{engine.") == std::string::npos) continue;
        auto desc = sim::engine::engineDescOf({frame.engineScenario, {}, frame.faults});
        ASSERT_TRUE(desc) << desc.error();
        auto created = sim::engine::Engine::create(*session.catalog, *desc);
        ASSERT_TRUE(created) << created.error();
        engine = std::move(*created);
        engine->advanceTo(10.0);
        snapshot = engine->snapshot();
        sources.engine = &snapshot;
      }
      for (const std::string& key : keys) {
        SCOPED_TRACE(key);
        const std::string text = player->text(key);
        EXPECT_EQ(strayNumbers(text, key == chapter.title), std::vector<std::string>{}) << text;
        std::vector<std::string> unresolved;
        const std::string shown = app::fillNarration(text, sources, &unresolved);
        EXPECT_TRUE(unresolved.empty()) << unresolved.front();
        for (const std::string& p : app::placeholders(text)) {
          ++filled;
          if (p.rfind("catalog:", 0) == 0) {
            const sim::Quantity* q = session.catalog->find(p.substr(8));
            ASSERT_NE(q, nullptr) << p;
            continue;
          }
          if (p.rfind("engine.", 0) == 0) {
            // The campus the power flows draw: its step-mean figures, as the engine has them.
            const sim::engine::CampusPower campus =
                sim::engine::campusPower(snapshot, sim::engine::PowerWindow::StepMean);
            const double value = p == "engine.campus_facility_W" ? campus.facility_W
                                 : p == "engine.campus_it_W"
                                     ? campus.it_W
                                     : double(snapshot.cluster->campusRacks);
            const std::string expected = replaceAll(sim::formatQuantity(value, p), " ", "\u00a0");
            EXPECT_NE(shown.find(expected), std::string::npos) << p << " = " << expected;
            continue;
          }
          // The panel's own row (or output) shows exactly this text.
          const app::PanelRowView* row = view.value(p);
          ASSERT_NE(row, nullptr) << p;
          const std::string expected = replaceAll(row->text, " ", "\u00a0");
          EXPECT_NE(shown.find(expected), std::string::npos) << p << " = " << row->text;
        }
        if (key == step.booth) {
          EXPECT_LE(words(replaceAll(shown, "\u00a0", " ")), 15u) << shown;
        } else if (key != chapter.title) {
          // Three caption lines at most, at 1280x720.
          ImGui::PushFont(session.ui->captionFont());
          const auto lines = app::wrapText(shown, captionWidth, [](const std::string& line) {
            return ImGui::CalcTextSize(line.c_str()).x;
          });
          ImGui::PopFont();
          EXPECT_LE(lines.size(), 3u) << shown;
        }
      }
      // The call to action names controls its chapter's panel has.
      if (!step.action.empty()) {
        ++actions;
        EXPECT_FALSE(step.controls.empty()) << "an action without a control";
        const std::string action = app::fillNarration(player->text(step.action), sources);
        for (const std::string& control : step.controls) {
          SCOPED_TRACE(control);
          const std::string what = control.substr(control.find(':') + 1);
          std::string label;
          if (control.rfind("knob:", 0) == 0) {
            for (const app::PanelKnobView& k : view.knobs)
              if (k.path == what) label = k.label;
          } else if (control.rfind("button:", 0) == 0) {
            for (const app::PanelButtonView& b : view.buttons)
              if (b.id == what) label = b.label;
          } else if (what == "race" && view.race) {
            label = view.title;
          } else if (what == "roofline" && view.roofline) {
            label = "roofline";
          } else if (what == "bar" && view.bar) {
            label = view.bar->label;
          }
          ASSERT_FALSE(label.empty()) << "not in the panel " << panel->id;
          if (control.rfind("picture:", 0) != 0) {
            EXPECT_TRUE(names(action, label)) << label << " / " << action;
          }
        }
      }
    } while (player->nextStep());
  }
  session.ui->endFrame();
  EXPECT_GT(filled, 100u);
  EXPECT_EQ(actions, 2u * 11u);  // one per chapter and the finale, in both languages
}

TEST(Narration, FilledNarrationQuotesFiguresThatFollowFromTheReference) {
  // The numbers the narration shows, filled in, against calculations from the reference
  // (../shared/reference/hardware_and_formulas.md; the test's own arithmetic, not the code's).
  app::RenderOptions options;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  auto panels = app::TourPanel::load(*session.catalog);
  ASSERT_TRUE(panels) << panels.error();
  auto player = app::makeTourPlayer(*session.world, "default", {});
  ASSERT_TRUE(player) << player.error();
  std::string all;
  do {
    const world::TourFrame frame = player->frame();
    const world::TourChapter& chapter = player->tour().chapters[frame.chapter];
    const world::TourStep& step = chapter.steps[frame.step];
    auto scenario = sim::loadScenario(frame.scenario);
    ASSERT_TRUE(scenario) << scenario.error();
    const app::Panel* panel = panels->panels().find(chapter.panel);
    const app::PanelView view =
        app::evaluatePanel(*panel, *scenario, app::defaultKnobValues(*panel), *session.catalog);
    std::vector<std::string> keys = step.narration;
    if (!step.action.empty()) keys.push_back(step.action);
    for (const std::string& key : keys)
      all += app::fillNarration(player->text(key), {&view, session.catalog.get()}) + "\n";
  } while (player->nextStep());
  all = replaceAll(all, "\u00a0", " ");
  auto grouped = [](double value) {  // 16896 -> "16,896"
    const std::string digits = std::to_string(static_cast<long long>(std::llround(value)));
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return out;
  };
  auto has = [&](const std::string& text) { return all.find(text) != std::string::npos; };
  // 4K UHD frame: 3840 x 2160 pixels, as the panel writes counts of millions.
  char pixels[32];
  std::snprintf(pixels, sizeof pixels, "%.2f M pixels", 3840.0 * 2160.0 / 1e6);
  EXPECT_TRUE(has(pixels)) << pixels;
  // H100: 132 SMs x 128 FP32 lanes; 4,096 BF16 FLOP/cycle/SM at 1.83 GHz (A.1): 989 TFLOP/s.
  EXPECT_TRUE(has(grouped(132.0 * 128.0) + " lanes"));
  EXPECT_TRUE(has(grouped(132.0 * 4096.0 * 1.83e9 / 1e12) + " TFLOP/s"));
  // Ridge point 989.4 TFLOP/s / 3.35 TB/s.
  EXPECT_TRUE(has(grouped(989.4 / 3.35) + " FLOP/B"));
  // Llama 3.1 70B: 70,553,706,496 parameters, 2 bytes each in BF16 (C.1).
  EXPECT_TRUE(has(grouped(70553706496.0 * 2 / 1e9) + " GB for Llama 3.1 70B in BF16"));
  // KV cache of Llama 3 70B: 2 x 80 layers x 8 KV heads x 128 dims x 2 bytes per token.
  const double kvPerToken_bytes = 2.0 * 80 * 8 * 128 * 2;
  EXPECT_TRUE(has(grouped(kvPerToken_bytes / 1e3) + " kB/token"));
  // Llama 3.1 405B: 405,853,388,800 parameters: BF16 weights and 16 bytes/param Adam state.
  EXPECT_TRUE(has(grouped(405853388800.0 * 2 / 1e9) + " GB in BF16"));
  char state[32];
  std::snprintf(state, sizeof state, "%.2f TB of state", 405853388800.0 * 16 / 1e12);
  EXPECT_TRUE(has(state)) << state;
  EXPECT_TRUE(has("8 × 16 × 128 = " + grouped(8.0 * 16 * 128) + " GPUs"));  // TP x PP x DP
  // 16,384 x 800 Gb/s injection and half of it across the bisection.
  char injection[32], bisection[32];
  std::snprintf(injection, sizeof injection, "%.3g Pb/s", 16384.0 * 800e9 / 1e15);
  std::snprintf(bisection, sizeof bisection, "%.3g Pb/s", 16384.0 * 800e9 / 2 / 1e15);
  EXPECT_TRUE(has(injection)) << injection;
  EXPECT_TRUE(has(bisection)) << bisection;
  // Coolant: 1 kW / (4186 J/kg/K x 10 K) of water at 997 kg/m^3, in litres per minute.
  char perKw[32];
  std::snprintf(perKw, sizeof perKw, "%.2f L/min", 1000.0 / (4186.0 * 10) / 997 * 1000 * 60);
  EXPECT_TRUE(has(perKw)) << perKw;
  // 100 MW at PUE 1.2 over 132 kW racks.
  EXPECT_TRUE(has(grouped(std::floor(100e6 / 1.2 / 132e3)) + " racks"));
  // 1F1B with p = 16 stages and m = 16 micro-batches: (p-1)/(m+p-1) = 15/31.
  char bubble[32];
  std::snprintf(bubble, sizeof bubble, "%.1f %% of the step", 100.0 * 15 / 31);
  EXPECT_TRUE(has(bubble)) << bubble;
}

// The code points of UTF-8 `text`.
std::vector<uint32_t> codePoints(const std::string& text) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    uint32_t cp = n == 1 ? c : c & (0xFF >> (n + 1));
    for (int k = 1; k < n && i + size_t(k) < text.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + size_t(k)]) & 0x3F);
    out.push_back(cp);
    i += size_t(n);
  }
  return out;
}

TEST(Narration, EveryCharacterTheStringsUseIsInTheFonts) {
  // Issue 21: "Q = ?·c_p·ΔT": the ṁ of the narration was not in the font atlas.
  app::RenderOptions options;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  auto bundle = world::loadTourBundle("default", [&] {
    world::TourReferences refs;
    for (const auto& st : session.world->stations()) refs.stations.push_back(st.name);
    refs.scenarios = sim::builtinScenarioNames();
    refs.engineScenarios = sim::engine::builtinScenarioNames();
    return refs;
  }());
  ASSERT_TRUE(bundle) << bundle.error();
  std::vector<std::string> texts;
  for (const world::StringTable& table : bundle->languages)
    for (const auto& [key, text] : table.texts) texts.push_back(text);
  for (std::string_view key : app::uiTextKeys())
    for (const char* language : {"en", "de"}) texts.push_back(app::uiText(key, language));
  texts.push_back("\u00a0µ°×·—–→≈≤");  // what formatQuantity and the HUD write
  for (ImFont* font : {ImGui::GetIO().Fonts->Fonts[0], session.ui->captionFont(),
                       session.ui->titleFont(), session.ui->headlineFont()}) {
    ASSERT_NE(font, nullptr);
    for (const std::string& text : texts) {
      for (uint32_t cp : codePoints(text)) {
        if (cp == '\n') continue;
        EXPECT_NE(font->FindGlyphNoFallback(ImWchar(cp)), nullptr)
            << "U+" << std::hex << cp << " in \"" << text << "\" (" << font->FontSize << " px)";
      }
    }
  }
}

TEST(Narration, StrayNumbersAreFound) {
  EXPECT_EQ(strayNumbers("At 8 TB/s a token takes 8.8 ms", false),
            (std::vector<std::string>{"8", "8.8"}));
  EXPECT_EQ(strayNumbers("An H100 has {catalog:gpus.h100_sxm.sm_count} SMs", false),
            std::vector<std::string>{});
  EXPECT_EQ(strayNumbers("10. The 100-MW silicon cathedral", true),
            std::vector<std::string>{"100"});
  EXPECT_EQ(strayNumbers("Llama 3.1 405B on 16,384 GPUs", false),
            std::vector<std::string>{"16,384"});
}
