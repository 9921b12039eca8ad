// Checks on tinygltf's model (it accepts dangling indices, out-of-range byte ranges, wrong formats
// and node cycles): every reference resolves, every byte range lies inside its buffer, every value
// the importer reads is finite and every index is in range (glTF 2.0 spec, sections 3.5-3.11).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "world/gltf/gltf_internal.h"

namespace world::gltf {
namespace {

std::string str(int64_t i) {
  return std::to_string(i);
}

}  // namespace

bool ref(Context& ctx, int64_t index, size_t size, const std::string& pointer,
         const char* collection, bool required) {
  if (index == -1 && !required) return true;
  if (index < 0 || size_t(index) >= size) {
    return ctx.fail(pointer, "unresolved reference to " + std::string(collection) + "[" +
                                 str(index) + "] (there are " + str(int64_t(size)) + ")");
  }
  return true;
}

namespace {

bool isTriangleMode(int mode) {
  return mode == TINYGLTF_MODE_TRIANGLES || mode == TINYGLTF_MODE_TRIANGLE_STRIP ||
         mode == TINYGLTF_MODE_TRIANGLE_FAN;
}

/// Usable bytes of each buffer: its declared byteLength, which the data must hold.
bool validateBuffers(const tinygltf::Model& model, Context& ctx, std::vector<uint64_t>* bytes) {
  const nlohmann::json& buffers = ctx.json.root.value("buffers", nlohmann::json::array());
  for (size_t i = 0; i < model.buffers.size(); ++i) {
    const uint64_t declared = i < buffers.size() ? buffers[i].value("byteLength", uint64_t(0)) : 0;
    if (model.buffers[i].data.size() < declared) {
      return ctx.fail("/buffers/" + str(int64_t(i)),
                      "holds " + str(int64_t(model.buffers[i].data.size())) +
                          " bytes, byteLength declares " + str(int64_t(declared)));
    }
    bytes->push_back(declared);
  }
  return true;
}

bool validateBufferViews(const tinygltf::Model& model, Context& ctx,
                         const std::vector<uint64_t>& bufferBytes) {
  for (size_t i = 0; i < model.bufferViews.size(); ++i) {
    const tinygltf::BufferView& view = model.bufferViews[i];
    const std::string at = "/bufferViews/" + str(int64_t(i));
    if (!ref(ctx, view.buffer, model.buffers.size(), at + "/buffer", "buffers", true)) return false;
    const uint64_t size = bufferBytes[size_t(view.buffer)];
    if (view.byteLength == 0) return ctx.fail(at + "/byteLength", "must be at least 1");
    if (view.byteOffset > size || view.byteLength > size - view.byteOffset) {
      return ctx.fail(at, "bytes [" + str(int64_t(view.byteOffset)) + ", " +
                              str(int64_t(view.byteOffset + view.byteLength)) +
                              ") run past the end of buffer " + str(view.buffer) + " (" +
                              str(int64_t(size)) + " bytes)");
    }
    if (view.byteStride != 0 &&
        (view.byteStride < 4 || view.byteStride > 252 || view.byteStride % 4))
      return ctx.fail(at + "/byteStride", "must be a multiple of 4 in [4, 252]");
    if (view.target != 0 && view.target != TINYGLTF_TARGET_ARRAY_BUFFER &&
        view.target != TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER)
      return ctx.fail(at + "/target", "unknown target " + str(view.target));
    if (view.target == TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER && view.byteStride != 0)
      return ctx.fail(at + "/byteStride", "an index bufferView must not have a byteStride");
  }
  return true;
}

/// Bytes [offset, offset + (count-1)*stride + element) must lie inside the buffer view.
bool checkRange(Context& ctx, const std::string& at, uint64_t offset, uint64_t count,
                uint64_t stride, uint64_t element, const tinygltf::BufferView& view,
                int viewIndex) {
  if (offset > view.byteLength)
    return ctx.fail(at, "byteOffset " + str(int64_t(offset)) + " lies past bufferView " +
                            str(viewIndex) + " (" + str(int64_t(view.byteLength)) + " bytes)");
  // offset <= byteLength <= a capped buffer, count <= 2^24, stride <= 252: no overflow.
  const uint64_t end = offset + (count - 1) * stride + element;
  if (end > view.byteLength) {
    return ctx.fail(at, "bytes [" + str(int64_t(offset)) + ", " + str(int64_t(end)) +
                            ") do not fit bufferView " + str(viewIndex) + " (" +
                            str(int64_t(view.byteLength)) + " bytes)");
  }
  return true;
}

bool validateSparse(const tinygltf::Model& model, Context& ctx, const tinygltf::Accessor& accessor,
                    const std::string& at) {
  const auto& sparse = accessor.sparse;
  if (sparse.count < 1 || uint64_t(sparse.count) > accessor.count)
    return ctx.fail(at + "/sparse/count", "overrides " + str(sparse.count) + " elements of " +
                                              str(int64_t(accessor.count)));
  const std::string indicesAt = at + "/sparse/indices";
  if (!ref(ctx, sparse.indices.bufferView, model.bufferViews.size(), indicesAt + "/bufferView",
           "bufferViews", true) ||
      !ref(ctx, sparse.values.bufferView, model.bufferViews.size(),
           at + "/sparse/values/bufferView", "bufferViews", true))
    return false;
  const int type = sparse.indices.componentType;
  if (type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
      type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
      type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
    return ctx.fail(indicesAt + "/componentType", "must be an unsigned integer type");
  if (sparse.indices.byteOffset < 0 || sparse.values.byteOffset < 0)
    return ctx.fail(at + "/sparse", "negative byteOffset");
  const tinygltf::BufferView& indexView = model.bufferViews[size_t(sparse.indices.bufferView)];
  const tinygltf::BufferView& valueView = model.bufferViews[size_t(sparse.values.bufferView)];
  if (indexView.byteStride != 0 || valueView.byteStride != 0)
    return ctx.fail(at + "/sparse",
                    "sparse indices and values must be tightly packed (no byteStride)");
  const uint32_t indexBytes = componentBytes(type);
  const uint32_t element = elementBytes(accessor.type, accessor.componentType);
  if (!checkRange(ctx, indicesAt, uint64_t(sparse.indices.byteOffset), uint64_t(sparse.count),
                  indexBytes, indexBytes, indexView, sparse.indices.bufferView) ||
      !checkRange(ctx, at + "/sparse/values", uint64_t(sparse.values.byteOffset),
                  uint64_t(sparse.count), element, element, valueView, sparse.values.bufferView))
    return false;
  // Indices must be strictly increasing and inside the accessor (glTF 2.0 spec, 3.6.2.3).
  const unsigned char* base = model.buffers[size_t(indexView.buffer)].data.data() +
                              indexView.byteOffset + size_t(sparse.indices.byteOffset);
  int64_t previous = -1;
  for (int s = 0; s < sparse.count; ++s) {
    uint32_t value = 0;
    if (indexBytes == 1) value = base[s];
    if (indexBytes == 2) value = uint32_t(base[2 * s]) | (uint32_t(base[2 * s + 1]) << 8);
    if (indexBytes == 4) std::memcpy(&value, base + 4 * size_t(s), 4);
    if (value >= accessor.count || int64_t(value) <= previous) {
      return ctx.fail(indicesAt, "sparse index " + str(value) + " at " + str(s) +
                                     " is out of range or not increasing (accessor count " +
                                     str(int64_t(accessor.count)) + ")");
    }
    previous = value;
  }
  return true;
}

bool validateAccessors(const tinygltf::Model& model, Context& ctx) {
  uint64_t totalBytes = 0;  // many accessors over one buffer must not make the scan unbounded
  for (size_t i = 0; i < model.accessors.size(); ++i) {
    const tinygltf::Accessor& accessor = model.accessors[i];
    const std::string at = "/accessors/" + str(int64_t(i));
    const uint32_t bytes = componentBytes(accessor.componentType);
    if (bytes == 0) return ctx.fail(at + "/componentType", "not a glTF 2.0 component type");
    if (componentCount(accessor.type) == 0) return ctx.fail(at + "/type", "unknown accessor type");
    if (accessor.count < 1 || accessor.count > ctx.limits.maxAccessorCount)
      return ctx.fail(at + "/count", "must be 1.." + str(int64_t(ctx.limits.maxAccessorCount)));
    if (accessor.normalized && (accessor.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT ||
                                accessor.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT))
      return ctx.fail(at + "/normalized", "only 8- and 16-bit integers can be normalized");
    if (!ref(ctx, accessor.bufferView, model.bufferViews.size(), at + "/bufferView", "bufferViews"))
      return false;
    if (accessor.bufferView >= 0 || accessor.sparse.isSparse) {
      totalBytes += uint64_t(accessor.count) * elementBytes(accessor.type, accessor.componentType);
      if (totalBytes > ctx.limits.maxTotalAccessorBytes)
        return ctx.fail(at, "accessors together read more than the cap of " +
                                str(int64_t(ctx.limits.maxTotalAccessorBytes)) + " bytes");
    }
    if (accessor.bufferView >= 0) {
      const tinygltf::BufferView& view = model.bufferViews[size_t(accessor.bufferView)];
      const uint32_t element = elementBytes(accessor.type, accessor.componentType);
      if (view.byteStride != 0 && view.byteStride < element)
        return ctx.fail(at, "element of " + str(element) + " bytes is larger than bufferView " +
                                str(accessor.bufferView) + "'s byteStride " +
                                str(int64_t(view.byteStride)));
      if (accessor.byteOffset % bytes || (view.byteOffset + accessor.byteOffset) % bytes)
        return ctx.fail(at + "/byteOffset", "not a multiple of the component size " + str(bytes));
      const uint64_t stride = view.byteStride ? view.byteStride : element;
      if (!checkRange(ctx, at, accessor.byteOffset, accessor.count, stride, element, view,
                      accessor.bufferView))
        return false;
    }
    if (accessor.sparse.isSparse && !validateSparse(model, ctx, accessor, at)) return false;
    size_t element = 0;
    uint32_t component = 0;
    if (accessor.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT &&
        findNonFinite(model, int(i), &element, &component))
      return ctx.fail(at, "element " + str(int64_t(element)) + " component " + str(component) +
                              " is NaN or infinite");
  }
  return true;
}

/// What an index accessor holds, computed once per accessor.
struct IndexSummary {
  bool known = false;
  uint32_t max = 0;
  int64_t restartAt = -1;  // first position of the primitive-restart value, -1 when absent
};

/// Why a vertex attribute's accessor has the wrong format for its semantic (glTF 2.0 spec,
/// 3.7.2.1), or nullptr when it is fine. Application-specific "_NAME" attributes only may not
/// use UNSIGNED_INT, like every other attribute.
const char* attributeFormatError(const std::string& semantic, const tinygltf::Accessor& accessor) {
  const int c = accessor.componentType;
  const bool isFloat = c == TINYGLTF_COMPONENT_TYPE_FLOAT;
  const bool unorm = accessor.normalized && (c == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE ||
                                             c == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
  const auto starts = [&](const char* prefix) { return semantic.rfind(prefix, 0) == 0; };
  if (c == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT) return "vertex attributes cannot be UNSIGNED_INT";
  if (semantic == "POSITION" || semantic == "NORMAL") {
    if (accessor.type != TINYGLTF_TYPE_VEC3 || !isFloat) return "must be VEC3 of FLOAT";
  } else if (semantic == "TANGENT") {
    if (accessor.type != TINYGLTF_TYPE_VEC4 || !isFloat) return "must be VEC4 of FLOAT";
  } else if (starts("TEXCOORD_")) {
    if (accessor.type != TINYGLTF_TYPE_VEC2 || !(isFloat || unorm))
      return "must be VEC2 of FLOAT or normalized UNSIGNED_BYTE/SHORT";
  } else if (starts("COLOR_")) {
    if ((accessor.type != TINYGLTF_TYPE_VEC3 && accessor.type != TINYGLTF_TYPE_VEC4) ||
        !(isFloat || unorm))
      return "must be VEC3/VEC4 of FLOAT or normalized UNSIGNED_BYTE/SHORT";
  } else if (starts("JOINTS_")) {
    if (accessor.type != TINYGLTF_TYPE_VEC4 || accessor.normalized ||
        (c != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && c != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT))
      return "must be VEC4 of UNSIGNED_BYTE/SHORT";
  } else if (starts("WEIGHTS_")) {
    if (accessor.type != TINYGLTF_TYPE_VEC4 || !(isFloat || unorm))
      return "must be VEC4 of FLOAT or normalized UNSIGNED_BYTE/SHORT";
  }
  return nullptr;
}

bool validatePrimitive(const tinygltf::Model& model, Context& ctx,
                       const tinygltf::Primitive& primitive, const std::string& at,
                       std::vector<IndexSummary>* indexSummaries) {
  if (primitive.mode < 0 || primitive.mode > TINYGLTF_MODE_TRIANGLE_FAN)
    return ctx.fail(at + "/mode", "unknown primitive mode " + str(primitive.mode));
  if (!ref(ctx, primitive.material, model.materials.size(), at + "/material", "materials"))
    return false;
  for (const auto& [semantic, index] : primitive.attributes) {
    if (!ref(ctx, index, model.accessors.size(), at + "/attributes/" + pointerToken(semantic),
             "accessors", true))
      return false;
  }
  for (size_t t = 0; t < primitive.targets.size(); ++t) {
    for (const auto& [semantic, index] : primitive.targets[t]) {
      if (!ref(ctx, index, model.accessors.size(),
               at + "/targets/" + str(int64_t(t)) + "/" + pointerToken(semantic), "accessors",
               true))
        return false;
    }
  }
  if (!ref(ctx, primitive.indices, model.accessors.size(), at + "/indices", "accessors"))
    return false;
  if (!primitive.targets.empty()) ctx.warn(at + "/targets", "morph targets are ignored");
  auto position = primitive.attributes.find("POSITION");
  if (position == primitive.attributes.end()) {
    ctx.warn(at + "/attributes", "no POSITION: primitive skipped");
    return true;
  }
  const size_t vertexCount = model.accessors[size_t(position->second)].count;
  for (const auto& [semantic, index] : primitive.attributes) {
    const tinygltf::Accessor& accessor = model.accessors[size_t(index)];
    const std::string attributeAt = at + "/attributes/" + pointerToken(semantic);
    if (accessor.count != vertexCount) {
      return ctx.fail(attributeAt, semantic + " has " + str(int64_t(accessor.count)) +
                                       " elements, POSITION has " + str(int64_t(vertexCount)));
    }
    if (const char* why = attributeFormatError(semantic, accessor))
      return ctx.fail(attributeAt, why);
  }
  if (!isTriangleMode(primitive.mode)) {
    ctx.warn(at + "/mode", "points and lines are not drawn: primitive skipped");
    return true;
  }
  if (primitive.indices < 0) return true;
  const tinygltf::Accessor& indices = model.accessors[size_t(primitive.indices)];
  const std::string indicesAt = at + "/indices";
  if (indices.type != TINYGLTF_TYPE_SCALAR ||
      (indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
       indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
       indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT) ||
      indices.normalized)
    return ctx.fail(indicesAt, "indices must be SCALAR UNSIGNED_BYTE/SHORT/INT");
  if (indices.bufferView >= 0 && model.bufferViews[size_t(indices.bufferView)].byteStride != 0)
    return ctx.fail(indicesAt, "the index bufferView must not have a byteStride");
  // Read each index accessor once, however many primitives share it (hostile files repeat them).
  IndexSummary& summary = (*indexSummaries)[size_t(primitive.indices)];
  if (!summary.known) {
    const std::vector<uint32_t> values = readIndices(model, primitive.indices);
    // The largest value of the index type is the primitive-restart value, which glTF forbids.
    const uint32_t restart = indices.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE ? 0xFFu
                             : indices.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT
                                 ? 0xFFFFu
                                 : 0xFFFFFFFFu;
    for (size_t i = 0; i < values.size(); ++i) {
      summary.max = std::max(summary.max, values[i]);
      if (values[i] == restart && summary.restartAt < 0) summary.restartAt = int64_t(i);
    }
    summary.known = true;
  }
  if (summary.max >= vertexCount)
    return ctx.fail(indicesAt,
                    "index " + str(summary.max) + " >= vertex count " + str(int64_t(vertexCount)));
  if (summary.restartAt >= 0)
    return ctx.fail(indicesAt,
                    "index " + str(summary.restartAt) + " is the primitive-restart value");
  return true;
}

/// Each node has at most one parent, no cycles, bounded depth; its transform is finite.
bool validateNodes(const tinygltf::Model& model, Context& ctx) {
  const size_t n = model.nodes.size();
  std::vector<int> parent(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const tinygltf::Node& node = model.nodes[i];
    const std::string at = "/nodes/" + str(int64_t(i));
    if (!ref(ctx, node.mesh, model.meshes.size(), at + "/mesh", "meshes") ||
        !ref(ctx, node.camera, model.cameras.size(), at + "/camera", "cameras") ||
        !ref(ctx, node.skin, model.skins.size(), at + "/skin", "skins"))
      return false;
    for (size_t c = 0; c < node.children.size(); ++c) {
      const int child = node.children[c];
      const std::string childAt = at + "/children/" + str(int64_t(c));
      if (!ref(ctx, child, n, childAt, "nodes", true)) return false;
      if (child == int(i))
        return ctx.fail(childAt, "node " + str(child) + " is its own child (a cycle)");
      if (parent[size_t(child)] != -1) {
        return ctx.fail(childAt, "node " + str(child) + " has two parents (nodes " +
                                     str(parent[size_t(child)]) + " and " + str(int64_t(i)) + ")");
      }
      parent[size_t(child)] = int(i);
    }
    const auto sizeIs = [](const std::vector<double>& v, size_t want) {
      return v.empty() || v.size() == want;
    };
    if (!sizeIs(node.matrix, 16) || !sizeIs(node.translation, 3) || !sizeIs(node.rotation, 4) ||
        !sizeIs(node.scale, 3))
      return ctx.fail(at, "matrix/translation/rotation/scale has the wrong number of values");
    for (const std::vector<double>* values :
         {&node.matrix, &node.translation, &node.rotation, &node.scale}) {
      for (double v : *values) {
        if (!std::isfinite(v)) return ctx.fail(at, "non-finite transform value");
      }
    }
  }
  // Depth by walking up to a root or a node already measured; a walk that meets itself is a cycle.
  std::vector<int64_t> depth(n, -1);
  std::vector<size_t> chain;
  for (size_t i = 0; i < n; ++i) {
    chain.clear();
    size_t node = i;
    while (depth[node] < 0) {
      chain.push_back(node);
      if (chain.size() > n)
        return ctx.fail("/nodes/" + str(int64_t(i)), "node hierarchy has a cycle");
      if (parent[node] < 0) break;
      node = size_t(parent[node]);
    }
    int64_t d = depth[node] >= 0 ? depth[node] : -1;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) depth[*it] = ++d;
    if (uint64_t(depth[i]) > ctx.limits.maxNodeDepth) {
      return ctx.fail(
          "/nodes/" + str(int64_t(i)),
          "nested " + str(depth[i]) + " levels deep (cap " + str(ctx.limits.maxNodeDepth) + ")");
    }
  }
  std::vector<size_t> listedInScene(n, SIZE_MAX);  // a stamp per scene: O(nodes listed) in all
  for (size_t s = 0; s < model.scenes.size(); ++s) {
    for (size_t k = 0; k < model.scenes[s].nodes.size(); ++k) {
      const int root = model.scenes[s].nodes[k];
      const std::string at = "/scenes/" + str(int64_t(s)) + "/nodes/" + str(int64_t(k));
      if (!ref(ctx, root, n, at, "nodes", true)) return false;
      if (parent[size_t(root)] >= 0) {
        return ctx.fail(at, "node " + str(root) + " is not a root node (it is a child of node " +
                                str(parent[size_t(root)]) + ")");
      }
      if (listedInScene[size_t(root)] == s)
        return ctx.fail(at, "node " + str(root) + " is listed twice");
      listedInScene[size_t(root)] = s;
    }
  }
  return ref(ctx, model.defaultScene, model.scenes.size(), "/scene", "scenes");
}

bool validateMaterials(const tinygltf::Model& model, Context& ctx) {
  for (size_t i = 0; i < model.materials.size(); ++i) {
    const tinygltf::Material& m = model.materials[i];
    const std::string at = "/materials/" + str(int64_t(i));
    const auto& pbr = m.pbrMetallicRoughness;
    if (!ref(ctx, pbr.baseColorTexture.index, model.textures.size(),
             at + "/pbrMetallicRoughness/baseColorTexture/index", "textures") ||
        !ref(ctx, pbr.metallicRoughnessTexture.index, model.textures.size(),
             at + "/pbrMetallicRoughness/metallicRoughnessTexture/index", "textures") ||
        !ref(ctx, m.normalTexture.index, model.textures.size(), at + "/normalTexture/index",
             "textures") ||
        !ref(ctx, m.occlusionTexture.index, model.textures.size(), at + "/occlusionTexture/index",
             "textures") ||
        !ref(ctx, m.emissiveTexture.index, model.textures.size(), at + "/emissiveTexture/index",
             "textures"))
      return false;
    if (pbr.baseColorFactor.size() != 4)
      return ctx.fail(at + "/pbrMetallicRoughness/baseColorFactor", "must have 4 values");
  }
  for (size_t i = 0; i < model.textures.size(); ++i) {
    const std::string at = "/textures/" + str(int64_t(i));
    if (!ref(ctx, model.textures[i].source, model.images.size(), at + "/source", "images") ||
        !ref(ctx, model.textures[i].sampler, model.samplers.size(), at + "/sampler", "samplers"))
      return false;
  }
  for (size_t i = 0; i < model.images.size(); ++i) {
    const tinygltf::Image& image = model.images[i];
    const std::string at = "/images/" + str(int64_t(i));
    const uint64_t expected =
        uint64_t(image.width) * uint64_t(image.height) * 4 * uint64_t(image.bits / 8);
    if (image.image.empty() || image.width <= 0 || image.height <= 0 || image.component != 4 ||
        (image.bits != 8 && image.bits != 16) || image.image.size() != expected) {
      return ctx.fail(at, "image could not be loaded" +
                              (image.uri.empty() ? std::string() : " from '" + image.uri + "'"));
    }
  }
  return true;
}

/// Skins, animations and cameras are not imported, but their references must still resolve.
bool validateUnusedParts(const tinygltf::Model& model, Context& ctx) {
  const size_t accessors = model.accessors.size();
  for (size_t i = 0; i < model.skins.size(); ++i) {
    const tinygltf::Skin& skin = model.skins[i];
    const std::string at = "/skins/" + str(int64_t(i));
    if (!ref(ctx, skin.inverseBindMatrices, accessors, at + "/inverseBindMatrices", "accessors") ||
        !ref(ctx, skin.skeleton, model.nodes.size(), at + "/skeleton", "nodes"))
      return false;
    for (size_t j = 0; j < skin.joints.size(); ++j) {
      if (!ref(ctx, skin.joints[j], model.nodes.size(), at + "/joints/" + str(int64_t(j)), "nodes",
               true))
        return false;
    }
  }
  for (size_t a = 0; a < model.animations.size(); ++a) {
    const tinygltf::Animation& animation = model.animations[a];
    const std::string at = "/animations/" + str(int64_t(a));
    for (size_t c = 0; c < animation.channels.size(); ++c) {
      const std::string channelAt = at + "/channels/" + str(int64_t(c));
      if (!ref(ctx, animation.channels[c].sampler, animation.samplers.size(),
               channelAt + "/sampler", "samplers", true) ||
          !ref(ctx, animation.channels[c].target_node, model.nodes.size(),
               channelAt + "/target/node", "nodes"))
        return false;
    }
    for (size_t s = 0; s < animation.samplers.size(); ++s) {
      const std::string samplerAt = at + "/samplers/" + str(int64_t(s));
      if (!ref(ctx, animation.samplers[s].input, accessors, samplerAt + "/input", "accessors",
               true) ||
          !ref(ctx, animation.samplers[s].output, accessors, samplerAt + "/output", "accessors",
               true))
        return false;
    }
  }
  if (!model.animations.empty()) ctx.warn("/animations", "animations are ignored (static pose)");
  if (!model.skins.empty()) ctx.warn("/skins", "skins are ignored (meshes drawn in bind pose)");
  if (!model.cameras.empty()) ctx.warn("/cameras", "cameras are ignored");
  return true;
}

}  // namespace

bool validateModel(const tinygltf::Model& model, Context& ctx) {
  std::vector<uint64_t> bufferBytes;
  if (!validateBuffers(model, ctx, &bufferBytes) || !validateBufferViews(model, ctx, bufferBytes) ||
      !validateAccessors(model, ctx) || !validateMaterials(model, ctx) ||
      !validateNodes(model, ctx) || !validateUnusedParts(model, ctx))
    return false;
  std::vector<IndexSummary> indexSummaries(model.accessors.size());
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    for (size_t p = 0; p < model.meshes[m].primitives.size(); ++p) {
      if (!validatePrimitive(model, ctx, model.meshes[m].primitives[p],
                             "/meshes/" + str(int64_t(m)) + "/primitives/" + str(int64_t(p)),
                             &indexSummaries))
        return false;
    }
  }
  return true;
}

}  // namespace world::gltf
