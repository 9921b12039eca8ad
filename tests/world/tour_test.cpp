// Tours as data: the shipped tours load against the real world, scenarios and engine; malformed
// tours are refused naming file:line; the player walks beats, steps and chapters, flies or cuts,
// leaves the path and returns.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <set>

#include "sim/engine/scenarios.h"
#include "sim/scenario.h"
#include "tests/world/world_test_fixture.h"
#include "world/tour/tour.h"
#include "world/tour/tour_player.h"

namespace fs = std::filesystem;

namespace {

world::TourReferences realReferences() {
  world::TourReferences refs;
  for (const world::Station& s : worldtest::defaultWorld().stations())
    refs.stations.push_back(s.name);
  refs.scenarios = sim::builtinScenarioNames();
  refs.engineScenarios = sim::engine::builtinScenarioNames();
  return refs;
}

std::map<std::string, world::OrbitPose> realViews() {
  std::map<std::string, world::OrbitPose> views;
  for (const world::Station& s : worldtest::defaultWorld().stations()) views[s.name] = s.viewpoint;
  return views;
}

// A small tour over made-up stations "alpha" and "beta": three chapters, the last the finale.
const char* const SMALL_TOUR = R"({
  "title": "t.title",
  "chapters": [
    {
      "id": "one",
      "title": "t.c1",
      "panel": "pixel_race",
      "steps": [
        {"station": "alpha", "narration": ["t.a", "t.b"], "action": "t.act", "hold_s": 4}
      ]
    },
    {
      "id": "two",
      "title": "t.c2",
      "panel": "sm_firehose",
      "highlight": true,
      "scenario": "scen",
      "steps": [
        {"station": "beta", "narration": ["t.c"], "overlays": ["labels", "roofline"], "hold_s": 2},
        {
          "orbit": {"target_m": [1, 2, 3], "distance_m": 10, "yaw_deg": 90, "pitch_deg": -30},
          "narration": ["t.d"],
          "engine_scenario": "eng",
          "faults": [{"kind": "pump_trip", "start_s": 1, "end_s": 5, "severity": 0.25}],
          "hold_s": 2
        }
      ]
    },
    {
      "id": "end",
      "title": "t.fin",
      "panel": "goodput",
      "finale": true,
      "steps": [
        {"station": "alpha", "narration": ["t.e"], "hold_s": 2}
      ]
    }
  ]
}
)";

const char* const SMALL_EN = R"({"t.title": "Title", "t.c1": "One", "t.c2": "Two", "t.fin": "End",
  "t.a": "A", "t.b": "B", "t.act": "Act!", "t.c": "C", "t.d": "D", "t.e": "E"})";
const char* const SMALL_DE = R"({"t.title": "Titel", "t.c1": "Eins", "t.c2": "Zwei",
  "t.fin": "Ende", "t.a": "A-de", "t.b": "B-de", "t.act": "Los!", "t.c": "C-de", "t.d": "D-de",
  "t.e": "E-de"})";

world::TourReferences smallReferences() {
  return {{"alpha", "beta"}, {"scen"}, {"eng"}};
}

std::map<std::string, world::OrbitPose> smallViews() {
  return {{"alpha", world::OrbitPose{glm::dvec3(0.0), 1.0, 0.0, 0.0}},
          {"beta", world::OrbitPose{glm::dvec3(100.0, 0.0, 0.0), 1e-3, 0.5, -0.2}}};
}

// A fresh folder with a tour and strings files; removed at the end of the test.
struct TourDir {
  fs::path dir;
  explicit TourDir(const std::string& tour, const std::string& en = SMALL_EN,
                   const std::string& de = SMALL_DE) {
    static std::atomic<int> counter{0};
    dir = fs::temp_directory_path() /
          ("dcwalk_tour_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(dir);
    write("small.json", tour);
    write("strings.en.json", en);
    if (!de.empty()) write("strings.de.json", de);
  }
  ~TourDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
  }
  sim::Result<world::TourBundle> load() const {
    return world::loadTourBundle("small", smallReferences(), dir);
  }
};

// SMALL_TOUR with `from` (which must occur once) replaced by `to`.
std::string smallWith(const std::string& from, const std::string& to) {
  std::string text = SMALL_TOUR;
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from << " occurs twice";
  return text.replace(at, from.size(), to);
}

// 1-based line of the first occurrence of `needle` in `text`, counted here, not by the loader.
size_t lineOf(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + at, '\n'));
}

