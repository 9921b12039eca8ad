#include "renderer/passes/texture_array.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "renderer/vk/check.h"
#include "renderer/vk/descriptors.h"

namespace renderer {
namespace {

constexpr VkFormat FORMAT = VK_FORMAT_R8G8B8A8_SRGB;  // the sampler returns linear colour

uint32_t roundUpToPowerOfTwo(uint32_t v) {
  uint32_t p = 1;
  while (p < v && p < (1u << 30)) p <<= 1;
  return p;
}

uint32_t roundDownToPowerOfTwo(uint32_t v) {
  uint32_t p = 1;
  while (p * 2 <= v && p < (1u << 30)) p <<= 1;
  return p;
}

uint32_t mipCount(uint32_t size) {
  uint32_t levels = 1;
  while (size > 1) {
    size >>= 1;
    ++levels;
  }
  return levels;
}

uint64_t arrayBytes(uint32_t size, uint32_t layers) {
  uint64_t total = 0;
  for (uint32_t s = size;; s >>= 1) {
    total += uint64_t(s) * s * 4 * layers;
    if (s == 1) break;
  }
  return total;
}

const std::array<float, 256>& srgbToLinear() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int i = 0; i < 256; ++i) {
      const double c = i / 255.0;
      t[size_t(i)] = float(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
    }
    return t;
  }();
  return table;
}

uint8_t linearToSrgb(float c) {
  c = std::clamp(c, 0.0f, 1.0f);
  const double s = c <= 0.0031308 ? c * 12.92 : 1.055 * std::pow(double(c), 1.0 / 2.4) - 0.055;
  return uint8_t(std::lround(std::clamp(s, 0.0, 1.0) * 255.0));
}

struct Rgba8 {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> pixels;
};

// Half the size (at least 1x1), each pixel the average of up to 2x2 source pixels in linear light.
Rgba8 halve(const uint8_t* src, uint32_t width, uint32_t height) {
  const auto& lin = srgbToLinear();
  Rgba8 out;
  out.width = std::max(1u, width / 2);
  out.height = std::max(1u, height / 2);
  out.pixels.resize(size_t(out.width) * out.height * 4);
  for (uint32_t y = 0; y < out.height; ++y) {
    for (uint32_t x = 0; x < out.width; ++x) {
      float sum[4] = {0, 0, 0, 0};
      int n = 0;
      for (uint32_t dy = 0; dy < 2; ++dy) {
        for (uint32_t dx = 0; dx < 2; ++dx) {
          const uint32_t sx = std::min(width - 1, x * 2 + dx);
          const uint32_t sy = std::min(height - 1, y * 2 + dy);
          const uint8_t* p = src + (size_t(sy) * width + sx) * 4;
          for (int c = 0; c < 3; ++c) sum[c] += lin[p[c]];
          sum[3] += p[3] / 255.0f;
          ++n;
        }
      }
      uint8_t* q = out.pixels.data() + (size_t(y) * out.width + x) * 4;
      for (int c = 0; c < 3; ++c) q[c] = linearToSrgb(sum[c] / float(n));
      q[3] = uint8_t(std::lround(sum[3] / float(n) * 255.0f));
    }
  }
  return out;
}

// `image` at size x size: box-halved while at least twice too large, then bilinear.
void resampleInto(const world::TextureImage& image, uint32_t size, uint8_t* out) {
  Rgba8 current{image.width, image.height, {}};
  const uint8_t* src = image.rgba8.data();
  while (current.width >= 2 * size || current.height >= 2 * size) {
    current = halve(src, current.width, current.height);
    src = current.pixels.data();
  }
  const uint32_t w = current.width, h = current.height;
  for (uint32_t y = 0; y < size; ++y) {
    const double fy = std::clamp((y + 0.5) * h / size - 0.5, 0.0, double(h - 1));
    const uint32_t y0 = uint32_t(fy), y1 = std::min(h - 1, y0 + 1);
    const double ty = fy - y0;
    for (uint32_t x = 0; x < size; ++x) {
      const double fx = std::clamp((x + 0.5) * w / size - 0.5, 0.0, double(w - 1));
      const uint32_t x0 = uint32_t(fx), x1 = std::min(w - 1, x0 + 1);
      const double tx = fx - x0;
      for (int c = 0; c < 4; ++c) {
        auto at = [&](uint32_t px, uint32_t py) {
          return double(src[(size_t(py) * w + px) * 4 + c]);
        };
        const double top = at(x0, y0) * (1 - tx) + at(x1, y0) * tx;
        const double bottom = at(x0, y1) * (1 - tx) + at(x1, y1) * tx;
        out[(size_t(y) * size + x) * 4 + c] = uint8_t(std::lround(top * (1 - ty) + bottom * ty));
      }
    }
  }
}

}  // namespace

