#include "app/cli/options.h"

#include <charconv>
#include <map>
#include <string_view>

#include "sim/input_file.h"

namespace app {
namespace {

// One side: decimal digits only, no sign, no overflow (from_chars refuses what uint32 cannot
// hold, where sscanf's %u wrapped 4294967312 to 16).
bool parseSide(std::string_view text, uint32_t& side) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, side);
  return !text.empty() && ec == std::errc() && ptr == end && side >= MIN_IMAGE_SIDE &&
         side <= MAX_IMAGE_SIDE;
}

}  // namespace

bool parseSize(const std::string& text, uint32_t& width, uint32_t& height) {
  const size_t x = text.find_first_of("xX");
  if (x == std::string::npos) return false;
  uint32_t w = 0, h = 0;
  if (!parseSide(std::string_view(text).substr(0, x), w) ||
      !parseSide(std::string_view(text).substr(x + 1), h))
    return false;
  width = w;
  height = h;
  return true;
}

void addRenderOptions(CLI::App& sub, RenderOptions& options) {
  const std::string sides = std::to_string(MIN_IMAGE_SIDE) + ".." + std::to_string(MAX_IMAGE_SIDE);
  sub.add_option("--size", options.sizeText,
                 "image or window size, WxH (" + sides +
                     "; headless, at most the pixels that fit in 1.75 GiB at the quality)")
      ->check(CLI::Validator(
          [&options, sides](std::string& text) -> std::string {
            return parseSize(text, options.width, options.height)
                       ? std::string()
                       : "expected WxH with each side " + sides + ", got '" + text + "'";
          },
          "WxH"));
  sub.add_option("--device", options.device,
                 "Vulkan device: index or part of its name (default: a discrete GPU, else the "
                 "best available, software included)");
  sub.add_flag("--validation", options.validation,
               "enable VK_LAYER_KHRONOS_validation and fail on any validation error");
  sub.add_option("--assets", options.assetsFile,
                 "asset override file: built-in components drawn as your glTF models, scaled to "
                 "their real size (`dcwalk asset components` lists them)");
  sub.add_option("--quality", options.quality,
                 "auto (high on a GPU, low on software Vulkan), low (no MSAA: the software "
                 "budget) or high (4x MSAA, sun shadows, bloom)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, renderer::Quality>{{"auto", renderer::Quality::Auto},
                                                   {"low", renderer::Quality::Low},
                                                   {"high", renderer::Quality::High}},
          CLI::ignore_case));
}

const CLI::Validator& regularFile() {
  static const CLI::Validator check(
      [](const std::string& path) {
        const std::string why = sim::regularFileError(path);
        return why.empty() ? std::string() : path + ": " + why;
      },
      "FILE");
  return check;
}

void addTraceOptions(CLI::App& sub, TraceRequest& trace) {
  CLI::Option* files =
      sub.add_option("--trace", trace.files,
                     "PyTorch profiler (Kineto) traces, one per rank: replay them on the "
                     "scenario's cluster instead of the model (docs/trace.md)")
          ->check(regularFile())
          ->expected(1, 1 << 20);
  sub.add_option("--rank-layout", trace.rankLayout,
                 "the traced job's layout, fastest dimension first, e.g. tp=8,pp=2,dp=8 (each TP "
                 "group inside one NVLink domain); default: rank r on GPU r")
      ->needs(files);
  sub.add_option("--rank-map", trace.rankMap,
                 "a file of RANK GPU lines (two integers) placing every rank")
      ->check(regularFile())
      ->needs(files)
      ->excludes("--rank-layout");
}

}  // namespace app
