// From a validated tinygltf model to ImportedModel: triangle lists (strips and fans unrolled,
// flat normals where none are given, COLOR_0 as vertex colours, the base colour texture's uv set
// with its KHR_texture_transform baked in), materials with their samplers' wrap modes, RGBA8
// images, and the node hierarchy flattened into instances. Also the bounds and the fit to a size.
#include <algorithm>
#include <cmath>

#include "world/gltf/gltf_internal.h"

namespace world::gltf {
namespace {

std::string str(int64_t i) {
  return std::to_string(i);
}

using Matrix = std::array<double, 16>;  // column-major

Matrix identity() {
  return {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
}

Matrix multiply(const Matrix& a, const Matrix& b) {
  Matrix out{};
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      double sum = 0;
      for (int k = 0; k < 4; ++k) sum += a[size_t(k * 4 + r)] * b[size_t(c * 4 + k)];
      out[size_t(c * 4 + r)] = sum;
    }
  }
  return out;
}

/// The node's local transform: its matrix, or T * R * S (glTF 2.0 spec, 3.5.3).
Matrix localTransform(const tinygltf::Node& node, Context& ctx, size_t index) {
  Matrix m = identity();
  if (node.matrix.size() == 16) {
    std::copy(node.matrix.begin(), node.matrix.end(), m.begin());
    return m;
  }
  double q[4] = {0, 0, 0, 1};  // x, y, z, w
  if (node.rotation.size() == 4) {
    const double length =
        std::sqrt(node.rotation[0] * node.rotation[0] + node.rotation[1] * node.rotation[1] +
                  node.rotation[2] * node.rotation[2] + node.rotation[3] * node.rotation[3]);
    if (length > 0) {
      for (int i = 0; i < 4; ++i) q[i] = node.rotation[size_t(i)] / length;
    } else {
      ctx.warn("/nodes/" + str(int64_t(index)) + "/rotation", "zero quaternion: identity used");
    }
  }
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  const double rotation[9] = {
      1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
      2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
      2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
  const double scale[3] = {node.scale.size() == 3 ? node.scale[0] : 1.0,
                           node.scale.size() == 3 ? node.scale[1] : 1.0,
                           node.scale.size() == 3 ? node.scale[2] : 1.0};
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) m[size_t(c * 4 + r)] = rotation[c * 3 + r] * scale[c];
  }
  if (node.translation.size() == 3) {
    for (int r = 0; r < 3; ++r) m[size_t(12 + r)] = node.translation[size_t(r)];
  }
  return m;
}

float clamp01(double v) {
  return static_cast<float>(std::clamp(v, 0.0, 1.0));
}

void buildImages(const tinygltf::Model& model, ImportedModel* out) {
  for (const tinygltf::Image& image : model.images) {
    ImportedImage& dst = out->images.emplace_back();
    dst.name = image.name;
    dst.width = uint32_t(image.width);
    dst.height = uint32_t(image.height);
    const size_t pixels = size_t(dst.width) * dst.height * 4;
    dst.rgba8.resize(pixels);
    if (image.bits == 16) {  // stb returns native little-endian uint16: keep the high byte
      for (size_t i = 0; i < pixels; ++i) dst.rgba8[i] = image.image[2 * i + 1];
    } else {
      std::copy(image.image.begin(), image.image.begin() + std::ptrdiff_t(pixels),
                dst.rgba8.begin());
    }
  }
}

/// A sampler's wrapS / wrapT (glTF 2.0 spec, 5.26); an unknown value falls back to REPEAT.
WrapMode wrapMode(int gl, Context& ctx, const std::string& at) {
  switch (gl) {
    case TINYGLTF_TEXTURE_WRAP_REPEAT:
      return WrapMode::Repeat;
    case TINYGLTF_TEXTURE_WRAP_CLAMP_TO_EDGE:
      return WrapMode::ClampToEdge;
    case TINYGLTF_TEXTURE_WRAP_MIRRORED_REPEAT:
      return WrapMode::MirroredRepeat;
    default:
      ctx.warn(at, "unknown wrap mode " + str(gl) + ": REPEAT used");
      return WrapMode::Repeat;
  }
}