PackedTextures packTextures(const world::TextureLibrary& library,
                            const TextureArrayLimits& limits) {
  PackedTextures packed;
  const auto& images = library.images();
  packed.layers = uint32_t(std::min<uint64_t>(images.size() + 1, std::max(1u, limits.maxLayers)));
  uint32_t largest = 1;
  for (uint32_t i = 0; i + 1 < packed.layers; ++i) {
    largest = std::max({largest, images[i].width, images[i].height});
  }
  const uint32_t cap = std::max(1u, limits.maxLayerSize);
  packed.layerSize = std::min(roundUpToPowerOfTwo(largest), roundDownToPowerOfTwo(cap));
  while (packed.layerSize > 1 &&
         arrayBytes(packed.layerSize, packed.layers) > limits.maxTotalBytes) {
    packed.layerSize /= 2;
  }
  packed.mipLevels = mipCount(packed.layerSize);
  packed.bytes.resize(arrayBytes(packed.layerSize, packed.layers));

  // Mip 0: white, then each image.
  const size_t layerBytes = size_t(packed.layerSize) * packed.layerSize * 4;
  std::memset(packed.bytes.data(), 0xff, layerBytes);
  for (uint32_t layer = 1; layer < packed.layers; ++layer) {
    resampleInto(images[layer - 1], packed.layerSize, packed.bytes.data() + layer * layerBytes);
  }
  // The other levels, each from the one above.
  packed.mipOffsets.push_back(0);
  uint64_t offset = 0;
  for (uint32_t level = 1, size = packed.layerSize; level < packed.mipLevels; ++level) {
    const uint64_t above = offset;
    const size_t aboveLayerBytes = size_t(size) * size * 4;
    offset += aboveLayerBytes * packed.layers;
    packed.mipOffsets.push_back(offset);
    for (uint32_t layer = 0; layer < packed.layers; ++layer) {
      Rgba8 half = halve(packed.bytes.data() + above + layer * aboveLayerBytes, size, size);
      std::memcpy(packed.bytes.data() + offset + layer * half.pixels.size(), half.pixels.data(),
                  half.pixels.size());
    }
    size /= 2;
  }
  return packed;
}

void TextureArray::create(const vkutil::Context& ctx, VkCommandPool pool) {
  m_layout = vkutil::createSetLayout(ctx.device, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
  m_pool = vkutil::createDescriptorPool(ctx.device, 1, 1);
  m_set = vkutil::allocateSet(ctx.device, m_pool, m_layout);
  vkutil::SamplerDesc sampler;
  sampler.address = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sampler.mipmaps = true;
  m_sampler = vkutil::createSampler(ctx.device, sampler);

  uploadPacked(ctx, pool, packTextures(world::TextureLibrary{}, {}));
  m_revision = 0;
}

void TextureArray::destroy(const vkutil::Context& ctx) {
  vkutil::destroyImage(ctx, m_image);
  if (m_sampler) vkDestroySampler(ctx.device, m_sampler, nullptr);
  if (m_pool) vkDestroyDescriptorPool(ctx.device, m_pool, nullptr);
  if (m_layout) vkDestroyDescriptorSetLayout(ctx.device, m_layout, nullptr);
  m_sampler = VK_NULL_HANDLE;
  m_pool = VK_NULL_HANDLE;
  m_layout = VK_NULL_HANDLE;
  m_set = VK_NULL_HANDLE;
}

void TextureArray::upload(const vkutil::Context& ctx, VkCommandPool pool,
                          const world::TextureLibrary& library) {
  TextureArrayLimits limits;
  limits.maxLayers = std::min(limits.maxLayers, ctx.properties.limits.maxImageArrayLayers);
  limits.maxLayerSize = std::min(limits.maxLayerSize, ctx.properties.limits.maxImageDimension2D);
  uploadPacked(ctx, pool, packTextures(library, limits));
  m_revision = library.revision();
}

void TextureArray::uploadPacked(const vkutil::Context& ctx, VkCommandPool pool,
                                const PackedTextures& packed) {
  vkutil::destroyImage(ctx, m_image);
  m_image =
      vkutil::createImage2D(ctx, FORMAT, {packed.layerSize, packed.layerSize},
                            VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            VK_IMAGE_ASPECT_COLOR_BIT, {packed.mipLevels, packed.layers, true});
  vkutil::Buffer staging =
      vkutil::createHostBuffer(ctx, packed.bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  std::memcpy(staging.mapped, packed.bytes.data(), packed.bytes.size());
  std::vector<VkBufferImageCopy> regions;
  for (uint32_t level = 0; level < packed.mipLevels; ++level) {
    const uint32_t size = std::max(1u, packed.layerSize >> level);
    VkBufferImageCopy region{};
    region.bufferOffset = packed.mipOffsets[level];
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, packed.layers};
    region.imageExtent = {size, size, 1};
    regions.push_back(region);
  }
  vkutil::submitNow(ctx, pool, [&](VkCommandBuffer cmd) {
    vkutil::transitionImage(cmd, m_image.image, VK_IMAGE_ASPECT_COLOR_BIT,
                            VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                            VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdCopyBufferToImage(cmd, staging.buffer, m_image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           uint32_t(regions.size()), regions.data());
    vkutil::transitionImage(cmd, m_image.image, VK_IMAGE_ASPECT_COLOR_BIT,
                            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                            VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                            VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  });
  vkutil::destroyBuffer(ctx, staging);

  vkutil::writeImage(ctx.device, m_set, 0, m_sampler, m_image.view);
}

}  // namespace renderer
