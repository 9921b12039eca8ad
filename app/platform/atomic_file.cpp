#include "app/platform/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <system_error>
#include <utility>
#include <vector>

#include "sim/json_file.h"

namespace app {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view TEMP_MARK = ".tmp-";
// Bytes handed to one write(2): a large file is many calls, each checked.
constexpr size_t WRITE_CHUNK_BYTES = 1u << 20;

FileCalls g_calls{::write, ::fsync, ::close, ::rename};

std::string errnoText(int error) {
  return std::error_code(error, std::generic_category()).message();
}

sim::Result<bool> failure(const fs::path& path, const std::string& step, int error) {
  return sim::Result<bool>::failure(path.string() + ": cannot save (" + step +
                                    "): " + errnoText(error));
}

/// Closes a descriptor on every path out of a function.
struct FdGuard {
  int fd = -1;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
};

bool writeAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = g_calls.write(fd, bytes.data(), std::min(bytes.size(), WRITE_CHUNK_BYTES));
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

bool fsyncRetry(int fd) {
  while (g_calls.fsync(fd) != 0) {
    if (errno != EINTR) return false;
  }
  return true;
}

/// Removes PATH.tmp-<pid> files left by writers that are no longer running.
void removeStaleTemporaries(const fs::path& path) {
  const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  const std::string prefix = path.filename().string() + std::string(TEMP_MARK);
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string pidText = name.substr(prefix.size());
    if (pidText.find_first_not_of("0123456789") != std::string::npos || pidText.size() > 9)
      continue;
    const pid_t pid = static_cast<pid_t>(std::stol(pidText));
    if (pid == ::getpid()) continue;
    if (::kill(pid, 0) != 0 && errno == ESRCH) {
      std::error_code removeError;
      fs::remove(it->path(), removeError);
    }
  }
}

std::string utcTimestamp() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

/// Renames `path` to PATH.corrupt-<timestamp> (with -2, -3 ... when that name is taken).
std::string setAside(const fs::path& path, fs::path* outTarget) {
  const std::string base = path.string() + ".corrupt-" + utcTimestamp();
  fs::path target = base;
  std::error_code ec;
  for (int n = 2; fs::exists(target, ec) && n < 1000; ++n) target = base + "-" + std::to_string(n);
  if (::rename(path.c_str(), target.c_str()) != 0) {
    return "could not set it aside: " + errnoText(errno);
  }
  *outTarget = target;
  return "";
}

fs::path temporaryOf(const fs::path& path) {
  return path.string() + std::string(TEMP_MARK) + std::to_string(::getpid());
}

/// Writes `contents` to `temp` (created anew: a file or link already there is removed, and the
/// open neither follows nor reuses one) and fsyncs it; on failure removes it. Errors name `path`,
/// the file it stands for.
sim::Result<bool> writeTemporary(const fs::path& path, const fs::path& temp,
                                 std::string_view contents) {
  ::unlink(temp.c_str());
  FdGuard file{::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)};
  if (file.fd < 0) return failure(path, "create " + temp.filename().string(), errno);
  if (!writeAll(file.fd, contents)) {
    int error = errno;
    ::unlink(temp.c_str());
    return failure(path, "write", error);
  }
  if (!fsyncRetry(file.fd)) {
    int error = errno;
    ::unlink(temp.c_str());
    return failure(path, "fsync", error);
  }
  int fd = file.fd;
  file.fd = -1;
  if (g_calls.close(fd) != 0) {
    int error = errno;
    ::unlink(temp.c_str());
    return failure(path, "close", error);
  }
  return true;
}

/// fsyncs the folder holding `path`, so that a rename into it is durable.
sim::Result<bool> syncFolderOf(const fs::path& path) {
  const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  FdGuard folder{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (folder.fd < 0) return failure(path, "open folder", errno);
  if (!fsyncRetry(folder.fd)) return failure(path, "fsync folder", errno);
  return true;
}

}  // namespace

std::string checkWritableFile(const fs::path& path) {
  if (path.empty()) return "no file named (an empty name)";
  struct stat target {};
  if (::lstat(path.c_str(), &target) == 0) {
    struct stat followed = target;
    // A dangling link is replaced like a missing file; a link to a device is refused like it.
    const bool isRegular = S_ISREG(target.st_mode) ||
                           (S_ISLNK(target.st_mode) &&
                            (::stat(path.c_str(), &followed) != 0 || S_ISREG(followed.st_mode)));
    if (!isRegular)
      return path.string() + ": not a regular file (a folder, device or pipe is never written)";
  } else if (errno != ENOENT) {
    return path.string() + ": " + errnoText(errno);
  }
  const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  struct stat folder {};
  if (::stat(dir.c_str(), &folder) != 0)
    return path.string() + ": cannot use its folder " + dir.string() + ": " + errnoText(errno);
  if (!S_ISDIR(folder.st_mode)) return path.string() + ": " + dir.string() + " is not a folder";
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return path.string() + ": cannot write into " + dir.string() + ": " + errnoText(errno);
  return "";
}