// Loads `tour`, expects a refusal naming small.json at the line of `marker` plus `words`.
void expectRefused(const std::string& tour, const std::string& marker, const std::string& words) {
  TourDir dir(tour);
  auto loaded = dir.load();
  ASSERT_FALSE(loaded.ok()) << "accepted: " << marker;
  const std::string expectedPlace =
      (dir.dir / "small.json").string() + ":" + std::to_string(lineOf(tour, marker));
  EXPECT_NE(loaded.error().find(expectedPlace), std::string::npos)
      << loaded.error() << "\nexpected " << expectedPlace;
  EXPECT_NE(loaded.error().find(words), std::string::npos) << loaded.error();
}

world::TourPlayer smallPlayer(world::TourPlayerDesc desc = {}) {
  TourDir dir(SMALL_TOUR);
  auto bundle = dir.load();
  EXPECT_TRUE(bundle.ok()) << bundle.error();
  auto player = world::TourPlayer::create(std::move(*bundle), smallViews(), desc);
  EXPECT_TRUE(player.ok()) << player.error();
  return std::move(*player);
}

bool samePose(const world::Pose& a, const world::Pose& b, double tolerance_m) {
  return glm::length(a.position - b.position) <= tolerance_m &&
         std::abs(a.yaw_rad - b.yaw_rad) < 1e-9 && std::abs(a.pitch_rad - b.pitch_rad) < 1e-9;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Shipped tours

TEST(Tour, EveryShippedTourLoadsAgainstTheRealWorldScenariosAndEngine) {
  const auto names = world::tourNames();
  ASSERT_FALSE(names.empty()) << "no tour in " << world::toursDir();
  const world::TourReferences refs = realReferences();
  for (const std::string& name : names) {
    auto bundle = world::loadTourBundle(name, refs);
    ASSERT_TRUE(bundle.ok()) << bundle.error();
    ASSERT_NE(bundle->language("en"), nullptr) << name;
    ASSERT_NE(bundle->language("de"), nullptr) << name << ": the second language";
    for (const world::TourChapter& chapter : bundle->tour.chapters) {
      EXPECT_NE(std::find(world::knownPanels().begin(), world::knownPanels().end(), chapter.panel),
                world::knownPanels().end());
      for (const world::TourStep& step : chapter.steps) {
        if (step.station) {
          EXPECT_NE(worldtest::defaultWorld().station(*step.station), nullptr);
        }
        if (!step.engineScenario.empty()) {
          EXPECT_TRUE(sim::engine::builtinScenario(step.engineScenario).ok());
        }
        if (!step.scenario.empty()) {
          EXPECT_TRUE(sim::loadScenario(step.scenario).ok());
        }
      }
    }
  }
}

TEST(Tour, EveryLanguageTranslatesEveryString) {
  auto bundle = world::loadTourBundle("default", realReferences());
  ASSERT_TRUE(bundle.ok()) << bundle.error();
  ASSERT_GE(bundle->languages.size(), 2u);
  const world::StringTable& en = *bundle->language("en");
  for (const world::StringTable& other : bundle->languages) {
    ASSERT_EQ(other.texts.size(), en.texts.size()) << other.file;
    for (const auto& [key, text] : en.texts) {
      const std::string* translated = other.find(key);
      ASSERT_NE(translated, nullptr) << key << " missing from " << other.file;
      if (other.language != "en" && text.size() > 12) {
        EXPECT_NE(*translated, text) << key << " is not translated in " << other.file;
      }
    }
  }
}

TEST(Tour, DefaultTourHasTheTenChaptersAndTheFinaleAtTheirStations) {
  auto bundle = world::loadTourBundle("default", realReferences());
  ASSERT_TRUE(bundle.ok()) << bundle.error();
  const auto& chapters = bundle->tour.chapters;
  ASSERT_EQ(chapters.size(), 11u);
  EXPECT_TRUE(chapters.back().finale);
  // One live simulator per chapter, in the product's order (../shared/docs/product.md).
  const std::vector<std::string> panels = {
      "pixel_race", "sm_firehose", "vram_budget", "prefill_decode", "tco",    "allreduce",
      "protocol",   "nvswitch",    "parallelism", "campus",         "goodput"};
  // The stations each chapter must visit (at least one of each set).
  const std::vector<std::vector<std::set<std::string>>> required = {
      {{"die", "gh100"}, {"xeon_amx"}},
      {{"sm"}},
      {{"hbm"}},
      {{"die", "package"}},
      {{"tpu"}, {"xeon_amx"}},
      {{"fabric", "rack_back"}},  // the rails: each GPU's fabric link leaving the rack's back
      {{"fabric"}},
      {{"rack"}},
      {{"row", "hall"}},  // the hall's racks: the row frames them near enough to read each bar
      {{"campus", "cooling"}},
      {{"campus"}}};
  for (size_t c = 0; c < chapters.size(); ++c) {
    EXPECT_EQ(chapters[c].panel, panels[c]) << "chapter " << c + 1;
    std::set<std::string> visited;
    for (const auto& step : chapters[c].steps)
      if (step.station) visited.insert(*step.station);
    for (const auto& anyOf : required[c]) {
      bool hit = false;
      for (const auto& s : anyOf) hit = hit || visited.count(s);
      EXPECT_TRUE(hit) << "chapter " << c + 1 << " misses " << *anyOf.begin();
    }
  }
}

// (The figures the narration quotes are checked filled in, in tests/app/narration_test.cpp.)

// ---------------------------------------------------------------------------------------------
// Parsing and refusals

TEST(Tour, SmallTourParsesEveryField) {
  TourDir dir(SMALL_TOUR);
  auto bundle = dir.load();
  ASSERT_TRUE(bundle.ok()) << bundle.error();
  const world::Tour& tour = bundle->tour;
  ASSERT_EQ(tour.chapters.size(), 3u);
  EXPECT_TRUE(tour.chapters[2].finale);
  EXPECT_TRUE(tour.chapters[1].highlight);
  const world::TourStep& orbit = tour.chapters[1].steps[1];
  ASSERT_TRUE(orbit.orbit.has_value());
  EXPECT_FALSE(orbit.station.has_value());
  EXPECT_EQ(orbit.orbit->target, glm::dvec3(1, 2, 3));
  EXPECT_DOUBLE_EQ(orbit.orbit->distance_m, 10.0);
  EXPECT_NEAR(orbit.orbit->yaw_rad, std::numbers::pi / 2, 1e-12);
  EXPECT_NEAR(orbit.orbit->pitch_rad, -std::numbers::pi / 6, 1e-12);
  EXPECT_EQ(orbit.scenario, "scen");  // inherited from the chapter
  EXPECT_EQ(orbit.engineScenario, "eng");
  ASSERT_EQ(orbit.faults.size(), 1u);
  EXPECT_EQ(orbit.faults[0].kind, sim::engine::FaultKind::PumpTrip);
  EXPECT_DOUBLE_EQ(orbit.faults[0].start_s, 1.0);
  EXPECT_DOUBLE_EQ(orbit.faults[0].end_s, 5.0);
  EXPECT_DOUBLE_EQ(orbit.faults[0].severity, 0.25);
  world::StepOverlays labelsAndRoofline;
  labelsAndRoofline.labels = labelsAndRoofline.roofline = true;
  EXPECT_EQ(tour.chapters[1].steps[0].overlays, labelsAndRoofline);
  EXPECT_EQ(tour.chapters[0].steps[0].action, "t.act");
  EXPECT_DOUBLE_EQ(tour.chapters[0].steps[0].hold_s, 4.0);
  EXPECT_EQ(bundle->languages.size(), 2u);
}

TEST(Tour, MalformedToursAreRefusedWithFileAndLine) {
  // Each case breaks a later chapter, so the line must follow the array indices.
  expectRefused(smallWith(R"("station": "beta")", R"("station": "gamma")"), R"("station": "gamma")",
                "unknown station \"gamma\"");
  expectRefused(smallWith(R"(["labels", "roofline"])", R"(["labels", "sparkles"])"),
                R"("overlays")", "unknown overlay \"sparkles\"");
  expectRefused(smallWith(R"("panel": "goodput")", R"("panel": "slideshow")"),
                R"("panel": "slideshow")", "unknown panel");
  expectRefused(smallWith(R"("scenario": "scen")", R"("scenario": "nope")"),
                R"("scenario": "nope")", "unknown scenario");
  expectRefused(smallWith(R"("engine_scenario": "eng")", R"("engine_scenario": "nope")"),
                R"("engine_scenario": "nope")", "unknown engine scenario");
  expectRefused(smallWith(R"("narration": ["t.e"], )", ""), R"({"station": "alpha", "hold_s")",
                "missing field \"narration\"");
  expectRefused(smallWith(R"("narration": ["t.c"])", R"("narration": [])"), R"("narration": [])",
                "narration keys");
  expectRefused(smallWith(R"({"station": "beta", )", R"({"station": "beta", "orbit": {}, )"),
                R"({"station": "beta", "orbit")", "exactly one of");
  expectRefused(smallWith(R"("hold_s": 4})", R"("hold_s": "long"})"), R"("hold_s": "long")",
                "must be a number");
  expectRefused(smallWith(R"("hold_s": 4})", R"("hold_s": 4, "colour": 1})"), R"("colour")",
                "unknown field \"colour\"");
  expectRefused(smallWith(R"("kind": "pump_trip")", R"("kind": "meteor")"), R"("kind": "meteor")",
                "unknown fault kind");
  expectRefused(smallWith(R"("start_s": 1, "end_s": 5)", R"("start_s": 6, "end_s": 5)"),
                R"("end_s": 5)", "after start_s");
  expectRefused(smallWith(R"("engine_scenario": "eng",)", ""), R"("faults")",
                "need an \"engine_scenario\"");
  expectRefused(smallWith(R"("distance_m": 10)", R"("distance_m": -10)"), R"("distance_m": -10)",
                "must be within");
  expectRefused(smallWith(R"("id": "end")", R"("id": "two")"), R"("id": "two",
      "title": "t.fin")",
                "used twice");
  expectRefused(smallWith(R"("finale": true)", R"("finale": "yes")"), R"("finale": "yes")",
                "true or false");
  expectRefused(
      smallWith(R"("action": "t.act", )", R"("action": "t.act", "controls": ["slider:x"], )"),
      R"("slider:x")", "\"picture:<race, roofline or bar>\"");
  // Wrong shapes are refused, not indexed blindly.
  expectRefused(smallWith(R"({"station": "alpha", "narration": ["t.e"], "hold_s": 2})", "\"oops\""),
                "\"oops\"", "must be an object");
  expectRefused(smallWith(R"("target_m": [1, 2, 3])", R"("target_m": [1, 2])"), R"("target_m")",
                "[x, y, z]");
}

