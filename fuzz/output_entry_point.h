// The output fuzz target (issue 40): app::writeFileAtomic on a file system that fails at the N-th
// call it makes (write, fsync, close, rename: app::replaceFileCalls), over an old file or none.
// Shared with tests/app/atomic_file_test.cpp (FailingCalls) and tests/app/fuzz_regressions_test.cpp
// (the replay of fuzz/regressions/output).
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/platform/atomic_file.h"
#include "fuzz/work_dir.h"

namespace fuzzentry {

/// A file system that fails at the N-th call writeFileAtomic makes (write, fsync, close,
/// rename): a write or rename runs out of space, an fsync or close reports an I/O error.
struct FailingCalls {
  static inline int calls = 0;
  static inline int failAt = 0;  // 0: never
  static bool failNow() { return ++calls == failAt; }
  static ssize_t write(int fd, const void* bytes, size_t size) {
    if (failNow()) return errno = ENOSPC, -1;
    return ::write(fd, bytes, size);
  }
  static int fsync(int fd) {
    if (failNow()) return errno = EIO, -1;
    return ::fsync(fd);
  }
  static int close(int fd) {
    if (failNow()) return ::close(fd), errno = EIO, -1;
    return ::close(fd);
  }
  static int rename(const char* from, const char* to) {
    if (failNow()) return errno = ENOSPC, -1;
    return ::rename(from, to);
  }
};

/// Plays FailingCalls for as long as it lives.
struct FailingFileSystem {
  app::FileCalls previous = app::replaceFileCalls(
      {FailingCalls::write, FailingCalls::fsync, FailingCalls::close, FailingCalls::rename});
  ~FailingFileSystem() { app::replaceFileCalls(previous); }
};

namespace output_detail {

inline std::string readAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void writePlain(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace output_detail

/// Input: byte 0 picks the failing call (N = byte % 32; 0: none fails), byte 1 bit 0 whether an
/// old file is there, byte 2 how many MiB the new contents are padded to (byte % 4, so a save
/// takes up to four 1 MiB writes), the rest the new contents. Contract: a save that succeeds
/// leaves the new contents; one that fails names the file ("PATH: cannot save (") and leaves the
/// old file (or none), except when the failing call was the last one (the folder's fsync, after
/// the rename), which leaves the new file whole; never a temporary beside it. "" when held.
inline std::string output(const uint8_t* data, size_t size) {
  namespace fs = std::filesystem;
  if (size < 3) return "";
  const int failAt = data[0] % 32;
  const bool existed = (data[1] & 1) != 0;
  std::string contents(reinterpret_cast<const char*>(data) + 3, size - 3);
  if (const size_t mib = data[2] % 4; contents.size() < (mib << 20))
    contents.resize(mib << 20, 'z');
  const fs::path dir = privateWorkDir("fuzz_output") / "out";
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  const fs::path file = dir / "frame.png";
  const std::string before = "the old file, whole";
  FailingFileSystem failing;
  // The calls a save of these contents makes when none fails (the last is the folder's fsync).
  FailingCalls::calls = 0;
  FailingCalls::failAt = 0;
  if (!app::writeFileAtomic(dir / "count.png", contents))
    return "a save that nothing failed failed";
  const int total = FailingCalls::calls;
  if (existed) output_detail::writePlain(file, before);
  FailingCalls::calls = 0;
  FailingCalls::failAt = failAt;
  const auto written = app::writeFileAtomic(file, contents);
  std::string broken;
  const bool hasNew = fs::exists(file) && output_detail::readAll(file) == contents;
  if (written) {
    if (failAt >= 1 && failAt <= total) broken = "a save succeeded over a failing call";
    if (!hasNew) broken = "a save that succeeded left other contents";
  } else if (written.error().find(file.string() + ": cannot save (") == std::string::npos) {
    broken = "a failed save did not name the file: " + written.error();
  } else if (failAt == total) {
    if (!hasNew) broken = "the folder's fsync failed but the new file is not whole in place";
  } else if (existed ? output_detail::readAll(file) != before : fs::exists(file)) {
    broken = "a failed save did not leave the old file (or none)";
  }
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().find(".tmp-") != std::string::npos)
      broken = "a temporary was left beside the file: " + entry.path().string();
  }
  fs::remove_all(dir, ec);
  return broken;
}

}  // namespace fuzzentry
