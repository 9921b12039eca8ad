// Issue 40, the write side: a full disk or standard output is a failure that names the file and
// the reason (exit 1), an output that cannot be written is refused before any rendering (exit 2),
// a clip never deletes a folder it did not make, the headless tour writes only inside --out, and
// a clip has a stated frame budget. /dev/full is a real full device: every write fails, ENOSPC.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/modes/headless_tour.h"
#include "app/session/sim_budget.h"
#include "tests/common/cli.h"
#include "tests/common/paths.h"
#include "world/tour/tour.h"

namespace fs = std::filesystem;

namespace {

using testpaths::readAll;

fs::path freshDir(const std::string& name) {
  return testpaths::freshDir("output-" + name);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// /dev/full is still the character device it was (nothing was renamed over it).
void expectDevFullIntact() {
  struct stat st {};
  ASSERT_EQ(::lstat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/full is no longer a device";
}

/// A copy of the shipped assets whose default tour is `tour` (DCWALK_ASSETS points at it).
fs::path assetsWithTour(const std::string& name, const nlohmann::json& tour) {
  const fs::path dir = freshDir(name);
  fs::copy(testpaths::sourceDir() / "assets", dir / "assets", fs::copy_options::recursive);
  std::ofstream(dir / "assets" / "tours" / "default.json") << tour.dump(2);
  return dir / "assets";
}

nlohmann::json shippedTour() {
  std::ifstream in(testpaths::sourceDir() / "assets" / "tours" / "default.json");
  return nlohmann::json::parse(in);
}

TEST(OutputSafety, AFullStandardOutputIsAFailureNamingIt) {
  // Before: exit 0 with the output lost (sim --json, trace --json; sim --engine cut mid-row).
  for (const std::string& args :
       {std::string("sim --json --scenario llama70b-inference-h100"),
        std::string("sim --engine training_405b --until 1 --series csv"),
        "trace --json '" +
            (testpaths::sharedDir() / "testdata" / "traces" / "a100_2rank_allreduce.json.gz")
                .string() +
            "'",
        std::string("stations")}) {
    std::string command(1, '\'');  // appended: GCC 12 warns, falsely, on "x" + string
    command.append(DCWALK_EXE).append("' ").append(args).append(" 2>&1 >/dev/full");
    const testcli::CliRun run = testcli::shell(command);
    EXPECT_EQ(run.status, 1) << args << "\n" << run.out;
    // The reason when the last flush failed; a write that failed earlier left no errno.
    EXPECT_TRUE(has(run.out, "dcwalk: cannot write standard output: No space left on device") ||
                has(run.out, "dcwalk: cannot write standard output: an earlier write failed"))
        << args << "\n"
        << run.out;
  }
  // The same commands with somewhere to write succeed.
  EXPECT_EQ(testcli::dcwalk("stations", false).status, 0);
}

TEST(OutputSafety, ShotRefusesAnUnusableOutBeforeRendering) {
  const fs::path dir = freshDir("shot");
  struct Case {
    std::string out, words;
  };
  fs::create_directory(dir / "folder.png");
  // Before: `--out /dev/full` printed "wrote /dev/full" (exit 0); `x.jpg` held PNG bytes; ''
  // was accepted; a missing folder said "cannot write PNG" with no reason, after rendering.
  for (const Case& c :
       {Case{"/dev/full", "does not end in .png"},
        Case{(dir / "folder.png").string(), "not a regular file"},
        Case{(dir / "picture.jpg").string(), "does not end in .png"}, Case{"''", "no file named"},
        Case{(dir / "absent" / "x.png").string(), "No such file or directory"},
        Case{dir.string() + "/", "does not end in .png"}}) {
    const testcli::CliRun run = testcli::dcwalk("shot --size 64x64 --out " + c.out);
    EXPECT_EQ(run.status, 2) << c.out << "\n" << run.out;
    EXPECT_TRUE(has(run.out, "--out")) << run.out;
    EXPECT_TRUE(has(run.out, c.words)) << c.out << "\n" << run.out;
    EXPECT_FALSE(has(run.out, "wrote")) << run.out;
  }
  const testcli::CliRun compare = testcli::dcwalk(
      "shot --size 64x64 --compare llama70b-inference-h100,llama70b-inference-h100 --out "
      "/dev/full");
  EXPECT_EQ(compare.status, 2) << compare.out;
  EXPECT_FALSE(has(compare.out, "wrote")) << compare.out;
  expectDevFullIntact();
  EXPECT_FALSE(fs::exists(dir / "picture.jpg"));
  fs::remove_all(dir);
}

TEST(OutputSafety, ShotReplacesALinkItIsGivenNeverItsTarget) {
  const fs::path dir = freshDir("shot-link");
  const fs::path victim = dir / "victim.txt";
  std::ofstream(victim) << "the user's file";
  fs::create_symlink(victim, dir / "shot.png");
  const testcli::CliRun run =
      testcli::dcwalk("shot --size 64x64 --station rack --out " + (dir / "shot.png").string());
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(readAll(victim), "the user's file");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(dir / "shot.png")));
  EXPECT_EQ(readAll(dir / "shot.png").substr(1, 3), "PNG");
  fs::remove_all(dir);
}

TEST(OutputSafety, AClipNeverDeletesAFramesFolderItDidNotMake) {
  // Before: OUT/frames was removed with whatever was in it, without a word, exit 0.
  const fs::path out = freshDir("clip-frames");
  fs::create_directories(out / "frames");
  std::ofstream(out / "frames" / "keep.txt") << "mine";
  testcli::CliRun run =
      testcli::dcwalk("tour --headless --fps 1 --size 64x64 --out " + out.string());
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_TRUE(has(run.out, (out / "frames").string() + " is already there")) << run.out;
  EXPECT_EQ(readAll(out / "frames" / "keep.txt"), "mine");

  // A link in its place (to a folder elsewhere) is refused the same way, and not followed.
  const fs::path elsewhere = freshDir("clip-elsewhere");
  std::ofstream(elsewhere / "keep.txt") << "mine too";
  fs::create_directory_symlink(elsewhere, out / "frames-chapter-1");
  run = testcli::dcwalk("tour --headless --fps 1 --chapter 1 --size 64x64 --out " + out.string());
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_TRUE(has(run.out, "already there")) << run.out;
  EXPECT_EQ(readAll(elsewhere / "keep.txt"), "mine too");
  EXPECT_EQ(std::distance(fs::directory_iterator(elsewhere), fs::directory_iterator()), 1);
  fs::remove_all(out);
  fs::remove_all(elsewhere);
}

TEST(OutputSafety, AChapterIdThatWouldLeaveOutIsRefusedWhenTheTourLoads) {
  // Before: the id went into the key frame's name, "01-../../escaped-1.png", written outside
  // --out, exit 0.
  nlohmann::json tour = shippedTour();
  tour["chapters"][0]["id"] = "../../escaped";
  const fs::path assets = assetsWithTour("escape", tour);
  const fs::path out = freshDir("escape-out") / "a" / "b";
  const testcli::CliRun run =
      testcli::dcwalk("tour --headless --chapter 1 --size 64x64 --out " + out.string(), true,
                      "DCWALK_ASSETS='" + assets.string() + "'");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_TRUE(has(run.out, (assets / "tours" / "default.json").string())) << run.out;
  EXPECT_TRUE(has(run.out, "/chapters/0/id")) << run.out;
  EXPECT_TRUE(has(run.out, "'.' at byte 1")) << run.out;
  for (const fs::path& dir : {out, out.parent_path(), out.parent_path().parent_path()}) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      EXPECT_EQ(entry.path().extension(), "") << "written: " << entry.path();
    }
  }
  fs::remove_all(assets.parent_path());
  fs::remove_all(out.parent_path().parent_path());
}

