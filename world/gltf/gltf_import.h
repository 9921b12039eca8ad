// glTF 2.0 import (tinygltf underneath) into plain structs: meshes, materials, decoded images and
// flattened node instances. No Vulkan. Every file is untrusted: it is refused, or sanitized with
// a warning, with a message naming the file and the place ("file:line (/json/pointer): why").
// Units: glTF positions are metres, Y up (glTF 2.0 spec, section 3.4); kept as they are.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/result.h"
#include "world/scene/render_list.h"

namespace world {

/// Caps applied before any allocation an untrusted file could size. Together they keep one import
/// under about 1.3 GB at its peak: buffers are read and then copied by tinygltf (2 x 256 MiB),
/// images exist three times while decoded (stb, tinygltf, ours: 3 x 256 MiB at most), and the
/// meshes built from them are at most 4 Mi vertices of 36 bytes and 4 Mi triangles.
struct GltfLimits {
  uint64_t maxFileBytes = 256ull << 20;           // the .gltf/.glb, each .bin and image: 256 MiB
  uint64_t maxBufferBytes = 256ull << 20;         // one buffer's byteLength: 256 MiB
  uint64_t maxTotalBufferBytes = 256ull << 20;    // all buffers together: 256 MiB
  uint64_t maxAccessorCount = 1ull << 24;         // elements in one accessor
  uint64_t maxTotalAccessorBytes = 256ull << 20;  // bytes all accessors read together: 256 MiB
  uint32_t maxImageDimension = 8192;              // width and height, pixels
  uint64_t maxTotalTexels = 1ull << 26;      // pixels of all images together: 64 Mi (one 8192^2)
  uint64_t maxTotalImageBytes = 1ull << 30;  // decoded images together (16-bit worst case): 1 GiB
  uint32_t maxNodeDepth = 64;                // levels below a scene root
  uint32_t maxNodes = 1u << 16;
  uint64_t maxInstances = 1u << 18;       // node x primitive pairs after flattening
  uint64_t maxTotalTriangles = 1u << 22;  // over all imported meshes (about 4 M)
  uint64_t maxTotalVertices = 1u << 22;   // over all imported meshes (about 4 M)
};

/// glTF 2.0 spec, section 3.9.4.
enum class AlphaMode : uint8_t { Opaque, Mask, Blend };

/// Sampler wrap mode of one texture axis (glTF 2.0 spec, 5.26: wrapS / wrapT).
enum class WrapMode : uint8_t { Repeat = 0, ClampToEdge = 1, MirroredRepeat = 2 };

/// KHR_texture_transform on a textureInfo: uv' = T(offset) * R(rotation) * S(scale) * uv.
/// R turns the uvs counter-clockwise (u' = cos*u + sin*v, v' = -sin*u + cos*v, v pointing down
/// the image), the sign the extension's example and the TextureTransformTest sample agree on.
struct UvTransform {
  float offset[2] = {0, 0};
  float rotation_rad = 0;
  float scale[2] = {1, 1};
  bool identity() const {
    return offset[0] == 0 && offset[1] == 0 && rotation_rad == 0 && scale[0] == 1 && scale[1] == 1;
  }
  /// The transformed uv of (u, v).
  void apply(float u, float v, float out[2]) const;
};

/// PBR metallic-roughness factors and the base colour image (glTF 2.0 spec, section 3.9.2),
/// alpha mode and sidedness (3.9.4, 3.9.5).
struct ImportedMaterial {
  std::string name;
  float baseColorFactor[4] = {1, 1, 1, 1};  // linear RGBA
  float metallicFactor = 1;
  float roughnessFactor = 1;
  int32_t baseColorImage = -1;     // index into ImportedModel::images; -1 when untextured
  uint32_t baseColorTexCoord = 0;  // TEXCOORD_n it reads (KHR_texture_transform's override applied)
  UvTransform baseColorUvTransform;   // already baked into the vertex uvs of its meshes
  WrapMode wrapS = WrapMode::Repeat;  // the base colour texture's sampler, along u
  WrapMode wrapT = WrapMode::Repeat;  // along v
  AlphaMode alphaMode = AlphaMode::Opaque;
  float alphaCutoff = 0.5f;  // MASK only
  bool doubleSided = false;
};

/// A decoded image: RGBA8, rows top to bottom, width*height*4 bytes (the renderer's texture
/// image, so a model's images go to the GPU as they are).
using ImportedImage = TextureImage;

/// One triangle primitive of a glTF mesh (strips and fans already turned into lists), with
/// COLOR_0 in the vertex colours and its material's uv set and uv transform applied.
struct ImportedMesh {
  MeshData data;
  int32_t material = -1;    // index into ImportedModel::materials; -1: glTF default material
  uint32_t sourceMesh = 0;  // glTF meshes[sourceMesh].primitives[sourcePrimitive]
  uint32_t sourcePrimitive = 0;
};

/// A mesh placed by the flattened node hierarchy: model space from mesh space.
struct ImportedInstance {
  uint32_t mesh = 0;  // index into ImportedModel::meshes
  double transform[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // column-major
};

/// Axis-aligned box in model space (metres); empty when min > max.
struct Bounds {
  double min_m[3] = {1e300, 1e300, 1e300};
  double max_m[3] = {-1e300, -1e300, -1e300};
  bool empty() const { return min_m[0] > max_m[0]; }
};

struct ImportedModel {
  std::filesystem::path source;
  uint32_t gltfMeshCount = 0;  // meshes in the file (each may hold several primitives)
  std::vector<ImportedMesh> meshes;
  std::vector<ImportedMaterial> materials;
  std::vector<ImportedImage> images;
  std::vector<ImportedInstance> instances;
  Bounds bounds;
  std::vector<std::string> warnings;  // what was dropped or clamped, each naming its place

  /// Triangles over all meshes (each mesh counted once, not per instance).
  uint64_t triangleCount() const;
};

/// Loads a .gltf (with its .bin/images) or .glb. Never throws; refuses what it cannot use safely.
sim::Result<ImportedModel> importGltf(const std::filesystem::path& file,
                                      const GltfLimits& limits = {});

/// Model-space bounds of every instance (each mesh's box transformed by its instance).
Bounds computeBounds(const ImportedModel& model);

/// How fitToSize places the scaled model.
enum class FitAnchor { Center, MinCorner };

struct FitDesc {
  double size_m[3] = {1, 1, 1};  // the real dimensions to fit (e.g. a tray's width, height, depth)
  bool uniform = true;           // keep proportions: the largest scale that fits every axis
  FitAnchor anchor = FitAnchor::Center;  // bounds centred on the origin, or min corner at origin
};

/// What fitToSize applies to every instance: new = translate(offset) * scale(scale) * old.
struct FitTransform {
  std::array<double, 3> scale{1, 1, 1};
  std::array<double, 3> offset_m{0, 0, 0};
};
/// The transform that makes the model's bounds fit `desc.size_m`. Fails on an empty or
/// flat-in-every-axis model or a non-positive size.
sim::Result<FitTransform> fitTransform(const ImportedModel& model, const FitDesc& desc);
/// Scales (and moves) the instances by fitTransform; returns the scale applied along x, y, z.
sim::Result<std::array<double, 3>> fitToSize(ImportedModel& model, const FitDesc& desc);

}  // namespace world
