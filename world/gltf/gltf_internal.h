// Shared by the glTF import files of world/ only (tinygltf is a PRIVATE dependency of world/):
// the checking context, the raw-JSON checks, the model checks, accessor reading, scene building.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tiny_gltf.h>

#include "sim/json_file.h"
#include "world/gltf/gltf_import.h"

namespace world::gltf {

/// What every check needs: the raw JSON (for "file:line (pointer)"), the caps, and the outcome.
struct Context {
  const sim::JsonFile& json;
  const GltfLimits& limits;
  bool glb = false;                   // a .glb: buffer 0 may omit its uri and use the BIN chunk
  std::string error;                  // first refusal; empty while the file is acceptable
  std::vector<std::string> warnings;  // sanitized parts

  /// "file:line (pointer)" for a JSON pointer such as "/meshes/2/primitives/0/indices".
  std::string at(const std::string& pointer) const;
  /// Records a refusal at `pointer` and returns false (so checks can `return ctx.fail(...)`).
  bool fail(const std::string& pointer, const std::string& why);
  /// Records a warning at `pointer`.
  void warn(const std::string& pointer, const std::string& why);
};

/// An object key as a JSON pointer token ("~" -> "~0", "/" -> "~1", RFC 6901).
inline std::string pointerToken(const std::string& key) {
  std::string out;
  for (char c : key)
    out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return out;
}

/// Structure the model checks rely on, read from the raw JSON before tinygltf sees it: version,
/// collection types, required properties, extensions, URIs (no scheme but data:, no absolute or
/// `..` paths) and declared sizes against the caps.
bool checkJson(Context& ctx);

/// A reference `index` into a collection of `size` items (-1 = absent, allowed unless required):
/// "unresolved reference to accessors[5] (there are 2)" at `pointer` when it does not resolve.
bool ref(Context& ctx, int64_t index, size_t size, const std::string& pointer,
         const char* collection, bool required = false);

/// The KHR_texture_transform of the textureInfo at `pointer` in the raw JSON, if any: fills
/// `transform` and, when the extension overrides it, `texCoord`. Refuses a malformed one.
bool readTextureTransform(Context& ctx, const std::string& pointer, UvTransform* transform,
                          int* texCoord);

/// Every reference, byte range, format and value the importer will use, on tinygltf's model.
bool validateModel(const tinygltf::Model& model, Context& ctx);

/// Components per element of a TINYGLTF_TYPE_* (0 when unknown).
uint32_t componentCount(int type);
/// Bytes per component of a TINYGLTF_COMPONENT_TYPE_* valid in glTF 2.0 (0 when unknown).
uint32_t componentBytes(int componentType);
/// Bytes of one element, with the column padding matrices get (glTF 2.0 spec, 3.6.2.4).
uint32_t elementBytes(int type, int componentType);

/// Accessor elements as floats (count * components), sparse applied, normalized ints mapped
/// to [0,1] / [-1,1]. Only for accessors validateModel accepted.
std::vector<float> readFloats(const tinygltf::Model& model, int accessorIndex);
/// True when a component is NaN or infinite; sets the first such element and component.
bool findNonFinite(const tinygltf::Model& model, int accessorIndex, size_t* element,
                   uint32_t* component);
/// Accessor elements as uint32 (SCALAR unsigned accessors), sparse applied.
std::vector<uint32_t> readIndices(const tinygltf::Model& model, int accessorIndex);

/// Meshes, materials, images and flattened instances of a validated model.
bool buildModel(const tinygltf::Model& model, Context& ctx, ImportedModel* out);

}  // namespace world::gltf