TEST(Tour, FinaleMustComeLastAndAtMostTenNumberedChapters) {
  // The finale moved first.
  std::string finaleFirst =
      smallWith(R"("panel": "pixel_race",)", R"("panel": "pixel_race", "finale": true,)");
  expectRefused(finaleFirst, R"("finale": true,)", "must come last");

  // Eleven numbered chapters.
  std::string many = "{\"title\": \"t.title\", \"chapters\": [\n";
  for (int i = 0; i < 11; ++i) {
    many += std::string(i ? ",\n" : "") + "{\"id\": \"c" + std::to_string(i) +
            "\", \"title\": \"t.c1\", \"panel\": \"tco\", \"steps\": [{\"station\": \"alpha\", "
            "\"narration\": [\"t.a\"]}]}";
  }
  many += "\n]}\n";
  expectRefused(many, "{\"id\": \"c10\"", "at most 10 numbered chapters");
}

TEST(Tour, SyntaxErrorsNameFileLineAndColumn) {
  const std::string broken = smallWith(R"("panel": "sm_firehose",)", R"("panel": "sm_firehose")");
  TourDir dir(broken);
  auto loaded = dir.load();
  ASSERT_FALSE(loaded.ok());
  // The parser stops at the next line's key, right after the missing comma.
  const std::string place = (dir.dir / "small.json").string() + ":" +
                            std::to_string(lineOf(broken, R"("highlight": true)")) + ":";
  EXPECT_NE(loaded.error().find(place), std::string::npos) << loaded.error();
}

