// Reading accessor data (glTF 2.0 spec, 3.6.2): strides, matrix column padding, normalized
// integers and sparse substitution. The ranges were checked by validateModel beforehand.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "world/gltf/gltf_internal.h"

namespace world::gltf {
namespace {

/// Byte offset of component `c` inside one element (matrix columns start 4-byte aligned).
uint32_t componentOffset(int type, int componentType, uint32_t c) {
  const uint32_t bytes = componentBytes(componentType);
  uint32_t rows = 0;
  if (type == TINYGLTF_TYPE_MAT2) rows = 2;
  if (type == TINYGLTF_TYPE_MAT3) rows = 3;
  if (type == TINYGLTF_TYPE_MAT4) rows = 4;
  if (rows == 0) return c * bytes;
  const uint32_t columnBytes = (rows * bytes + 3u) & ~3u;
  return (c / rows) * columnBytes + (c % rows) * bytes;
}

double readComponent(const unsigned char* p, int componentType, bool normalized) {
  switch (componentType) {
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
      int8_t v;
      std::memcpy(&v, p, 1);
      return normalized ? std::max(v / 127.0, -1.0) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: {
      uint8_t v;
      std::memcpy(&v, p, 1);
      return normalized ? v / 255.0 : v;
    }
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? std::max(v / 32767.0, -1.0) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? v / 65535.0 : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case TINYGLTF_COMPONENT_TYPE_FLOAT: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default:
      return 0;
  }
}

uint32_t readUnsigned(const unsigned char* p, int componentType) {
  return static_cast<uint32_t>(readComponent(p, componentType, false));
}

/// Calls `write(element, component, value)` for every component the accessor holds.
template <class Write>
void forEachComponent(const tinygltf::Model& model, const tinygltf::Accessor& accessor,
                      Write write) {
  const uint32_t n = componentCount(accessor.type);
  const uint32_t element = elementBytes(accessor.type, accessor.componentType);
  if (accessor.bufferView >= 0) {
    const tinygltf::BufferView& view = model.bufferViews[size_t(accessor.bufferView)];
    const unsigned char* base =
        model.buffers[size_t(view.buffer)].data.data() + view.byteOffset + accessor.byteOffset;
    const size_t stride = view.byteStride ? view.byteStride : element;
    for (size_t i = 0; i < accessor.count; ++i) {
      for (uint32_t c = 0; c < n; ++c) {
        write(i, c,
              readComponent(
                  base + i * stride + componentOffset(accessor.type, accessor.componentType, c),
                  accessor.componentType, accessor.normalized));
      }
    }
  }
  if (!accessor.sparse.isSparse) return;
  const auto& sparse = accessor.sparse;
  const tinygltf::BufferView& indexView = model.bufferViews[size_t(sparse.indices.bufferView)];
  const unsigned char* indexBase = model.buffers[size_t(indexView.buffer)].data.data() +
                                   indexView.byteOffset + size_t(sparse.indices.byteOffset);
  const uint32_t indexBytes = componentBytes(sparse.indices.componentType);
  const tinygltf::BufferView& valueView = model.bufferViews[size_t(sparse.values.bufferView)];
  const unsigned char* valueBase = model.buffers[size_t(valueView.buffer)].data.data() +
                                   valueView.byteOffset + size_t(sparse.values.byteOffset);
  for (size_t s = 0; s < size_t(sparse.count); ++s) {
    const size_t target = readUnsigned(indexBase + s * indexBytes, sparse.indices.componentType);
    for (uint32_t c = 0; c < n; ++c) {
      write(target, c,
            readComponent(
                valueBase + s * element + componentOffset(accessor.type, accessor.componentType, c),
                accessor.componentType, accessor.normalized));
    }
  }
}

}  // namespace

uint32_t componentCount(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return 1;
    case TINYGLTF_TYPE_VEC2:
      return 2;
    case TINYGLTF_TYPE_VEC3:
      return 3;
    case TINYGLTF_TYPE_VEC4:
    case TINYGLTF_TYPE_MAT2:
      return 4;
    case TINYGLTF_TYPE_MAT3:
      return 9;
    case TINYGLTF_TYPE_MAT4:
      return 16;
    default:
      return 0;
  }
}

uint32_t componentBytes(int componentType) {
  switch (componentType) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return 4;
    default:
      return 0;  // INT and DOUBLE are not glTF 2.0 component types
  }
}

uint32_t elementBytes(int type, int componentType) {
  const uint32_t n = componentCount(type);
  const uint32_t bytes = componentBytes(componentType);
  if (n == 0 || bytes == 0) return 0;
  if (type == TINYGLTF_TYPE_MAT2 || type == TINYGLTF_TYPE_MAT3 || type == TINYGLTF_TYPE_MAT4) {
    const uint32_t rows = type == TINYGLTF_TYPE_MAT2 ? 2 : type == TINYGLTF_TYPE_MAT3 ? 3 : 4;
    return rows * ((rows * bytes + 3u) & ~3u);  // rows == columns; each column 4-byte aligned
  }
  return n * bytes;
}

std::vector<float> readFloats(const tinygltf::Model& model, int accessorIndex) {
  const tinygltf::Accessor& accessor = model.accessors[size_t(accessorIndex)];
  const uint32_t n = componentCount(accessor.type);
  std::vector<float> out(accessor.count * n, 0.0f);
  forEachComponent(model, accessor,
                   [&](size_t i, uint32_t c, double v) { out[i * n + c] = static_cast<float>(v); });
  return out;
}

bool findNonFinite(const tinygltf::Model& model, int accessorIndex, size_t* element,
                   uint32_t* component) {
  bool found = false;
  forEachComponent(model, model.accessors[size_t(accessorIndex)],
                   [&](size_t i, uint32_t c, double v) {
                     if (!found && !std::isfinite(v)) {
                       found = true;
                       *element = i;
                       *component = c;
                     }
                   });
  return found;
}

std::vector<uint32_t> readIndices(const tinygltf::Model& model, int accessorIndex) {
  const tinygltf::Accessor& accessor = model.accessors[size_t(accessorIndex)];
  std::vector<uint32_t> out(accessor.count, 0);
  forEachComponent(model, accessor,
                   [&](size_t i, uint32_t, double v) { out[i] = static_cast<uint32_t>(v); });
  return out;
}

}  // namespace world::gltf