bool buildMaterials(const tinygltf::Model& model, Context& ctx, ImportedModel* out) {
  for (size_t i = 0; i < model.materials.size(); ++i) {
    const tinygltf::Material& src = model.materials[i];
    const auto& pbr = src.pbrMetallicRoughness;
    const std::string at = "/materials/" + str(int64_t(i)) + "/pbrMetallicRoughness";
    ImportedMaterial& dst = out->materials.emplace_back();
    dst.name = src.name;
    bool clamped = false;
    for (int c = 0; c < 4; ++c) {
      dst.baseColorFactor[c] = clamp01(pbr.baseColorFactor[size_t(c)]);
      clamped |= dst.baseColorFactor[c] != float(pbr.baseColorFactor[size_t(c)]);
    }
    dst.metallicFactor = clamp01(pbr.metallicFactor);
    dst.roughnessFactor = clamp01(pbr.roughnessFactor);
    clamped |= dst.metallicFactor != float(pbr.metallicFactor) ||
               dst.roughnessFactor != float(pbr.roughnessFactor);
    if (clamped) ctx.warn(at, "factors outside [0, 1] were clamped");
    if (src.alphaMode == "MASK") {
      dst.alphaMode = AlphaMode::Mask;
    } else if (src.alphaMode == "BLEND") {
      dst.alphaMode = AlphaMode::Blend;
    } else if (src.alphaMode != "OPAQUE") {
      ctx.warn("/materials/" + str(int64_t(i)) + "/alphaMode",
               "not OPAQUE, MASK or BLEND: drawn opaque");
    }
    dst.alphaCutoff = clamp01(src.alphaCutoff);
    dst.doubleSided = src.doubleSided;
    if (pbr.baseColorTexture.index < 0) continue;
    const tinygltf::Texture& texture = model.textures[size_t(pbr.baseColorTexture.index)];
    dst.baseColorImage = texture.source;
    int texCoord = pbr.baseColorTexture.texCoord;
    if (!readTextureTransform(ctx, at + "/baseColorTexture", &dst.baseColorUvTransform, &texCoord))
      return false;
    if (texCoord < 0) {
      ctx.warn(at + "/baseColorTexture/texCoord", "negative: TEXCOORD_0 used");
      texCoord = 0;
    }
    dst.baseColorTexCoord = uint32_t(texCoord);
    if (texture.sampler >= 0) {
      const tinygltf::Sampler& sampler = model.samplers[size_t(texture.sampler)];
      const std::string samplerAt = "/samplers/" + str(texture.sampler);
      dst.wrapS = wrapMode(sampler.wrapS, ctx, samplerAt + "/wrapS");
      dst.wrapT = wrapMode(sampler.wrapT, ctx, samplerAt + "/wrapT");
    }
  }
  return true;
}

/// Triangle-list corner indices for a primitive's mode (glTF 2.0 spec, 3.7.2.1).
std::vector<uint32_t> triangleList(int mode, const std::vector<uint32_t>& in, Context& ctx,
                                   const std::string& at) {
  std::vector<uint32_t> out;
  if (mode == TINYGLTF_MODE_TRIANGLES) {
    if (in.size() % 3) ctx.warn(at, "vertex count not a multiple of 3: the rest is dropped");
    out.assign(in.begin(), in.begin() + std::ptrdiff_t(in.size() - in.size() % 3));
    return out;
  }
  for (size_t i = 0; i + 2 < in.size(); ++i) {
    if (mode == TINYGLTF_MODE_TRIANGLE_STRIP) {
      out.insert(out.end(), {in[i], in[i + 1 + i % 2], in[i + 2 - i % 2]});
    } else {
      out.insert(out.end(), {in[i + 1], in[i + 2], in[0]});
    }
  }
  return out;
}

/// The uvs (2 per vertex) of the set the material's base colour texture reads, its
/// KHR_texture_transform applied; empty when the primitive has no such set.
std::vector<float> readUvs(const tinygltf::Model& model, const tinygltf::Primitive& primitive,
                           const ImportedMaterial* material, Context& ctx, const std::string& at) {
  const uint32_t set = material ? material->baseColorTexCoord : 0;
  const std::string semantic = "TEXCOORD_" + str(set);
  auto it = primitive.attributes.find(semantic);
  if (it == primitive.attributes.end()) {
    if (material && material->baseColorImage >= 0)
      ctx.warn(at + "/attributes", "no " + semantic + " for the base colour texture: uv 0 used");
    return {};
  }
  std::vector<float> uvs = readFloats(model, it->second);
  if (!material || material->baseColorUvTransform.identity()) return uvs;
  bool overflowed = false;
  for (size_t i = 0; i + 1 < uvs.size(); i += 2) {
    material->baseColorUvTransform.apply(uvs[i], uvs[i + 1], &uvs[i]);
    for (size_t k = i; k < i + 2; ++k) {
      if (!std::isfinite(uvs[k])) {
        uvs[k] = 0;
        overflowed = true;
      }
    }
  }
  if (overflowed)
    ctx.warn(at + "/attributes/" + semantic,
             "KHR_texture_transform takes some uvs past the float range: 0 used");
  return uvs;
}