TEST(Tour, MissingTranslationNamesTheUseAndTheStringsFile) {
  std::string de = SMALL_DE;
  const std::string dropped = R"("t.d": "D-de",)";
  de.replace(de.find(dropped), dropped.size(), "");
  TourDir dir(SMALL_TOUR, SMALL_EN, de);
  auto loaded = dir.load();
  ASSERT_FALSE(loaded.ok());
  const std::string place =
      (dir.dir / "small.json").string() + ":" + std::to_string(lineOf(SMALL_TOUR, R"(["t.d"])"));
  EXPECT_NE(loaded.error().find(place), std::string::npos) << loaded.error();
  EXPECT_NE(loaded.error().find("\"t.d\""), std::string::npos) << loaded.error();
  EXPECT_NE(loaded.error().find("strings.de.json"), std::string::npos) << loaded.error();
}

TEST(Tour, StringsFilesHoldOnlyNonEmptyTexts) {
  const std::string de = "{\n  \"t.a\": \"A\",\n  \"t.b\": 7\n}\n";
  TourDir dir(SMALL_TOUR, SMALL_EN, de);
  auto loaded = dir.load();
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().find((dir.dir / "strings.de.json").string() + ":3"), std::string::npos)
      << loaded.error();

  TourDir noStrings(SMALL_TOUR, SMALL_EN, "");
  fs::remove(noStrings.dir / "strings.en.json");
  auto bare = noStrings.load();
  ASSERT_FALSE(bare.ok());
  EXPECT_NE(bare.error().find("no strings"), std::string::npos) << bare.error();
}

