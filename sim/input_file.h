// The checks every reader of a file named by a user or by a data file makes before opening it.
// Only regular files are read: a FIFO would block the open (or the read) forever, a device could
// stream without end and a directory is not data; each is refused with words that say which it
// is. A file named inside a data file (a scenario's config.json, a glTF's buffers and images, an
// asset override's models) stays inside that file's folder, so a shared file cannot read others.
#pragma once

#include <filesystem>
#include <string>

namespace sim {

/// "" when `path` names a regular file (symlinks followed); else why it will not be read: "no such
/// file", "is a directory", "is not a regular file (a FIFO)" (or a device, a socket), or
/// "cannot read: REASON" for any other failure of stat.
std::string regularFileError(const std::filesystem::path& path);

/// `path` with its symbolic links resolved, when that stays inside `folder` (canonical); false
/// when it leaves it or cannot be resolved.
bool insideFolder(const std::filesystem::path& folder, const std::filesystem::path& path,
                  std::filesystem::path* resolved);

/// "" when `name`, a path written in a file of `folder`, is relative, has no "..", and resolves
/// (symlinks followed) inside `folder`, setting `resolved`; else why not, quoting `name`.
std::string confinedPathError(const std::filesystem::path& folder, const std::string& name,
                              std::filesystem::path* resolved);

}  // namespace sim
