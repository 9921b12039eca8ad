// Atomic saves and defensive reads (app/platform/atomic_file.h): round trips, corrupt files set
// aside, and a child process killed (SIGKILL) while it saves in a loop never leaves a partial file.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>

#include "app/platform/atomic_file.h"
#include "fuzz/output_entry_point.h"
#include "tests/common/paths.h"

namespace fs = std::filesystem;

namespace {

using testpaths::readAll;

fs::path freshDir(const std::string& name) {
  return testpaths::freshDir("atomic-" + name);
}

void writePlain(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

/// Files in `dir` whose name starts with `prefix`.
int countWithPrefix(const fs::path& dir, const std::string& prefix) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) ++n;
  return n;
}

/// Version `generation` of a large self-describing file: a header naming the generation and the
/// length, a filler letter that differs between consecutive generations, and a trailer. Any
/// truncation or mix of two versions differs from every version.
std::string version(uint32_t generation) {
  const size_t fillerBytes = (1u << 20) + generation % 1000;  // ~1 MiB: a save takes a while
  std::string text = "dcwalk-test gen=" + std::to_string(generation) +
                     " filler=" + std::to_string(fillerBytes) + "\n";
  text.append(fillerBytes, static_cast<char>('a' + generation % 26));
  text += "\nend gen=" + std::to_string(generation) + "\n";
  return text;
}

/// The generation `text` claims in its header, when it is exactly that version; -1 otherwise.
long wholeVersion(const std::string& text) {
  const std::string head = "dcwalk-test gen=";
  if (text.rfind(head, 0) != 0) return -1;
  const long generation = std::strtol(text.c_str() + head.size(), nullptr, 10);
  if (generation < 0 || generation > 100000) return -1;
  return text == version(static_cast<uint32_t>(generation)) ? generation : -1;
}

}  // namespace

TEST(AtomicFile, WritesAndReplacesWholeFilesLeavingNoTemporaries) {
  fs::path dir = freshDir("roundtrip");
  fs::path file = dir / "settings.json";
  ASSERT_TRUE(app::writeFileAtomic(file, R"({"volume": 1})").ok());
  EXPECT_EQ(readAll(file), R"({"volume": 1})");
  ASSERT_TRUE(app::writeFileAtomic(file, R"({"volume": 2})").ok());
  EXPECT_EQ(readAll(file), R"({"volume": 2})");
  EXPECT_EQ(countWithPrefix(dir, "settings.json.tmp-"), 0);
  fs::remove_all(dir);
}

TEST(AtomicFile, WriteIntoMissingFolderFailsNamingTheFile) {
  fs::path dir = freshDir("missing");
  fs::path file = dir / "no-such-folder" / "settings.json";
  auto written = app::writeFileAtomic(file, "{}");
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.error().find(file.string()), std::string::npos) << written.error();
  EXPECT_FALSE(fs::exists(file));
  fs::remove_all(dir);
}

TEST(AtomicFile, MissingFileGivesDefaultsWithoutMessage) {
  fs::path dir = freshDir("absent");
  auto loaded = app::readFileOrDefaults(dir / "settings.json",
                                        {.defaults = "{}", .check = app::checkJsonObject});
  EXPECT_TRUE(loaded.usedDefaults);
  EXPECT_EQ(loaded.contents, "{}");
  EXPECT_TRUE(loaded.message.empty());
  EXPECT_TRUE(loaded.setAsidePath.empty());
  EXPECT_TRUE(fs::is_empty(dir));
  fs::remove_all(dir);
}

TEST(AtomicFile, ValidFileIsReadAsIs) {
  fs::path dir = freshDir("valid");
  fs::path file = dir / "settings.json";
  writePlain(file, R"({"speed": 3})");
  auto loaded = app::readFileOrDefaults(file, {.defaults = "{}", .check = app::checkJsonObject});
  EXPECT_FALSE(loaded.usedDefaults);
  EXPECT_EQ(loaded.contents, R"({"speed": 3})");
  EXPECT_TRUE(loaded.message.empty());
  fs::remove_all(dir);
}

TEST(AtomicFile, CorruptFileIsSetAsideWithItsBytesAndDefaultsUsed) {
  fs::path dir = freshDir("corrupt");
  fs::path file = dir / "settings.json";
  const std::string corrupt = "{\"speed\": 3, \"win";  // a truncated object
  writePlain(file, corrupt);
  auto loaded = app::readFileOrDefaults(file, {.defaults = "{}", .check = app::checkJsonObject});
  EXPECT_TRUE(loaded.usedDefaults);
  EXPECT_EQ(loaded.contents, "{}");
  EXPECT_FALSE(fs::exists(file));
  ASSERT_FALSE(loaded.setAsidePath.empty());
  EXPECT_EQ(loaded.setAsidePath.parent_path(), dir);
  EXPECT_EQ(loaded.setAsidePath.filename().string().rfind("settings.json.corrupt-", 0), 0u);
  EXPECT_EQ(readAll(loaded.setAsidePath), corrupt);
  EXPECT_NE(loaded.message.find(file.string()), std::string::npos) << loaded.message;
  EXPECT_NE(loaded.message.find(loaded.setAsidePath.string()), std::string::npos) << loaded.message;

  // A second corrupt file within the same second gets its own name; nothing is overwritten.
  writePlain(file, "[1, 2]");
  auto again = app::readFileOrDefaults(file, {.defaults = "{}", .check = app::checkJsonObject});
  ASSERT_FALSE(again.setAsidePath.empty());
  EXPECT_NE(again.setAsidePath, loaded.setAsidePath);
  EXPECT_EQ(readAll(again.setAsidePath), "[1, 2]");
  EXPECT_EQ(readAll(loaded.setAsidePath), corrupt);
  fs::remove_all(dir);
}