FileCalls replaceFileCalls(const FileCalls& calls) {
  return std::exchange(g_calls, calls);
}

sim::Result<bool> writeFileAtomic(const fs::path& path, std::string_view contents) {
  if (std::string problem = checkWritableFile(path); !problem.empty())
    return sim::Result<bool>::failure(problem);
  removeStaleTemporaries(path);
  const fs::path temp = temporaryOf(path);
  if (auto written = writeTemporary(path, temp, contents); !written) return written;
  if (g_calls.rename(temp.c_str(), path.c_str()) != 0) {
    int error = errno;
    ::unlink(temp.c_str());
    return failure(path, "rename", error);
  }
  // The rename is durable only once the folder's entry is on disk too.
  return syncFolderOf(path);
}

NewFileSet::~NewFileSet() {
  for (const auto& [temp, target] : m_pending) ::unlink(temp.c_str());
}

sim::Result<bool> NewFileSet::add(const fs::path& path, std::string_view contents) {
  removeStaleTemporaries(path);
  const fs::path temp = temporaryOf(path);
  if (auto written = writeTemporary(path, temp, contents); !written) return written;
  m_pending.emplace_back(temp, path);
  return true;
}

sim::Result<bool> NewFileSet::commit() {
  for (size_t i = 0; i < m_pending.size(); ++i) {
    const auto& [temp, target] = m_pending[i];
    if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0)
      continue;
    const int error = errno;
    const fs::path failed = target;
    // Nothing half-done: the files this set already moved into place go again.
    for (size_t j = 0; j < i; ++j) ::unlink(m_pending[j].second.c_str());
    m_pending.erase(m_pending.begin(), m_pending.begin() + std::ptrdiff_t(i));
    return failure(failed, "move into place", error);
  }
  std::vector<fs::path> folders;
  for (const auto& [temp, target] : m_pending) folders.push_back(target.parent_path());
  m_pending.clear();
  std::sort(folders.begin(), folders.end());
  folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
  for (const fs::path& folder : folders) {
    if (auto synced = syncFolderOf(folder / "."); !synced) return synced;
  }
  return true;
}

int readWhole(const fs::path& path, uint64_t size, std::string& text) {
  FdGuard file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) return errno;
  text.resize(size);
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::read(file.fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) break;  // shorter than stat said (being rewritten): what is there is checked
    done += size_t(n);
  }
  text.resize(done);
  return 0;
}

std::string checkJsonObject(const std::string& text) {
  auto parsed = sim::parseJsonText(text, "settings");
  if (!parsed) return parsed.error();
  if (!parsed->root.is_object()) return "not a JSON object";
  return "";
}

LoadedFile readFileOrDefaults(const fs::path& path, const ReadDesc& desc) {
  LoadedFile result;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!fs::exists(status)) {
    result.contents = desc.defaults;
    result.usedDefaults = true;
    return result;
  }

  std::string problem;
  if (!fs::is_regular_file(status)) {
    problem = "not a regular file";
    result.unreadable = true;
  } else if (uint64_t size = fs::file_size(path, ec); ec) {
    problem = "cannot read its size: " + ec.message();
    result.unreadable = true;
  } else if (size > desc.maxBytes) {
    problem = std::to_string(size) + " bytes, more than the " + std::to_string(desc.maxBytes) +
              " allowed";
  } else {
    std::string text;
    if (int error = readWhole(path, size, text); error != 0) {
      // Not a sign of a bad file (permissions, an I/O error): it stays as it is.
      problem = std::string("cannot be read (") + std::strerror(error) + ")";
      result.unreadable = true;
    } else if (desc.check) {
      problem = desc.check(text);
    }
    if (problem.empty()) {
      result.contents = std::move(text);
      return result;
    }
  }

  result.contents = desc.defaults;
  result.usedDefaults = true;
  if (result.unreadable || !desc.setAside) {
    result.message = path.string() + ": " + problem + "; using defaults (left where it is)";
    return result;
  }
  std::string asideError = setAside(path, &result.setAsidePath);
  result.message = path.string() + ": " + problem + "; using defaults";
  result.message += asideError.empty()
                        ? " (the file was moved to " + result.setAsidePath.string() + ")"
                        : " (" + asideError + ")";
  return result;
}

}  // namespace app
