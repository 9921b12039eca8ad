// The import boundary: reads the file (capped), checks the GLB container and the raw JSON, runs
// tinygltf with a file-system policy and an image loader of our own, then validates and builds.
#include "world/gltf/gltf_import.h"

#include <cctype>
#include <cstring>
#include <fstream>
#include <new>
#include <system_error>

#include "sim/input_file.h"
#include "world/gltf/gltf_internal.h"

namespace world {
namespace {

constexpr uint32_t GLB_MAGIC = 0x46546C67;       // "glTF" (glTF 2.0 spec, 4.4.2)
constexpr uint32_t GLB_CHUNK_JSON = 0x4E4F534A;  // "JSON"
constexpr uint32_t GLB_CHUNK_BIN = 0x004E4942;   // "BIN\0"
constexpr size_t GLB_HEADER_BYTES = 12;
constexpr size_t GLB_CHUNK_HEADER_BYTES = 8;

uint32_t readU32(const std::vector<unsigned char>& bytes, size_t offset) {
  uint32_t v = 0;
  std::memcpy(&v, bytes.data() + offset, 4);  // GLB is little-endian, as is every target here
  return v;
}

/// Reads a whole file after checking its size against `maxBytes`; "" on success, else why not.
std::string readCapped(const std::filesystem::path& path, uint64_t maxBytes,
                       std::vector<unsigned char>* out) {
  if (std::string why = sim::regularFileError(path); !why.empty()) return why;
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return "cannot read: " + ec.message();
  if (size > maxBytes) {
    return "file is " + std::to_string(size) + " bytes, more than the cap of " +
           std::to_string(maxBytes);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot open";
  out->resize(static_cast<size_t>(size));
  if (size > 0 &&
      !in.read(reinterpret_cast<char*>(out->data()), static_cast<std::streamsize>(size)))
    return "read failed";
  return {};
}

/// Splits a GLB into its JSON text; checks the header and chunk layout (glTF 2.0 spec, 4.4).
std::string checkGlb(const std::vector<unsigned char>& bytes, std::string* jsonText) {
  if (bytes.size() < GLB_HEADER_BYTES) return "GLB shorter than its 12-byte header";
  if (readU32(bytes, 0) != GLB_MAGIC) return "GLB magic is not 'glTF'";
  if (uint32_t version = readU32(bytes, 4); version != 2)
    return "GLB container version " + std::to_string(version) + " (only 2 is supported)";
  if (uint64_t length = readU32(bytes, 8); length != bytes.size()) {
    return "GLB header length " + std::to_string(length) + " differs from the file size " +
           std::to_string(bytes.size());
  }
  size_t offset = GLB_HEADER_BYTES;
  int chunkIndex = 0;
  bool haveBin = false;
  while (offset < bytes.size()) {
    const std::string chunk =
        "GLB chunk " + std::to_string(chunkIndex) + " at byte " + std::to_string(offset);
    if (bytes.size() - offset < GLB_CHUNK_HEADER_BYTES) return chunk + ": truncated chunk header";
    const uint64_t length = readU32(bytes, offset);
    const uint32_t type = readU32(bytes, offset + 4);
    if (length > bytes.size() - offset - GLB_CHUNK_HEADER_BYTES)
      return chunk + ": length " + std::to_string(length) + " runs past the end of the file";
    if (length % 4 != 0)
      return chunk + ": length " + std::to_string(length) + " is not 4-byte aligned";
    const size_t data = offset + GLB_CHUNK_HEADER_BYTES;
    if (chunkIndex == 0) {
      if (type != GLB_CHUNK_JSON) return chunk + ": the first chunk must be JSON";
      if (length == 0) return chunk + ": empty JSON chunk";
      jsonText->assign(reinterpret_cast<const char*>(bytes.data() + data), length);
    } else if (type == GLB_CHUNK_JSON) {
      return chunk + ": a second JSON chunk";
    } else if (type == GLB_CHUNK_BIN) {
      if (haveBin || chunkIndex != 1) return chunk + ": BIN must be the one chunk after JSON";
      haveBin = true;
    }  // other chunk types are ignored, as the spec requires
    offset = data + length;
    ++chunkIndex;
  }
  if (chunkIndex == 0) return "GLB has no JSON chunk";
  return {};
}

/// Keeps tinygltf inside the asset's folder: every path is resolved (symlinks included) and
/// must stay under `root`; reads are capped.
struct FsPolicy {
  std::filesystem::path root;  // canonical
  uint64_t maxFileBytes = 0;
  std::string refusal;  // why the last file was refused
};

bool insideRoot(const FsPolicy& policy, const std::string& path, std::filesystem::path* resolved) {
  return sim::insideFolder(policy.root, path, resolved);
}

bool policyFileExists(const std::string& path, void* user) {
  auto* policy = static_cast<FsPolicy*>(user);
  std::filesystem::path resolved;
  std::error_code ec;
  if (insideRoot(*policy, path, &resolved)) return std::filesystem::is_regular_file(resolved, ec);
  if (std::filesystem::exists(path, ec))
    policy->refusal = "'" + path + "' resolves outside the asset's folder";
  return false;
}

std::string policyExpandFilePath(const std::string& path, void*) {
  return path;  // no ~ or environment expansion for untrusted names
}

bool policyReadWholeFile(std::vector<unsigned char>* out, std::string* err, const std::string& path,
                         void* user) {
  auto* policy = static_cast<FsPolicy*>(user);
  std::filesystem::path resolved;
  if (!insideRoot(*policy, path, &resolved)) {
    policy->refusal = "'" + path + "' resolves outside the asset's folder";
    if (err) *err += policy->refusal;
    return false;
  }
  std::string why = readCapped(resolved, policy->maxFileBytes, out);
  if (!why.empty()) {
    policy->refusal = "'" + path + "': " + why;
    if (err) *err += policy->refusal;
    return false;
  }
  return true;
}

bool policyWriteWholeFile(std::string* err, const std::string&, const std::vector<unsigned char>&,
                          void*) {
  if (err) *err += "writing is not allowed";
  return false;
}

/// Image decoding with the dimensions checked from the PNG/JPEG header first.
struct ImagePolicy {
  const GltfLimits* limits = nullptr;
  const tinygltf::Model* model = nullptr;  // being parsed: its buffers and views come first
  uint64_t decodedBytes = 0;
  uint64_t texels = 0;
  int refusedImage = -1;
  std::string refusal;
};

uint32_t be16(const unsigned char* p) {
  return (uint32_t(p[0]) << 8) | p[1];
}
uint32_t be32(const unsigned char* p) {
  return (be16(p) << 16) | be16(p + 2);
}

/// Width and height from a PNG IHDR or a JPEG SOF segment; "" on success, else why not.
std::string imageHeaderSize(const unsigned char* bytes, size_t size, uint32_t* width,
                            uint32_t* height) {
  static const unsigned char PNG_SIGNATURE[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (size >= 8 && std::memcmp(bytes, PNG_SIGNATURE, 8) == 0) {
    if (size < 24 || std::memcmp(bytes + 12, "IHDR", 4) != 0) return "PNG without an IHDR chunk";
    *width = be32(bytes + 16);
    *height = be32(bytes + 20);
    return {};
  }
  if (size >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8) {
    size_t pos = 2;
    while (pos + 4 <= size) {
      if (bytes[pos] != 0xFF) return "JPEG segment without a marker";
      const unsigned char marker = bytes[pos + 1];
      if (marker == 0xFF) {  // fill byte
        ++pos;
        continue;
      }
      if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) {  // no length field
        pos += 2;
        continue;
      }
      if (marker == 0xD9 || marker == 0xDA) break;  // end of image / start of scan before SOF
      const uint32_t length = be16(bytes + pos + 2);
      const bool sof =
          marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
      if (sof) {
        if (pos + 9 > size) return "truncated JPEG frame header";
        *height = be16(bytes + pos + 5);
        *width = be16(bytes + pos + 7);
        return {};
      }
      if (length < 2) return "JPEG segment length below 2";
      pos += 2 + length;
    }
    return "JPEG without a frame header";
  }
  return "neither PNG nor JPEG (the image formats glTF 2.0 allows)";
}

bool policyLoadImage(tinygltf::Image* image, const int imageIndex, std::string* err,
                     std::string* warn, int, int, const unsigned char* bytes, int size,
                     void* user) {
  auto* policy = static_cast<ImagePolicy*>(user);
  auto refuse = [&](const std::string& why) {
    policy->refusedImage = imageIndex;
    policy->refusal = why;
    if (err) *err += why;
    return false;
  };
  if (bytes == nullptr || size <= 0) return refuse("empty image data");
  // tinygltf hands an image in a bufferView over as &buffer.data[byteOffset] with byteLength,
  // unchecked against the buffer: check them here, before anything reads the bytes.
  if (image->bufferView >= 0 && policy->model) {
    const tinygltf::Model& model = *policy->model;
    if (size_t(image->bufferView) >= model.bufferViews.size())
      return refuse("bufferView " + std::to_string(image->bufferView) + " does not exist");
    const tinygltf::BufferView& view = model.bufferViews[size_t(image->bufferView)];
    if (view.buffer < 0 || size_t(view.buffer) >= model.buffers.size())
      return refuse("its bufferView's buffer " + std::to_string(view.buffer) + " does not exist");
    const size_t have = model.buffers[size_t(view.buffer)].data.size();
    if (view.byteOffset > have || view.byteLength > have - view.byteOffset) {
      return refuse("bufferView " + std::to_string(image->bufferView) + " (bytes " +
                    std::to_string(view.byteOffset) + " + " + std::to_string(view.byteLength) +
                    ") runs past the end of its " + std::to_string(have) + "-byte buffer");
    }
  }
  uint32_t width = 0, height = 0;
  if (std::string why = imageHeaderSize(bytes, static_cast<size_t>(size), &width, &height);
      !why.empty())
    return refuse(why);
  const uint32_t cap = policy->limits->maxImageDimension;
  if (width == 0 || height == 0 || width > cap || height > cap) {
    return refuse("image is " + std::to_string(width) + "x" + std::to_string(height) +
                  " pixels; each side must be 1.." + std::to_string(cap));
  }
  const uint64_t texels = uint64_t(width) * height;
  if (policy->texels + texels > policy->limits->maxTotalTexels)
    return refuse("images would hold " + std::to_string(policy->texels + texels) +
                  " pixels together, more than the cap of " +
                  std::to_string(policy->limits->maxTotalTexels) + " (" + std::to_string(width) +
                  "x" + std::to_string(height) + " here)");
  policy->texels += texels;
  const uint64_t decoded = texels * 4 * 2;  // worst case: 16 bits per channel
  if (policy->decodedBytes + decoded > policy->limits->maxTotalImageBytes)
    return refuse("decoded images would exceed " +
                  std::to_string(policy->limits->maxTotalImageBytes) + " bytes");
  policy->decodedBytes += decoded;
  if (!tinygltf::LoadImageData(image, imageIndex, err, warn, 0, 0, bytes, size, nullptr))
    return refuse("cannot decode the image data");
  if (uint32_t(image->width) != width || uint32_t(image->height) != height)
    return refuse("decoded size differs from the header's");
  return true;
}

}  // namespace

uint64_t ImportedModel::triangleCount() const {
  uint64_t total = 0;
  for (const ImportedMesh& mesh : meshes) total += mesh.data.triangleCount();
  return total;
}

sim::Result<ImportedModel> importGltf(const std::filesystem::path& file, const GltfLimits& limits) {
  using R = sim::Result<ImportedModel>;
  const std::string name = file.string();
  try {
    std::vector<unsigned char> bytes;
    if (std::string why = readCapped(file, limits.maxFileBytes, &bytes); !why.empty())
      return R::failure(name + ": " + why);
    if (bytes.empty()) return R::failure(name + ": empty file");

    const bool isGlb = bytes.size() >= 4 && readU32(bytes, 0) == GLB_MAGIC;
    std::string extension = file.extension().string();
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (extension == ".glb" && !isGlb) return R::failure(name + ": not a GLB (no 'glTF' magic)");
    std::string jsonText;
    if (isGlb) {
      if (std::string why = checkGlb(bytes, &jsonText); !why.empty())
        return R::failure(name + ": " + why);
    } else {
      jsonText.assign(bytes.begin(), bytes.end());
    }
    if (jsonText.size() >= 3 && jsonText.compare(0, 3, "\xEF\xBB\xBF") == 0)
      return R::failure(name +
                        ": JSON starts with a byte-order mark (glTF 2.0 spec, 3.2 forbids it)");

    sim::Result<sim::JsonFile> json = sim::parseJsonText(jsonText, file);
    if (!json) return R::failure(json.error());
    gltf::Context ctx{*json, limits};
    ctx.glb = isGlb;
    if (!gltf::checkJson(ctx)) return R::failure(ctx.error);

    std::error_code ec;
    FsPolicy fsPolicy;
    fsPolicy.root = std::filesystem::canonical(std::filesystem::absolute(file).parent_path(), ec);
    if (ec) return R::failure(name + ": cannot resolve its folder: " + ec.message());
    fsPolicy.maxFileBytes = limits.maxFileBytes;
    tinygltf::Model model;
    ImagePolicy imagePolicy;
    imagePolicy.limits = &limits;
    imagePolicy.model = &model;

    tinygltf::TinyGLTF loader;
    loader.SetFsCallbacks({&policyFileExists, &policyExpandFilePath, &policyReadWholeFile,
                           &policyWriteWholeFile, &fsPolicy});
    loader.SetImageLoader(&policyLoadImage, &imagePolicy);
    std::string err, warn;
    const std::string baseDir = fsPolicy.root.string();
    const bool loaded =
        isGlb ? loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(),
                                            static_cast<unsigned int>(bytes.size()), baseDir)
              : loader.LoadASCIIFromString(&model, &err, &warn, jsonText.data(),
                                           static_cast<unsigned int>(jsonText.size()), baseDir);
    if (!loaded) {
      if (imagePolicy.refusedImage >= 0)
        return R::failure(ctx.at("/images/" + std::to_string(imagePolicy.refusedImage)) + ": " +
                          imagePolicy.refusal);
      if (!fsPolicy.refusal.empty()) return R::failure(name + ": " + fsPolicy.refusal);
      while (!err.empty() && err.back() == '\n') err.pop_back();
      for (size_t nl = err.find('\n'); nl != std::string::npos; nl = err.find('\n', nl))
        err.replace(nl, 1, "; ");
      return R::failure(name + ": " + (err.empty() ? "tinygltf refused the file" : err));
    }
    if (!gltf::validateModel(model, ctx)) {
      if (!fsPolicy.refusal.empty()) ctx.error += " (" + fsPolicy.refusal + ")";
      return R::failure(ctx.error);
    }
    ImportedModel out;
    out.source = file;
    if (!gltf::buildModel(model, ctx, &out)) return R::failure(ctx.error);
    out.warnings = std::move(ctx.warnings);
    out.bounds = computeBounds(out);
    return out;
  } catch (const std::bad_alloc&) {
    return R::failure(name + ": out of memory while loading (the file asks for too much)");
  } catch (const std::exception& e) {
    return R::failure(name + ": " + e.what());
  } catch (...) {
    return R::failure(name + ": unknown failure inside the glTF loader");
  }
}

}  // namespace world
