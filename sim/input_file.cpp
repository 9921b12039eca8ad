#include "sim/input_file.h"

namespace sim {

std::string regularFileError(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (status.type() == fs::file_type::not_found) return "no such file";
  if (ec) return "cannot read: " + ec.message();
  switch (status.type()) {
    case fs::file_type::regular:
      return "";
    case fs::file_type::directory:
      return "is a directory";
    case fs::file_type::fifo:
      return "is not a regular file (a FIFO)";
    case fs::file_type::block:
    case fs::file_type::character:
      return "is not a regular file (a device)";
    case fs::file_type::socket:
      return "is not a regular file (a socket)";
    default:
      return "is not a regular file";
  }
}

bool insideFolder(const std::filesystem::path& folder, const std::filesystem::path& path,
                  std::filesystem::path* resolved) {
  std::error_code ec;
  std::filesystem::path canon = std::filesystem::weakly_canonical(path, ec);
  if (ec) return false;
  std::filesystem::path rel = canon.lexically_relative(folder);
  if (rel.empty() || rel == "." || *rel.begin() == "..") return false;
  *resolved = canon;
  return true;
}

std::string confinedPathError(const std::filesystem::path& folder, const std::string& name,
                              std::filesystem::path* resolved) {
  const std::filesystem::path relative(name);
  if (relative.is_absolute() || relative.has_root_name() || relative.has_root_directory())
    return "\"" + name + "\" is an absolute path; name it relative to " + folder.string();
  for (const std::filesystem::path& part : relative)
    if (part == "..") return "\"" + name + "\" climbs out of " + folder.string() + " with \"..\"";
  if (!insideFolder(folder, folder / relative, resolved))
    return "\"" + name + "\" resolves outside " + folder.string();
  return "";
}

}  // namespace sim
