// Files the user must never lose (settings, saved scenarios): written atomically, so that a crash
// or a kill at any instant leaves either the old file or the new one, whole; read defensively, so
// that a corrupt file is set aside (never overwritten, never fatal) and defaults are used.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/result.h"

namespace app {

/// Writes `contents` to `path` atomically: PATH.tmp-<pid> (created anew, never through a link),
/// every write checked, fsync, close, rename over PATH, fsync the folder. Leftover temporaries of
/// writers that died are removed first. A PATH that is there but is no regular file (a folder, a
/// device such as /dev/full, a FIFO, a link to one) is refused: renaming over it would replace it;
/// a link to a regular file, or a dangling one, is replaced by the file (never written through).
/// Errors name the file, the step and the reason (errno); on error PATH is as it was, or, when
/// only the folder's fsync failed, the new file whole.
sim::Result<bool> writeFileAtomic(const std::filesystem::path& path, std::string_view contents);

/// "" when writeFileAtomic(path, ...) can be tried: PATH is absent or a regular file (or a link to
/// one), and its folder is there and writable; otherwise why not, naming the file. For checking an
/// output before the work that makes it.
std::string checkWritableFile(const std::filesystem::path& path);

/// The system calls writeFileAtomic goes through, one pointer each; tests replace them to play a
/// file system that fails at the N-th call (tests/app/atomic_file_test.cpp).
struct FileCalls {
  ssize_t (*write)(int fd, const void* bytes, size_t size);
  int (*fsync)(int fd);
  int (*close)(int fd);
  int (*rename)(const char* from, const char* to);
};

/// Replaces the calls writeFileAtomic makes (tests only); returns the ones it replaced.
FileCalls replaceFileCalls(const FileCalls& calls);

/// New files written all or none (a trace per rank): add() writes each to a temporary beside its
/// target (PATH.tmp-<pid>, fsynced) as it comes; commit() moves them all into place, never over
/// an existing file (one there fails the commit, and the files this set had moved go again), and
/// fsyncs their folders. Temporaries not committed are removed when the set goes.
class NewFileSet {
 public:
  NewFileSet() = default;
  NewFileSet(const NewFileSet&) = delete;
  NewFileSet& operator=(const NewFileSet&) = delete;
  ~NewFileSet();
  sim::Result<bool> add(const std::filesystem::path& path, std::string_view contents);
  sim::Result<bool> commit();

 private:
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> m_pending;  // temp, target
};

/// "" when `text` is usable, otherwise why it is not (shown to the user).
using ContentCheck = std::function<std::string(const std::string& text)>;

/// A ContentCheck for settings-style files: a JSON object within sim's size and depth caps.
std::string checkJsonObject(const std::string& text);

/// Reads the whole of `path` (expected `size` bytes) into `text`; 0, or the errno of the open or
/// read that failed.
int readWhole(const std::filesystem::path& path, uint64_t size, std::string& text);

struct LoadedFile {
  std::string contents;       // the file's text, or the defaults
  bool usedDefaults = false;  // true when the file was missing, unreadable or set aside
  bool unreadable = false;    // it exists but could not be read: left alone, and not to be replaced
  std::string message;        // why the file was set aside; empty otherwise
  std::filesystem::path setAsidePath;  // FILE.corrupt-<UTC timestamp>; empty when none
};

struct ReadDesc {
  std::string defaults;           // returned when the file is missing or unusable
  ContentCheck check;             // empty: any readable file within maxBytes is usable
  uint64_t maxBytes = 16u << 20;  // larger files count as corrupt (16 MiB, powers of two)
  bool setAside = true;           // false: a corrupt file is reported and left where it is
};

/// Reads `path`. Missing: the defaults, no message. Unreadable (not a regular file, or its open
/// or read fails: permissions, I/O): the defaults, with a message, and the file left where it is
/// (it may be fine). Too large or refused by `desc.check` (corrupt): renamed to
/// PATH.corrupt-<YYYYMMDDTHHMMSSZ> with a message naming both files (unless `desc.setAside` is
/// false: then it stays where it is, and the message says so), and the defaults are returned.
/// When even the rename fails, the message says so.
LoadedFile readFileOrDefaults(const std::filesystem::path& path, const ReadDesc& desc);

}  // namespace app
