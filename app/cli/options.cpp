#include "app/cli/options.h"

#include <cstdio>
#include <map>

namespace app {

bool parseSize(const std::string& text, uint32_t& width, uint32_t& height) {
  unsigned w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%u%c%u%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X')) {
    return false;
  }
  if (w < 16 || h < 16 || w > 8192 || h > 8192) return false;
  width = w;
  height = h;
  return true;
}

void addRenderOptions(CLI::App& sub, RenderOptions& options) {
  sub.add_option("--size", options.sizeText, "image or window size, WxH (16..8192)")
      ->check(CLI::Validator(
          [&options](std::string& text) -> std::string {
            return parseSize(text, options.width, options.height)
                       ? std::string()
                       : "expected WxH with each side 16..8192, got '" + text + "'";
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

}  // namespace app
