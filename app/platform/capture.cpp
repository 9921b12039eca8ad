#include "app/platform/capture.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

#include "app/platform/atomic_file.h"
#include "app/platform/settings.h"
#include "renderer/image_io.h"
#include "sim/catalog.h"

namespace app {
namespace {

// Quotes `text` for /bin/sh.
std::string shellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// ffmpeg's common output options: H.264 in yuv420p (plays everywhere), even dimensions.
std::string outputOptions(const std::filesystem::path& mp4) {
  return " -an -vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' -c:v libx264 -preset veryfast -crf 20 "
         "-pix_fmt yuv420p -movflags +faststart " +
         shellQuote(mp4.string());
}

}  // namespace

bool haveFfmpeg() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (!dir.empty() && ::access((std::filesystem::path(dir) / "ffmpeg").c_str(), X_OK) == 0) {
      return true;
    }
  }
  return false;
}

std::filesystem::path picturesDir() {
  const char* home = std::getenv("HOME");
  if (!home || !*home) return {};
  // user-dirs.dirs holds shell assignments, XDG_PICTURES_DIR="$HOME/Pictures" or an absolute
  // path (the format xdg-user-dirs-update writes); the file wins over the environment, as in
  // xdg-user-dir.
  const std::string key = "XDG_PICTURES_DIR=\"";
  std::ifstream in(configHome() / "user-dirs.dirs");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0 || line.size() <= key.size() || line.back() != '"') continue;
    std::string value = line.substr(key.size(), line.size() - key.size() - 1);
    if (value.rfind("$HOME", 0) == 0) value = home + value.substr(5);
    if (!value.empty() && value[0] == '/') return value;
  }
  if (const char* env = std::getenv("XDG_PICTURES_DIR"); env && *env == '/') return env;
  return std::filesystem::path(home) / "Pictures";
}

std::filesystem::path defaultCaptureDir() {
  if (!sim::runningInstalled()) return "captures";
  const std::filesystem::path pictures = picturesDir();
  return pictures.empty() ? std::filesystem::path("captures") : pictures / "dcwalk";
}

std::string captureStem() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()) % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::strftime(text, sizeof(text), "dcwalk-%Y%m%d-%H%M%S", &utc);
  return std::string(text) + "-" + std::to_string(1000 + ms.count()).substr(1);
}

sim::Result<bool> writePng(const std::filesystem::path& path, const renderer::Pixels& pixels) {
  std::string error;
  const std::string png = renderer::encodePng(pixels, error);
  if (png.empty()) return sim::Result<bool>::failure(path.string() + ": " + error);
  return writeFileAtomic(path, png);
}

std::string checkPngOut(const std::string& flag, const std::filesystem::path& path) {
  if (path.empty()) return flag + ": no file named (an empty name)";
  std::string extension = path.extension().string();
  for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (extension != ".png") {
    return flag + ": '" + path.string() + "' does not end in .png (the only format written" +
           (extension.empty() ? std::string(")") : ", not " + path.extension().string() + ")");
  }
  const std::string problem = checkWritableFile(path);
  return problem.empty() ? problem : flag + ": " + problem;
}

sim::Result<std::filesystem::path> saveScreenshot(const renderer::Pixels& pixels,
                                                  const std::filesystem::path& folder) {
  using R = sim::Result<std::filesystem::path>;
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return R::failure(folder.string() + ": cannot create the folder: " + ec.message());
  const std::filesystem::path path = folder / (captureStem() + ".png");
  if (auto written = writePng(path, pixels); !written) return R::failure(written.error());
  return path;
}

