#include "app/session/render_options.h"

#include <cstdio>
#include <cstdlib>

#include "app/platform/atomic_file.h"
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
    desc.saveFile = [](const std::filesystem::path& file, std::string_view bytes) {
      return writeFileAtomic(file, bytes).ok();
    };
  }
  return desc;
}

uint64_t imageMemoryBytes(uint32_t width, uint32_t height, renderer::Quality quality) {
  const uint64_t bytesPerPixel = quality == renderer::Quality::High ? 77 : 22;
  return uint64_t(width) * height * bytesPerPixel;
}

std::string checkImageMemory(uint32_t width, uint32_t height, renderer::Quality quality) {
  const uint64_t bytes = imageMemoryBytes(width, height, quality);
  if (bytes <= IMAGE_MEMORY_BUDGET_BYTES) return "";
  const uint64_t maxPixels = IMAGE_MEMORY_BUDGET_BYTES / imageMemoryBytes(1, 1, quality);
  char text[400];
  std::snprintf(text, sizeof text,
                "--size %ux%u at %s quality needs about %.1f GiB, more than the %.2f GiB an image "
                "may take; at most %.1f million pixels at this quality (e.g. %s)%s",
                width, height, renderer::qualityName(quality), double(bytes) / (1ull << 30),
                double(IMAGE_MEMORY_BUDGET_BYTES) / (1ull << 30), double(maxPixels) / 1e6,
                quality == renderer::Quality::High ? "4096x4096" : "8192x8192",
                quality == renderer::Quality::High ? ", or --quality low" : "");
  return text;
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
