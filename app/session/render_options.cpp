#include "app/session/render_options.h"

#include <cstdio>
#include <cstdlib>

#include "renderer/vk/pipeline_cache.h"
#include "renderer/vk/validation.h"

namespace app {

renderer::RendererDesc rendererDesc(const RenderOptions& options) {
  renderer::RendererDesc desc;
  desc.devicePreference = options.device;
  desc.extent = {options.width, options.height};
  desc.quality = options.quality;
  const char* env = std::getenv("DCWALK_VALIDATION");
#ifdef NDEBUG
  const bool debugBuild = false;
#else
  const bool debugBuild = true;
#endif
  desc.validation = options.validation || debugBuild || (env && std::string(env) == "1");
  if (auto dir = vkutil::defaultCacheDir(); !dir.empty()) {
    desc.pipelineCacheFile = dir / "pipeline-cache.bin";
  }
  return desc;
}

bool reportValidation() {
  const uint32_t errors = vkutil::validationErrorCount();
  if (errors > 0) std::fprintf(stderr, "dcwalk: %u Vulkan validation error(s)\n", errors);
  return errors == 0;
}

float fontPixelsFor(uint32_t height) {
  return 18.0f * float(height) / 720.0f;
}

}  // namespace app