// Issue 19, reproducer 3: a 50,000-character caption aborted the tour's frame in ImGui ("Too many
// vertices"); texts are capped at MAX_CAPTION_BYTES, names and keys at MAX_NAME_BYTES.
TEST(Tour, CaptionsAndNamesHaveALengthLimit) {
  const std::string longest(world::MAX_CAPTION_BYTES, 'w');
  std::string en = SMALL_EN;
  en.replace(en.find("\"One\""), 5, "\"" + longest + "\"");
  TourDir fits(SMALL_TOUR, en);
  EXPECT_TRUE(fits.load().ok()) << fits.load().error();

  std::string tooLong = SMALL_EN;
  tooLong.replace(tooLong.find("\"One\""), 5, "\"" + longest + "w\"");
  TourDir caption(SMALL_TOUR, tooLong);
  auto refused = caption.load();
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find((caption.dir / "strings.en.json").string() + ":1 (/t.c1)"),
            std::string::npos)
      << refused.error();
  EXPECT_NE(refused.error().find(std::to_string(world::MAX_CAPTION_BYTES + 1) + " bytes"),
            std::string::npos)
      << refused.error();

  std::string longKey = SMALL_EN;
  std::string entry(1, '"');
  entry.append(world::MAX_NAME_BYTES + 1, 'k').append("\": \"x\", ");
  longKey.insert(1, entry);
  TourDir key(SMALL_TOUR, longKey);
  EXPECT_FALSE(key.load().ok());

  const std::string longId(world::MAX_NAME_BYTES + 1, 'i');
  TourDir id(smallWith(R"("id": "one")", "\"id\": \"" + longId + "\""));
  auto idRefused = id.load();
  ASSERT_FALSE(idRefused.ok());
  EXPECT_NE(idRefused.error().find("/chapters/0/id"), std::string::npos) << idRefused.error();
}

TEST(Tour, ChapterIdsThatCannotBeFileNamesAreRefusedNamingTheField) {
  // Ids go into key frames' file names (`tour --headless`): before, "../../x" wrote outside
  // --out and a 128-byte id cut the name short of ".png".
  for (const std::string& id :
       {std::string("../../x"), std::string("a/b"), std::string(".."), std::string(".hidden"),
        std::string("-a"), std::string("Caps"), std::string("with space"),
        std::string(R"(back\\slash)"), std::string(R"(\u00e9t\u00e9)"), std::string(R"(a\u0000b)"),
        std::string(world::MAX_FILE_NAME_ID_BYTES + 1, 'i'), std::string(128, 'i')}) {
    SCOPED_TRACE(id);
    const std::string tour = smallWith(R"("id": "one")", "\"id\": \"" + id + "\"");
    expectRefused(tour, "\"id\": \"" + id + "\"", "/chapters/0/id");
    expectRefused(tour, "\"id\": \"" + id + "\"", "an id goes into file names");
  }
  TourDir longest(smallWith(
      R"("id": "one")", "\"id\": \"" + std::string(world::MAX_FILE_NAME_ID_BYTES, 'i') + "-_0\""));
  EXPECT_FALSE(longest.load().ok()) << "51 bytes";
  TourDir fits(
      smallWith(R"("id": "one")",
                "\"id\": \"" + std::string(world::MAX_FILE_NAME_ID_BYTES - 3, 'i') + "-_0\""));
  EXPECT_TRUE(fits.load().ok());
}

TEST(Tour, UnknownTourNameListsTheTours) {
  TourDir dir(SMALL_TOUR);
  auto loaded = world::loadTourBundle("absent", smallReferences(), dir.dir);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().find("small"), std::string::npos) << loaded.error();
  EXPECT_EQ(world::tourNames(dir.dir), std::vector<std::string>{"small"});
}

// ---------------------------------------------------------------------------------------------
// The player

TEST(TourPlayer, NextWalksChunksThenTheActionThenSteps) {
  world::TourPlayer player = smallPlayer();
  player.start(world::toPose(smallViews()["alpha"]));
  world::TourFrame f = player.frame();
  EXPECT_EQ(f.chapter, 0u);
  EXPECT_EQ(f.beatCount, 3u);
  EXPECT_EQ(f.caption, "A");
  EXPECT_EQ(f.chapterTitle, "One");
  EXPECT_EQ(f.chapterNumber, 1);
  EXPECT_EQ(f.panel, "pixel_race");
  const uint64_t serial = f.stepSerial;
  ASSERT_TRUE(player.next());
  EXPECT_EQ(player.frame().caption, "B");
  EXPECT_EQ(player.frame().stepSerial, serial);  // same step: nothing to reload
  ASSERT_TRUE(player.next());
  EXPECT_EQ(player.frame().caption, "Act!");
  EXPECT_TRUE(player.frame().captionIsAction);
  ASSERT_TRUE(player.next());
  f = player.frame();
  EXPECT_EQ(f.chapter, 1u);
  EXPECT_EQ(f.caption, "C");
  EXPECT_EQ(f.station, "beta");
  world::StepOverlays labelsAndRoofline;
  labelsAndRoofline.labels = labelsAndRoofline.roofline = true;
  EXPECT_EQ(f.overlays, labelsAndRoofline);
  EXPECT_EQ(f.scenario, "scen");
  EXPECT_NE(f.stepSerial, serial);
  ASSERT_TRUE(player.next());
  f = player.frame();
  EXPECT_EQ(f.station, "");
  EXPECT_EQ(f.engineScenario, "eng");
  ASSERT_EQ(f.faults.size(), 1u);
  EXPECT_EQ(f.target.target, glm::dvec3(1, 2, 3));
  ASSERT_TRUE(player.next());
  EXPECT_EQ(player.frame().chapterNumber, 0);  // the finale has no number
  EXPECT_EQ(player.frame().caption, "E");
  EXPECT_FALSE(player.next());  // the end
  EXPECT_EQ(player.frame().caption, "E");
}

