// The pipeline cache on disk: written after a run, reused by the next, and ignored safely when
// corrupt, truncated or from another device.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "renderer/vk/pipeline_cache.h"
#include "tests/renderer/fixtures.h"

namespace {

std::filesystem::path scratchFile(const char* name) {
  auto dir = std::filesystem::path(DCWALK_BINARY_DIR) / "pipeline-cache-test";
  std::filesystem::create_directories(dir);
  auto file = dir / name;
  std::filesystem::remove(file);
  return file;
}

std::unique_ptr<renderer::Renderer> makeWithCache(const std::filesystem::path& file) {
  renderer::RendererDesc desc;
  desc.validation = true;
  desc.ui = false;
  desc.pipelineCacheFile = file;
  // The app saves through its atomic writer (app/platform); the renderer only hands the bytes.
  desc.saveFile = [](const std::filesystem::path& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return bool(out.flush());
  };
  std::string error;
  auto r = renderer::Renderer::create(desc, error);
  EXPECT_TRUE(r) << error;
  return r;
}

}  // namespace

TEST(PipelineCache, WrittenOnExitAndAcceptedNextTime) {
  const auto file = scratchFile("good.bin");
  const uint32_t before = vkutil::validationErrorCount();
  { auto r = makeWithCache(file); }
  ASSERT_TRUE(std::filesystem::exists(file));
  std::ifstream in(file, std::ios::binary);
  std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto r = makeWithCache(file);
  ASSERT_TRUE(r);
  EXPECT_TRUE(vkutil::pipelineCacheMatchesDevice(r->context(), data));
  EXPECT_EQ(vkutil::validationErrorCount(), before);
}

TEST(PipelineCache, CorruptTruncatedOrForeignFilesAreIgnored) {
  const auto file = scratchFile("bad.bin");
  { auto r = makeWithCache(file); }
  std::ifstream in(file, std::ios::binary);
  std::vector<char> good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // lavapipe's cache holds the header only; a GPU driver's holds pipelines after it.
  ASSERT_GE(good.size(), sizeof(VkPipelineCacheHeaderVersionOne));

  std::vector<std::vector<char>> bad;
  bad.push_back(std::vector<char>(good.begin(), good.begin() + 10));  // truncated header
  auto foreign = good;
  foreign[8] ^= 0x5a;  // vendorID changed
  bad.push_back(foreign);
  auto oversized = good;
  oversized[0] = char(0x7f);  // headerSize claims more bytes than the file holds
  oversized[1] = char(0x7f);
  bad.push_back(oversized);
  auto garbage = good;
  garbage.resize(good.size() + 4096);
  for (size_t i = good.size(); i < garbage.size(); ++i) garbage[i] = char(i * 31);
  bad.push_back(garbage);  // valid header, a body of noise: the driver must cope or we start empty
  bad.push_back(std::vector<char>(4096, '\xff'));

  const uint32_t before = vkutil::validationErrorCount();
  for (size_t i = 0; i < bad.size(); ++i) {
    {
      std::ofstream out(file, std::ios::binary | std::ios::trunc);
      out.write(bad[i].data(), std::streamsize(bad[i].size()));
    }
    auto r = makeWithCache(file);
    ASSERT_TRUE(r) << "case " << i;
    if (i != 3) {
      EXPECT_FALSE(vkutil::pipelineCacheMatchesDevice(r->context(), bad[i])) << i;
    }
    world::MeshLibrary library = fixtures::boxLibrary();
    r->setMeshes(library);
    world::RenderList list;
    fixtures::addBatch(list, {fixtures::box(0, 0, -3, 1, 1, 1, 1, 1, 1)});
    renderer::Pixels p = r->renderToPixels(list, nullptr, {64, 64});
    EXPECT_EQ(p.rgba.size(), 64u * 64u * 4u);
  }
  EXPECT_EQ(vkutil::validationErrorCount(), before);
}