TEST(OutputSafety, KeyFramesReplaceLinksPlantedInOutNeverTheirTargets) {
  // Before: a link planted under a key frame's name had its target overwritten.
  const fs::path out = freshDir("keyframes");
  const fs::path victim = freshDir("keyframes-victim") / "victim.txt";
  std::ofstream(victim) << "the user's file";
  const std::string firstId = shippedTour()["chapters"][0]["id"];
  const fs::path first = out / app::keyFrameName(0, firstId, 0);
  fs::create_symlink(victim, first);
  fs::create_symlink(victim, out / "contact-sheet.png");
  const testcli::CliRun run =
      testcli::dcwalk("tour --headless --chapter 1 --size 64x64 --out " + out.string());
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(readAll(victim), "the user's file");
  for (const fs::path& written : {first, out / "contact-sheet.png"}) {
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(written))) << written;
    EXPECT_EQ(readAll(written).substr(1, 3), "PNG") << written;
  }
  fs::remove_all(out);
  fs::remove_all(victim.parent_path());
}

TEST(OutputSafety, AClipOverItsFrameBudgetIsRefusedBeforeRendering) {
  // Before: 64 steps of 600 s at 240 fps asked for 9.2 M frames (a 1 M-frame guard only).
  nlohmann::json tour = shippedTour();
  nlohmann::json& steps = tour["chapters"][0]["steps"];
  const nlohmann::json step = steps[0];
  steps = nlohmann::json::array();
  for (int i = 0; i < 64; ++i) {
    steps.push_back(step);
    steps.back()["hold_s"] = 600;
  }
  const fs::path assets = assetsWithTour("budget", tour);
  const fs::path out = freshDir("budget-out");
  const testcli::CliRun run =
      testcli::dcwalk("tour --headless --fps 240 --chapter 1 --size 64x64 --out " + out.string(),
                      true, "DCWALK_ASSETS='" + assets.string() + "'");
  EXPECT_EQ(run.status, 2) << run.out;
  // Its frames at most, counted here: each step's hold and a flight of at most 1.6 s
  // (world/scene/flight.h), a frame per step for a flight's end, and the first frame.
  const double seconds = 64 * (600 + 1.6);
  const auto frames = static_cast<unsigned long long>(std::ceil(seconds * 240)) + 64 + 1;
  EXPECT_GT(frames, 9'200'000u);
  EXPECT_TRUE(has(run.out, "--fps 240")) << run.out;
  EXPECT_TRUE(has(run.out, "tour 'default' (chapter-1)")) << run.out;
  EXPECT_TRUE(has(run.out, std::to_string(frames) + " frames")) << run.out;
  EXPECT_TRUE(has(run.out, std::to_string(app::MAX_CLIP_FRAMES))) << run.out;
  EXPECT_FALSE(fs::exists(out / "frames-chapter-1"));
  fs::remove_all(assets.parent_path());
  fs::remove_all(out);
}