TEST(AtomicFile, OversizedFileIsSetAsideBeforeItIsRead) {
  fs::path dir = freshDir("oversize");
  fs::path file = dir / "settings.json";
  writePlain(file, std::string(2000, ' ') + "{}");
  auto loaded = app::readFileOrDefaults(file, {.defaults = "{}", .maxBytes = 1000});
  EXPECT_TRUE(loaded.usedDefaults);
  EXPECT_FALSE(fs::exists(file));
  EXPECT_NE(loaded.message.find("2002 bytes"), std::string::npos) << loaded.message;
  fs::remove_all(dir);
}

TEST(AtomicFile, KillingTheWriterMidSaveLeavesOldOrNewWholeFile) {
  fs::path dir = freshDir("kill");
  fs::path file = dir / "settings.json";
  ASSERT_TRUE(app::writeFileAtomic(file, version(0)).ok());

  constexpr int KILLS = 30;
  int killsMidSave = 0;  // kills that left a temporary behind: the child was inside a save
  std::minstd_rand delays(12345);
  long newestSeen = 0;
  for (int round = 0; round < KILLS; ++round) {
    const uint32_t firstGeneration = 1 + static_cast<uint32_t>(round) * 1000;
    int started[2];
    ASSERT_EQ(::pipe(started), 0);
    pid_t child = ::fork();
    ASSERT_GE(child, 0) << "fork failed";
    if (child == 0) {
      // The child saves new versions back to back until it is killed, and says when the first
      // save is done so that the kill lands while it is saving, not while it starts up.
      ::close(started[0]);
      for (uint32_t g = firstGeneration;; ++g) {
        if (!app::writeFileAtomic(file, version(g)).ok()) ::_exit(3);
        if (g == firstGeneration) {
          char byte = 1;
          if (::write(started[1], &byte, 1) != 1) ::_exit(4);
          ::close(started[1]);
        }
      }
    }
    ::close(started[1]);
    char byte = 0;
    ASSERT_EQ(::read(started[0], &byte, 1), 1) << "the writer failed before its first save";
    ::close(started[0]);
    std::this_thread::sleep_for(std::chrono::microseconds(delays() % 20000));
    ASSERT_EQ(::kill(child, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the writer stopped by itself (status " << status << ")";
    if (countWithPrefix(dir, "settings.json.tmp-") > 0) ++killsMidSave;
    newestSeen = std::max<long>(newestSeen, firstGeneration);  // its first save was complete

    const long generation = wholeVersion(readAll(file));
    ASSERT_GE(generation, 0) << "round " << round << ": the file is not one whole version";
    EXPECT_GE(generation, newestSeen) << "an older version came back";
    newestSeen = generation;
  }
  // The kills did land inside saves, so the test exercised what it claims to.
  EXPECT_GT(killsMidSave, 0);
  std::printf("%d of %d kills landed inside a save\n", killsMidSave, KILLS);

  // The next save removes what the killed writers left behind.
  ASSERT_TRUE(app::writeFileAtomic(file, version(7)).ok());
  EXPECT_EQ(countWithPrefix(dir, "settings.json.tmp-"), 0);
  EXPECT_EQ(wholeVersion(readAll(file)), 7);
  fs::remove_all(dir);
}

TEST(AtomicFile, NewFileSetWritesAllOrNoneAndNeverOverwrites) {
  const fs::path dir = freshDir("set");
  {
    app::NewFileSet set;
    ASSERT_TRUE(set.add(dir / "a.json", "A").ok());
    ASSERT_TRUE(set.add(dir / "b.json", "B").ok());
    EXPECT_FALSE(fs::exists(dir / "a.json"));  // nothing in place before the commit
    ASSERT_TRUE(set.commit().ok());
  }
  EXPECT_EQ(readAll(dir / "a.json"), "A");
  EXPECT_EQ(readAll(dir / "b.json"), "B");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);

  // A target that exists: the commit fails naming it, the file stays as it was, and the files the
  // set had already moved go again, so none of the set is left.
  writePlain(dir / "d.json", "keep");
  {
    app::NewFileSet set;
    ASSERT_TRUE(set.add(dir / "c.json", "C").ok());
    ASSERT_TRUE(set.add(dir / "d.json", "D").ok());
    ASSERT_TRUE(set.add(dir / "e.json", "E").ok());
    auto committed = set.commit();
    ASSERT_FALSE(committed.ok());
    EXPECT_NE(committed.error().find("d.json"), std::string::npos) << committed.error();
  }
  EXPECT_EQ(readAll(dir / "d.json"), "keep");
  EXPECT_FALSE(fs::exists(dir / "c.json"));
  EXPECT_FALSE(fs::exists(dir / "e.json"));

  // A set dropped without a commit leaves nothing behind, temporaries included.
  {
    app::NewFileSet set;
    ASSERT_TRUE(set.add(dir / "f.json", "F").ok());
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 3);
  fs::remove_all(dir);
}

// A file system that fails at the N-th call writeFileAtomic makes: the output fuzz target's.
using fuzzentry::FailingCalls;
using fuzzentry::FailingFileSystem;

TEST(AtomicFile, AFileSystemFailingAtAnyCallLeavesTheOldFileOrTheNewOneWhole) {
  const fs::path dir = freshDir("failing");
  const fs::path file = dir / "frame.png";
  const std::string before = version(1);
  const std::string after = version(2) + std::string(5u << 19, 'z');  // several writes
  FailingFileSystem failing;
  FailingCalls::calls = 0;
  FailingCalls::failAt = 0;
  ASSERT_TRUE(app::writeFileAtomic(file, after).ok());
  const int total = FailingCalls::calls;
  // At least: three writes of at most 1 MiB, the file's fsync, its close, the rename, the
  // folder's fsync.
  ASSERT_GE(total, 7);
  for (int n = 1; n <= total; ++n) {
    for (const bool existed : {true, false}) {
      SCOPED_TRACE("failing at call " + std::to_string(n) + " of " + std::to_string(total) +
                   (existed ? ", over an old file" : ", a new file"));
      if (existed) {
        writePlain(file, before);
      } else {
        fs::remove(file);
      }
      FailingCalls::calls = 0;
      FailingCalls::failAt = n;
      const auto written = app::writeFileAtomic(file, after);
      ASSERT_FALSE(written.ok());
      EXPECT_NE(written.error().find(file.string() + ": cannot save ("), std::string::npos)
          << written.error();
      const bool why = written.error().find("No space left on device") != std::string::npos ||
                       written.error().find("Input/output error") != std::string::npos;
      EXPECT_TRUE(why) << written.error();
      if (n == total) {
        // Only the folder's fsync was left: the new file is in place, whole.
        EXPECT_EQ(readAll(file), after);
      } else if (existed) {
        EXPECT_EQ(readAll(file), before);
      } else {
        EXPECT_FALSE(fs::exists(file));
      }
      EXPECT_EQ(countWithPrefix(dir, "frame.png.tmp-"), 0);
    }
  }
  fs::remove_all(dir);
}

TEST(AtomicFile, WhatIsNoRegularFileIsNeverReplaced) {
  const fs::path dir = freshDir("special");
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0644), 0);
  fs::create_directory(dir / "folder");
  fs::create_symlink(dir / "fifo", dir / "link-to-fifo");
  for (const char* name : {"fifo", "folder", "link-to-fifo"}) {
    const fs::path path = dir / name;
    const auto type = fs::symlink_status(path).type();
    const auto written = app::writeFileAtomic(path, "x");
    ASSERT_FALSE(written.ok()) << name;
    EXPECT_NE(written.error().find(path.string() + ": not a regular file"), std::string::npos)
        << written.error();
    EXPECT_EQ(fs::symlink_status(path).type(), type) << name;
  }
  // A device is refused by the check alone (nothing is written to try).
  EXPECT_NE(app::checkWritableFile("/dev/full").find("not a regular file"), std::string::npos);
  EXPECT_EQ(app::checkWritableFile(dir / "new.png"), "");
  EXPECT_NE(app::checkWritableFile(""), "");
  EXPECT_EQ(countWithPrefix(dir, "fifo.tmp-") + countWithPrefix(dir, "folder.tmp-"), 0);
  fs::remove_all(dir);
}

TEST(AtomicFile, NoWriteGoesThroughALink) {
  const fs::path dir = freshDir("links");
  const fs::path victim = dir / "victim.txt";
  writePlain(victim, "the user's file");
  // A link planted where the temporary goes, and one under the target's own name.
  const fs::path file = dir / "out.png";
  fs::create_symlink(victim, file.string() + ".tmp-" + std::to_string(::getpid()));
  ASSERT_TRUE(app::writeFileAtomic(file, "new").ok());
  EXPECT_EQ(readAll(victim), "the user's file");
  EXPECT_EQ(readAll(file), "new");
  const fs::path linked = dir / "linked.png";
  fs::create_symlink(victim, linked);
  ASSERT_TRUE(app::writeFileAtomic(linked, "also new").ok());
  EXPECT_EQ(readAll(victim), "the user's file");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(linked)));
  EXPECT_EQ(readAll(linked), "also new");
  fs::remove_all(dir);
}