TEST(TourPlayer, PrevGoesBackThroughTheActionOfThePreviousStep) {
  world::TourPlayer player = smallPlayer();
  player.start(world::Pose{});
  EXPECT_FALSE(player.prev());
  ASSERT_TRUE(player.nextStep());
  EXPECT_EQ(player.frame().chapter, 1u);
  ASSERT_TRUE(player.prev());
  EXPECT_EQ(player.frame().chapter, 0u);
  EXPECT_EQ(player.frame().caption, "Act!");
  ASSERT_TRUE(player.prev());
  EXPECT_EQ(player.frame().caption, "B");
  ASSERT_TRUE(player.nextStep());
  ASSERT_TRUE(player.nextStep());
  ASSERT_TRUE(player.prevStep());
  EXPECT_EQ(player.frame().chapter, 1u);
  EXPECT_EQ(player.frame().step, 0u);
}

TEST(TourPlayer, NumberKeysJumpToNumberedChaptersAndTheFinaleHasItsOwn) {
  world::TourPlayer player = smallPlayer();
  player.start(world::Pose{});
  ASSERT_TRUE(player.jumpToChapterKey(2));
  EXPECT_EQ(player.frame().chapter, 1u);
  EXPECT_EQ(player.frame().chapterNumber, 2);
  EXPECT_EQ(player.frame().beat, 0u);
  ASSERT_TRUE(player.jumpToChapterKey(1));
  EXPECT_EQ(player.frame().chapter, 0u);
  EXPECT_FALSE(player.jumpToChapterKey(3));  // the third chapter is the finale, not number 3
  EXPECT_FALSE(player.jumpToChapterKey(0));  // 0 means chapter 10, which this tour lacks
  EXPECT_FALSE(player.jumpToChapterKey(12));
  EXPECT_EQ(player.frame().chapter, 0u);
  ASSERT_TRUE(player.jumpToFinale());
  EXPECT_EQ(player.frame().chapter, 2u);
}

TEST(TourPlayer, DigitZeroIsChapterTenInTheDefaultTour) {
  auto bundle = world::loadTourBundle("default", realReferences());
  ASSERT_TRUE(bundle.ok()) << bundle.error();
  auto player = world::TourPlayer::create(std::move(*bundle), realViews());
  ASSERT_TRUE(player.ok()) << player.error();
  player->start(world::Pose{});
  ASSERT_TRUE(player->jumpToChapterKey(0));
  EXPECT_EQ(player->frame().chapterNumber, 10);
  EXPECT_EQ(player->frame().panel, "campus");
  ASSERT_TRUE(player->jumpToChapterKey(9));
  EXPECT_EQ(player->frame().chapterNumber, 9);
  ASSERT_TRUE(player->jumpToFinale());
  EXPECT_EQ(player->frame().panel, "goodput");
}

TEST(TourPlayer, FlightsAreQuickEasedAndEndExactlyAtTheView) {
  world::TourPlayer player = smallPlayer();
  const world::Pose far{glm::dvec3(5000.0, 300.0, 2000.0), 1.0, -0.3};
  player.start(far);
  EXPECT_TRUE(player.frame().cameraMoving);
  EXPECT_TRUE(samePose(player.frame().cameraPose, far, 1e-9));
  double elapsed_s = 0;
  world::Pose previous = far;
  double firstStep_m = -1, middleStep_m = 0;
  while (player.frame().cameraMoving && elapsed_s < 10) {
    player.advance(0.05);
    elapsed_s += 0.05;
    const double moved_m = glm::length(player.frame().cameraPose.position - previous.position);
    if (firstStep_m < 0) firstStep_m = moved_m;
    middleStep_m = std::max(middleStep_m, moved_m);
    previous = player.frame().cameraPose;
  }
  EXPECT_LT(elapsed_s, 2.0);                   // architecture: fly-to well under 2 s
  EXPECT_LT(firstStep_m, middleStep_m * 0.2);  // eased: slow at the start
  EXPECT_TRUE(samePose(player.frame().cameraPose, world::toPose(smallViews()["alpha"]), 1e-9));
}