TEST(OutputSafety, ClipProgressCountsFrames) {
  std::FILE* sink = std::tmpfile();
  ASSERT_NE(sink, nullptr);
  app::SimProgress progress("dcwalk tour", 0, 400, sink, /*after_s=*/0, /*every_s=*/0);
  progress.measure("rendered", "frames at most");
  progress.update(100);
  progress.finish(200);
  std::rewind(sink);
  char line[256] = {};
  std::string text;
  while (std::fgets(line, sizeof line, sink)) text += line;
  std::fclose(sink);
  EXPECT_TRUE(has(text, "dcwalk tour: rendered 100 of 400 frames at most (25 %)")) << text;
  EXPECT_TRUE(has(text, "dcwalk tour: rendered 200 of 400 frames at most (50 %)")) << text;
}

TEST(OutputSafety, HostileChapterIdsNeverEscapeOrCollide) {
  // Ids mostly of safe characters with hostile ones mixed in, and some written by hand; a fixed
  // seed, so every run tries the same ones.
  std::mt19937 random(40);
  const std::string safe = "abcdefghijklmnopqrstuvwxyz0123456789_-";
  const std::string hostile = std::string("./\\ ~:*?\"<>|\t\nA\xc3\xa9\x7f") + '\0';
  std::vector<std::string> ids = {"..",
                                  ".",
                                  "../x",
                                  "a/../../b",
                                  "-a",
                                  "_a",
                                  ".hidden",
                                  "a.png",
                                  "con",
                                  std::string(48, 'a'),
                                  std::string(49, 'a'),
                                  std::string(128, 'a')};
  for (int i = 0; i < 20000; ++i) {
    std::string id(random() % 60, ' ');
    for (char& c : id) {
      c = random() % 7 == 0 ? hostile[random() % hostile.size()] : safe[random() % safe.size()];
    }
    ids.push_back(id);
  }
  const fs::path out = "/out";
  std::set<std::string> accepted;
  size_t refused = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    const std::string& id = ids[i];
    if (!world::checkFileNameId(id).empty()) {
      ++refused;
      continue;
    }
    accepted.insert(id);
    const std::string name = app::keyFrameName(i % 32, id, i % 64);
    EXPECT_EQ(fs::path(name).filename().string(), name) << id;
    EXPECT_EQ((out / name).lexically_normal().parent_path(), out) << id;
    EXPECT_LE(name.size(), 255u) << id;  // NAME_MAX
    EXPECT_NE(name[0], '.') << id;
    EXPECT_EQ(name.find_first_not_of(safe + "."), std::string::npos) << id;
  }
  EXPECT_GT(accepted.size(), 1000u);
  EXPECT_GT(refused, 1000u);
  EXPECT_EQ(world::checkFileNameId(std::string(48, 'a')), "");
  for (const std::string& bad : {std::string(".."), std::string("a/b"), std::string(49, 'a')}) {
    EXPECT_NE(world::checkFileNameId(bad), "") << bad;
  }
  // A tour's names never collide: the largest tour (32 chapters of 64 steps) of distinct ids.
  std::set<std::string> names;
  auto id = accepted.begin();
  for (size_t chapter = 0; chapter < 32; ++chapter, ++id) {
    for (size_t step = 0; step < 64; ++step) names.insert(app::keyFrameName(chapter, *id, step));
  }
  EXPECT_EQ(names.size(), 32u * 64u);
  EXPECT_EQ(names.count("contact-sheet.png"), 0u);
}

}  // namespace