/// COLOR_0 as RGBA8 (4 per vertex; VEC3 gets alpha 1), clamped to [0, 1] and rounded to the
/// nearest step (glTF 2.0 spec, 3.7.2.1); empty when the primitive has none.
std::vector<uint8_t> readColors(const tinygltf::Model& model, const tinygltf::Primitive& primitive,
                                Context& ctx, const std::string& at) {
  auto it = primitive.attributes.find("COLOR_0");
  if (it == primitive.attributes.end()) return {};
  const uint32_t n = componentCount(model.accessors[size_t(it->second)].type);  // 3 or 4
  const std::vector<float> values = readFloats(model, it->second);
  const size_t vertexCount = values.size() / n;
  std::vector<uint8_t> out(vertexCount * 4, 255);
  bool clamped = false;
  for (size_t i = 0; i < vertexCount; ++i) {
    for (uint32_t c = 0; c < n; ++c) {
      const float v = values[i * n + c];
      const float inside = v >= 0.0f ? std::min(v, 1.0f) : 0.0f;  // NaN -> 0 (validated anyway)
      clamped |= inside != v;
      out[i * 4 + c] = uint8_t(std::lround(inside * 255.0f));
    }
  }
  if (clamped) ctx.warn(at + "/attributes/COLOR_0", "colours outside [0, 1] were clamped");
  return out;
}

bool buildMesh(const tinygltf::Model& model, Context& ctx, uint32_t m, uint32_t p,
               uint64_t* triangles, uint64_t* vertices, ImportedModel* out) {
  const tinygltf::Primitive& primitive = model.meshes[m].primitives[p];
  const std::string at = "/meshes/" + str(m) + "/primitives/" + str(p);
  const int positionIndex = primitive.attributes.at("POSITION");
  const size_t vertexCount = model.accessors[size_t(positionIndex)].count;
  const size_t cornerCount =
      primitive.indices >= 0 ? model.accessors[size_t(primitive.indices)].count : vertexCount;
  const uint64_t expected = primitive.mode == TINYGLTF_MODE_TRIANGLES ? cornerCount / 3
                            : cornerCount >= 3                        ? cornerCount - 2
                                                                      : 0;
  if (*triangles + expected > ctx.limits.maxTotalTriangles)  // before allocating anything
    return ctx.fail(at, "the model exceeds the cap of " +
                            str(int64_t(ctx.limits.maxTotalTriangles)) + " triangles");
  const bool hasNormals = primitive.attributes.count("NORMAL") > 0;
  *vertices += hasNormals ? vertexCount : 3 * expected;  // flat normals: 3 vertices per triangle
  if (*vertices > ctx.limits.maxTotalVertices)
    return ctx.fail(at, "the model exceeds the cap of " +
                            str(int64_t(ctx.limits.maxTotalVertices)) + " vertices");
  std::vector<uint32_t> corners;
  if (primitive.indices >= 0) {
    corners = readIndices(model, primitive.indices);
  } else {
    corners.resize(vertexCount);
    for (size_t i = 0; i < vertexCount; ++i) corners[i] = uint32_t(i);
  }
  corners = triangleList(primitive.mode, corners, ctx, at);
  *triangles += corners.size() / 3;
  if (*triangles > ctx.limits.maxTotalTriangles)
    return ctx.fail(at, "the model exceeds the cap of " +
                            str(int64_t(ctx.limits.maxTotalTriangles)) + " triangles");

  const std::vector<float> positions = readFloats(model, positionIndex);
  std::vector<float> normals;
  if (auto it = primitive.attributes.find("NORMAL"); it != primitive.attributes.end())
    normals = readFloats(model, it->second);
  const ImportedMaterial* material =
      primitive.material >= 0 ? &out->materials[size_t(primitive.material)] : nullptr;
  const std::vector<float> uvs = readUvs(model, primitive, material, ctx, at);
  const std::vector<uint8_t> colors = readColors(model, primitive, ctx, at);

  ImportedMesh& mesh = out->meshes.emplace_back();
  mesh.sourceMesh = m;
  mesh.sourcePrimitive = p;
  mesh.material = primitive.material;
  mesh.data.name = model.meshes[m].name.empty() ? "mesh" + str(m) : model.meshes[m].name;
  if (model.meshes[m].primitives.size() > 1) mesh.data.name += "." + str(p);
  auto vertex = [&](uint32_t i) {
    MeshVertex v{};
    for (int k = 0; k < 3; ++k) v.position[k] = positions[size_t(i) * 3 + size_t(k)];
    if (!normals.empty()) {
      for (int k = 0; k < 3; ++k) v.normal[k] = normals[size_t(i) * 3 + size_t(k)];
    }
    if (!uvs.empty()) {
      for (int k = 0; k < 2; ++k) v.uv[k] = uvs[size_t(i) * 2 + size_t(k)];
    }
    if (!colors.empty()) {
      for (int k = 0; k < 4; ++k) v.color[k] = colors[size_t(i) * 4 + size_t(k)];
    }
    return v;
  };
  if (!normals.empty()) {
    mesh.data.vertices.reserve(vertexCount);
    for (uint32_t i = 0; i < vertexCount; ++i) mesh.data.vertices.push_back(vertex(i));
    mesh.data.indices = std::move(corners);
    return true;
  }
  // Flat normals: each triangle gets its own three vertices and its face normal.
  mesh.data.vertices.reserve(corners.size());
  mesh.data.indices.reserve(corners.size());
  for (size_t t = 0; t + 2 < corners.size(); t += 3) {
    MeshVertex v[3] = {vertex(corners[t]), vertex(corners[t + 1]), vertex(corners[t + 2])};
    const double e1[3] = {double(v[1].position[0]) - v[0].position[0],
                          double(v[1].position[1]) - v[0].position[1],
                          double(v[1].position[2]) - v[0].position[2]};
    const double e2[3] = {double(v[2].position[0]) - v[0].position[0],
                          double(v[2].position[1]) - v[0].position[1],
                          double(v[2].position[2]) - v[0].position[2]};
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                   e1[0] * e2[1] - e1[1] * e2[0]};
    const double length = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (length > 0) {
      for (double& c : n) c /= length;
    } else {
      n[0] = 0, n[1] = 1, n[2] = 0;  // degenerate triangle: any unit normal will do
    }
    for (MeshVertex& corner : v) {
      for (int k = 0; k < 3; ++k) corner.normal[k] = float(n[k]);
      mesh.data.indices.push_back(uint32_t(mesh.data.vertices.size()));
      mesh.data.vertices.push_back(corner);
    }
  }
  return true;
}