TEST(TourPlayer, ReducedMotionCutsInsteadOfFlying) {
  world::TourPlayer player = smallPlayer({.reducedMotion = true});
  player.start(world::Pose{glm::dvec3(9e3), 0, 0});
  EXPECT_FALSE(player.frame().cameraMoving);
  EXPECT_TRUE(samePose(player.frame().cameraPose, world::toPose(smallViews()["alpha"]), 1e-12));
  ASSERT_TRUE(player.nextStep());
  EXPECT_FALSE(player.frame().cameraMoving);
  EXPECT_TRUE(samePose(player.frame().cameraPose, world::toPose(smallViews()["beta"]), 1e-12));

  // Switched on mid-flight, it cuts the flight short.
  world::TourPlayer flying = smallPlayer();
  flying.start(world::Pose{glm::dvec3(9e3), 0, 0});
  flying.advance(0.1);
  ASSERT_TRUE(flying.frame().cameraMoving);
  flying.setReducedMotion(true);
  EXPECT_FALSE(flying.frame().cameraMoving);
  EXPECT_TRUE(samePose(flying.frame().cameraPose, world::toPose(smallViews()["alpha"]), 1e-12));
}

TEST(TourPlayer, LeavingThePathPausesTheTourAndOneCallReturns) {
  world::TourPlayer player = smallPlayer({.autoAdvance = true});
  player.start(world::toPose(smallViews()["alpha"]));
  player.advance(2.0);  // arrive
  player.leavePath();
  EXPECT_TRUE(player.frame().freeFlight);
  EXPECT_FALSE(player.onPath());
  const size_t beat = player.frame().beat;
  player.advance(60.0);  // the visitor flies around; the tour waits
  EXPECT_EQ(player.frame().beat, beat);
  EXPECT_EQ(player.frame().chapter, 0u);
  const world::Pose wandered{glm::dvec3(-40.0, 12.0, 7.0), 2.0, 0.4};
  player.returnToPath(wandered);
  EXPECT_FALSE(player.frame().freeFlight);
  EXPECT_TRUE(player.frame().cameraMoving);
  EXPECT_TRUE(samePose(player.frame().cameraPose, wandered, 1e-9));
  for (int i = 0; i < 40; ++i) player.advance(0.05);
  EXPECT_FALSE(player.frame().cameraMoving);
  EXPECT_TRUE(samePose(player.frame().cameraPose, world::toPose(smallViews()["alpha"]), 1e-9));
}

TEST(TourPlayer, AutoAdvanceSplitsTheHoldAcrossBeatsAndFinishes) {
  world::TourPlayer player = smallPlayer({.reducedMotion = true, .autoAdvance = true});
  player.start(world::Pose{});
  // Step 1 holds 4 s over 3 beats (2 chunks + action).
  EXPECT_NEAR(player.beatDuration_s(), 4.0 / 3.0, 1e-12);
  player.advance(1.0);
  EXPECT_EQ(player.frame().beat, 0u);
  player.advance(0.4);
  EXPECT_EQ(player.frame().beat, 1u);
  double elapsed_s = 1.4;
  while (!player.finished() && elapsed_s < 100) {
    player.advance(0.1);
    elapsed_s += 0.1;
  }
  EXPECT_TRUE(player.finished());
  // 4 + 2 + 2 + 2 s of holds in all.
  EXPECT_NEAR(elapsed_s, 10.0, 0.25);
  EXPECT_EQ(player.frame().chapter, 2u);
}

TEST(TourPlayer, AttractLoopPlaysHighlightsAndLoops) {
  world::TourPlayer player = smallPlayer(
      {.reducedMotion = true, .autoAdvance = true, .loop = true, .highlightsOnly = true});
  using Order = std::vector<std::pair<size_t, size_t>>;
  EXPECT_EQ(player.order(), (Order{{1, 0}, {1, 1}}));
  player.start(world::Pose{});
  EXPECT_EQ(player.frame().chapter, 1u);
  EXPECT_FALSE(player.jumpToChapter(0));             // not in the loop
  for (int i = 0; i < 50; ++i) player.advance(0.1);  // two 2 s steps, then again
  EXPECT_FALSE(player.finished());
  EXPECT_EQ(player.frame().chapter, 1u);
}

TEST(TourPlayer, CaptionsFollowTheChosenLanguage) {
  world::TourPlayer player = smallPlayer({.language = "de"});
  player.start(world::Pose{});
  EXPECT_EQ(player.frame().caption, "A-de");
  EXPECT_EQ(player.frame().chapterTitle, "Eins");
  EXPECT_FALSE(player.setLanguage("fr"));
  EXPECT_EQ(player.frame().caption, "A-de");
  ASSERT_TRUE(player.setLanguage("en"));
  EXPECT_EQ(player.frame().caption, "A");

  TourDir dir(SMALL_TOUR);
  auto bundle = dir.load();
  ASSERT_TRUE(bundle.ok());
  EXPECT_FALSE(world::TourPlayer::create(*bundle, smallViews(), {.language = "fr"}).ok());
}