sim::Result<bool> encodeFrames(const std::filesystem::path& folder, double fps,
                               const std::filesystem::path& mp4) {
  using R = sim::Result<bool>;
  if (const std::string problem = checkWritableFile(mp4); !problem.empty())
    return R::failure(problem);
  // ffmpeg and the shell open their files following links: they write inside the frames folder,
  // which the run made, and the clip is then renamed into place (over a link, never through it).
  const std::filesystem::path encoded = folder / "clip.mp4";
  const std::filesystem::path log = folder / "ffmpeg.log";
  const std::string command = "ffmpeg -nostdin -y -loglevel error -framerate " +
                              std::to_string(fps) + " -i " +
                              shellQuote((folder / "frame-%06d.png").string()) +
                              outputOptions(encoded) + " 2>" + shellQuote(log.string());
  const int status = std::system(command.c_str());
  if (status != 0) return R::failure(mp4.string() + ": ffmpeg failed (see " + log.string() + ")");
  std::filesystem::remove(log);
  if (::rename(encoded.c_str(), mp4.c_str()) != 0) {
    return R::failure(mp4.string() + ": cannot move " + encoded.string() +
                      " into place: " + std::strerror(errno));
  }
  return true;
}

sim::Result<std::unique_ptr<ClipRecorder>> ClipRecorder::start(const std::filesystem::path& mp4,
                                                               uint32_t width, uint32_t height,
                                                               double fps) {
  using R = sim::Result<std::unique_ptr<ClipRecorder>>;
  std::error_code ec;
  if (!haveFfmpeg()) {
    std::filesystem::path folder = mp4;
    folder.replace_extension();
    std::filesystem::create_directories(folder, ec);
    if (ec) return R::failure(folder.string() + ": cannot create the folder: " + ec.message());
    std::unique_ptr<ClipRecorder> recorder(new ClipRecorder());
    recorder->m_folder = folder;
    recorder->m_path = folder;
    recorder->m_width = width;
    recorder->m_height = height;
    return recorder;
  }
  if (mp4.has_parent_path()) std::filesystem::create_directories(mp4.parent_path(), ec);
  const std::string command = "ffmpeg -nostdin -y -loglevel error -f rawvideo -pix_fmt rgba -s " +
                              std::to_string(width) + "x" + std::to_string(height) +
                              " -framerate " + std::to_string(fps) + " -i -" + outputOptions(mp4) +
                              " 2>/dev/null";
  std::signal(SIGPIPE, SIG_IGN);  // an ffmpeg that dies makes writes fail, not the app
  FILE* pipe = ::popen(command.c_str(), "w");
  if (!pipe) return R::failure(mp4.string() + ": cannot start ffmpeg");
  std::unique_ptr<ClipRecorder> recorder(new ClipRecorder());
  recorder->m_pipe = pipe;
  recorder->m_path = mp4;
  recorder->m_width = width;
  recorder->m_height = height;
  return recorder;
}

ClipRecorder::~ClipRecorder() {
  if (m_pipe) ::pclose(m_pipe);
}

bool ClipRecorder::addFrame(const renderer::Pixels& pixels) {
  if (pixels.width != m_width || pixels.height != m_height) return false;
  if (!m_folder.empty()) {
    char name[32];
    std::snprintf(name, sizeof name, "frame-%06llu.png",
                  static_cast<unsigned long long>(m_frames + 1));
    if (!writePng(m_folder / name, pixels)) return false;
    ++m_frames;
    return true;
  }
  if (!m_pipe) return false;
  if (std::fwrite(pixels.rgba.data(), 1, pixels.rgba.size(), m_pipe) != pixels.rgba.size()) {
    return false;
  }
  ++m_frames;
  return true;
}

sim::Result<std::filesystem::path> ClipRecorder::finish() {
  using R = sim::Result<std::filesystem::path>;
  if (!m_folder.empty()) {
    if (m_frames == 0) return R::failure(m_folder.string() + ": no frames were recorded");
    return m_folder;
  }
  if (!m_pipe) return R::failure(m_path.string() + ": the clip was already finished");
  const int status = ::pclose(m_pipe);
  m_pipe = nullptr;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || m_frames == 0) {
    return R::failure(m_path.string() + ": ffmpeg did not finish the clip");
  }
  return m_path;
}

}  // namespace app