bool buildInstances(const tinygltf::Model& model, Context& ctx,
                    const std::vector<std::vector<uint32_t>>& meshesOf, ImportedModel* out) {
  auto place = [&](const Matrix& transform, int gltfMesh) {
    if (gltfMesh < 0) return true;
    for (uint32_t mesh : meshesOf[size_t(gltfMesh)]) {
      if (out->instances.size() >= ctx.limits.maxInstances)
        return ctx.fail("/nodes",
                        "more than " + str(int64_t(ctx.limits.maxInstances)) + " instances");
      ImportedInstance& instance = out->instances.emplace_back();
      instance.mesh = mesh;
      std::copy(transform.begin(), transform.end(), instance.transform);
    }
    return true;
  };
  if (model.nodes.empty()) {
    if (!model.meshes.empty()) ctx.warn("", "no nodes: each mesh placed once at the origin");
    for (size_t m = 0; m < model.meshes.size(); ++m) {
      if (!place(identity(), int(m))) return false;
    }
    return true;
  }
  std::vector<int> roots;
  if (!model.scenes.empty()) {
    roots = model.scenes[size_t(std::max(model.defaultScene, 0))].nodes;
  } else {
    std::vector<bool> isChild(model.nodes.size(), false);
    for (const tinygltf::Node& node : model.nodes) {
      for (int child : node.children) isChild[size_t(child)] = true;
    }
    for (size_t i = 0; i < model.nodes.size(); ++i) {
      if (!isChild[i]) roots.push_back(int(i));
    }
  }
  // Depth-first with an explicit stack; validateModel bounded the depth and ruled out cycles.
  std::vector<std::pair<int, Matrix>> stack;
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.emplace_back(*it, identity());
  while (!stack.empty()) {
    auto [index, parent] = stack.back();
    stack.pop_back();
    const tinygltf::Node& node = model.nodes[size_t(index)];
    const Matrix world = multiply(parent, localTransform(node, ctx, size_t(index)));
    if (!place(world, node.mesh)) return false;
    for (auto it = node.children.rbegin(); it != node.children.rend(); ++it)
      stack.emplace_back(*it, world);
  }
  return true;
}

}  // namespace