TEST(TourPlayer, EveryStationNeedsAViewpoint) {
  TourDir dir(SMALL_TOUR);
  auto bundle = dir.load();
  ASSERT_TRUE(bundle.ok());
  auto views = smallViews();
  views.erase("beta");
  auto player = world::TourPlayer::create(*bundle, views);
  ASSERT_FALSE(player.ok());
  EXPECT_NE(player.error().find("\"beta\""), std::string::npos) << player.error();
  EXPECT_NE(player.error().find("small.json:" +
                                std::to_string(lineOf(SMALL_TOUR, "{\"station\": \"beta\""))),
            std::string::npos)
      << player.error();
}

TEST(TourPlayer, DefaultTourPlaysThroughEveryPanelInBothLanguages) {
  for (const char* language : {"en", "de"}) {
    auto bundle = world::loadTourBundle("default", realReferences());
    ASSERT_TRUE(bundle.ok()) << bundle.error();
    auto player = world::TourPlayer::create(
        std::move(*bundle), realViews(),
        {.language = language, .reducedMotion = false, .autoAdvance = true});
    ASSERT_TRUE(player.ok()) << player.error();
    player->start(world::toPose(worldtest::defaultWorld().station("campus")->viewpoint));
    std::set<std::string> panels;
    double elapsed_s = 0;
    while (!player->finished() && elapsed_s < 3600) {
      const world::TourFrame f = player->frame();
      EXPECT_FALSE(f.caption.empty());
      panels.insert(f.panel);
      player->advance(0.1);
      elapsed_s += 0.1;
    }
    EXPECT_TRUE(player->finished()) << language;
    EXPECT_EQ(panels.size(), world::knownPanels().size()) << language;
  }
}

TEST(TourPlayer, FlightsBetweenViewsInsideTheHallStayInsideIt) {
  // A flight from one place in the hall to another (the gallery's Xeon to the hero die) must not
  // leave the hall: from outside, its walls would fill the screen for a second.
  const world::World& w = worldtest::defaultWorld();
  const auto hall = w.scene().worldBounds("hall0");
  ASSERT_TRUE(hall.has_value());
  auto inside = [&](const glm::dvec3& p) {
    return glm::all(glm::greaterThanEqual(p, hall->min)) &&
           glm::all(glm::lessThanEqual(p, hall->max));
  };
  auto bundle = world::loadTourBundle("default", realReferences());
  ASSERT_TRUE(bundle.ok()) << bundle.error();
  world::TourPlayerDesc desc;
  desc.flight.rooms = {{hall->min, hall->max}};  // what the app gives every tour
  auto player = world::TourPlayer::create(std::move(*bundle), realViews(), desc);
  ASSERT_TRUE(player.ok()) << player.error();
  player->start(world::Pose{});
  player->land();
  int checked = 0;
  while (player->nextStep()) {
    const world::Pose from = player->frame().cameraPose;
    const world::Pose to = world::toPose(player->frame().target);
    std::vector<glm::dvec3> path;
    for (int i = 0; i < 400 && player->frame().cameraMoving; ++i) {
      player->advance(0.02);
      path.push_back(player->frame().cameraPose.position);
    }
    if (!inside(from.position) || !inside(to.position)) continue;
    ++checked;
    for (const glm::dvec3& p : path) {
      ASSERT_TRUE(inside(p)) << "step " << player->frame().chapter << ": camera at (" << p.x << ", "
                             << p.y << ", " << p.z << ") outside the hall";
    }
  }
  EXPECT_GE(checked, 5);
}

// Overlay names are typed once, when the tour loads: every known name switches something on,
// and the heat names choose the metric the world colours by.
TEST(Tour, EveryKnownOverlayNameIsTyped) {
  for (const std::string& name : world::knownOverlays()) {
    world::StepOverlays o;
    EXPECT_TRUE(world::addOverlay(name, o)) << name;
    EXPECT_NE(o, world::StepOverlays{}) << name;
  }
  world::StepOverlays o;
  ASSERT_TRUE(world::addOverlay("heat.utilization", o));
  EXPECT_EQ(o.heat, world::OverlayMetric::Utilisation);
  ASSERT_TRUE(world::addOverlay("parallelism", o));
  EXPECT_EQ(o.heat, world::OverlayMetric::Stage);
  EXPECT_FALSE(world::addOverlay("heat.sparkles", o));
  EXPECT_FALSE(world::addOverlay("sparkles", o));
}