bool buildModel(const tinygltf::Model& model, Context& ctx, ImportedModel* out) {
  buildImages(model, out);
  if (!buildMaterials(model, ctx, out)) return false;
  out->gltfMeshCount = uint32_t(model.meshes.size());
  std::vector<std::vector<uint32_t>> meshesOf(model.meshes.size());
  uint64_t triangles = 0, vertices = 0;
  for (uint32_t m = 0; m < model.meshes.size(); ++m) {
    for (uint32_t p = 0; p < model.meshes[m].primitives.size(); ++p) {
      const tinygltf::Primitive& primitive = model.meshes[m].primitives[p];
      const bool triangleMode = primitive.mode >= TINYGLTF_MODE_TRIANGLES;
      if (!triangleMode || !primitive.attributes.count("POSITION"))
        continue;  // warned in validation
      meshesOf[m].push_back(uint32_t(out->meshes.size()));
      if (!buildMesh(model, ctx, m, p, &triangles, &vertices, out)) return false;
    }
  }
  return buildInstances(model, ctx, meshesOf, out);
}

}  // namespace world::gltf

namespace world {

void UvTransform::apply(float u, float v, float out[2]) const {
  // uv' = T * R * S * uv in double (KHR_texture_transform; the sign of R: gltf_import.h).
  const double su = double(scale[0]) * u, sv = double(scale[1]) * v;
  const double c = std::cos(double(rotation_rad)), s = std::sin(double(rotation_rad));
  out[0] = static_cast<float>(c * su + s * sv + offset[0]);
  out[1] = static_cast<float>(-s * su + c * sv + offset[1]);
}

Bounds computeBounds(const ImportedModel& model) {
  std::vector<Bounds> local(model.meshes.size());
  for (size_t i = 0; i < model.meshes.size(); ++i) {
    for (const MeshVertex& v : model.meshes[i].data.vertices) {
      for (int k = 0; k < 3; ++k) {
        local[i].min_m[k] = std::min(local[i].min_m[k], double(v.position[k]));
        local[i].max_m[k] = std::max(local[i].max_m[k], double(v.position[k]));
      }
    }
  }
  Bounds out;
  for (const ImportedInstance& instance : model.instances) {
    const Bounds& box = local[instance.mesh];
    if (box.empty()) continue;
    for (int corner = 0; corner < 8; ++corner) {
      const double p[3] = {(corner & 1) ? box.max_m[0] : box.min_m[0],
                           (corner & 2) ? box.max_m[1] : box.min_m[1],
                           (corner & 4) ? box.max_m[2] : box.min_m[2]};
      for (int r = 0; r < 3; ++r) {
        const double* t = instance.transform;
        const double w = t[r] * p[0] + t[4 + r] * p[1] + t[8 + r] * p[2] + t[12 + r];
        out.min_m[r] = std::min(out.min_m[r], w);
        out.max_m[r] = std::max(out.max_m[r], w);
      }
    }
  }
  return out;
}

sim::Result<FitTransform> fitTransform(const ImportedModel& model, const FitDesc& desc) {
  using R = sim::Result<FitTransform>;
  for (double size : desc.size_m) {
    if (!std::isfinite(size) || size <= 0)
      return R::failure("fitToSize: sizes must be finite and positive");
  }
  const Bounds bounds = computeBounds(model);
  if (bounds.empty())
    return R::failure(model.source.string() + ": nothing to fit (no placed geometry)");
  double extent[3], smallest = INFINITY;
  for (int k = 0; k < 3; ++k) {
    extent[k] = bounds.max_m[k] - bounds.min_m[k];
    if (extent[k] > 0) smallest = std::min(smallest, desc.size_m[k] / extent[k]);
  }
  if (!std::isfinite(smallest))
    return R::failure(model.source.string() + ": the model has no extent");
  FitTransform fit;
  for (size_t k = 0; k < 3; ++k) {
    fit.scale[k] = (desc.uniform || extent[k] <= 0) ? smallest : desc.size_m[k] / extent[k];
    const double anchor = desc.anchor == FitAnchor::Center
                              ? 0.5 * (bounds.min_m[k] + bounds.max_m[k])
                              : bounds.min_m[k];
    fit.offset_m[k] = -fit.scale[k] * anchor;
  }
  return fit;
}

sim::Result<std::array<double, 3>> fitToSize(ImportedModel& model, const FitDesc& desc) {
  auto fit = fitTransform(model, desc);
  if (!fit) return sim::Result<std::array<double, 3>>::failure(fit.error());
  // New transform = translate(offset) * scale(scale) * old (column-major, rows 0..2 change).
  for (ImportedInstance& instance : model.instances) {
    double* t = instance.transform;
    for (int c = 0; c < 4; ++c) {
      for (size_t r = 0; r < 3; ++r)
        t[c * 4 + r] = fit->scale[r] * t[c * 4 + r] + fit->offset_m[r] * t[c * 4 + 3];
    }
  }
  model.bounds = computeBounds(model);
  return fit->scale;
}

}  // namespace world
