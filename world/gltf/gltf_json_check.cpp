// Checks on the raw glTF JSON, before tinygltf parses it: tinygltf accepts wrong collection types,
// unknown versions, non-object extensions, cameras of two types and URIs of any kind, so the
// structure the later checks rely on is established here (glTF 2.0 spec, section 5 schema). The
// KHR_texture_transform values are read from here too (tinygltf keeps extensions untyped).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <iterator>
#include <regex>
#include <string_view>

#include "world/gltf/gltf_internal.h"

namespace world::gltf {
namespace {

using nlohmann::json;

const char* const COLLECTIONS[] = {"accessors", "animations", "buffers", "bufferViews", "cameras",
                                   "images",    "materials",  "meshes",  "nodes",       "samplers",
                                   "scenes",    "skins",      "textures"};

// The glTF extensions the importer implements (an asset may list them in extensionsRequired).
const std::string SUPPORTED_EXTENSIONS[] = {"KHR_texture_transform"};

std::string str(size_t i) {
  return std::to_string(i);
}

bool isInteger(const json& v) {
  return v.is_number_integer() || v.is_number_unsigned();
}

/// `extensions`, where present, is an object whose values are objects (glTF 2.0 spec, 3.12).
bool checkExtensions(Context& ctx, const json& owner, const std::string& pointer) {
  auto it = owner.find("extensions");
  if (it == owner.end()) return true;
  if (!it->is_object()) return ctx.fail(pointer + "/extensions", "must be a JSON object");
  for (const auto& [name, value] : it->items()) {
    if (!value.is_object())
      return ctx.fail(pointer + "/extensions/" + pointerToken(name),
                      "extension data must be a JSON object");
  }
  return true;
}

/// An integer property in [minValue, maxValue]; absent is fine unless `required`.
bool checkInteger(Context& ctx, const json& owner, const std::string& pointer, const char* key,
                  bool required, int64_t minValue, uint64_t maxValue) {
  auto it = owner.find(key);
  if (it == owner.end()) {
    return required ? ctx.fail(pointer, std::string("property '") + key + "' is required") : true;
  }
  const std::string at = pointer + "/" + key;
  if (!isInteger(*it)) return ctx.fail(at, "must be an integer");
  if (it->is_number_unsigned()) {
    if (it->get<uint64_t>() > maxValue)
      return ctx.fail(at, std::to_string(it->get<uint64_t>()) + " exceeds the cap of " +
                              std::to_string(maxValue));
  } else if (it->get<int64_t>() < minValue) {
    return ctx.fail(at,
                    std::to_string(it->get<int64_t>()) + " is below " + std::to_string(minValue));
  } else if (static_cast<uint64_t>(it->get<int64_t>()) > maxValue) {
    return ctx.fail(
        at, std::to_string(it->get<int64_t>()) + " exceeds the cap of " + std::to_string(maxValue));
  }
  return true;
}

/// An index property `key` of `owner` that must resolve into the top-level `collection` (checked
/// here because tinygltf follows some references while loading and refuses a dangling one in its
/// own words: "primitive indices accessor out of bounds").
bool checkReference(Context& ctx, const json& owner, const std::string& pointer, const char* key,
                    const char* collection, bool required = false) {
  if (!checkInteger(ctx, owner, pointer, key, required, 0, UINT32_MAX)) return false;
  auto it = owner.find(key);
  if (it == owner.end()) return true;
  const auto items = ctx.json.root.find(collection);
  const size_t size = items != ctx.json.root.end() && items->is_array() ? items->size() : 0;
  return ref(ctx, it->get<int64_t>(), size, pointer + "/" + key, collection, true);
}

/// Bytes a base64 payload decodes to (RFC 4648: groups of four of A-Z a-z 0-9 + /, '=' padding
/// at the end only), or -1 when it is not base64.
int64_t base64Bytes(std::string_view payload) {
  if (payload.size() % 4 != 0) return -1;
  size_t padding = 0;
  while (padding < 2 && padding < payload.size() && payload[payload.size() - 1 - padding] == '=')
    ++padding;
  for (size_t i = 0; i < payload.size() - padding; ++i) {
    const char c = payload[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '/') return -1;
  }
  return int64_t(payload.size() / 4 * 3) - int64_t(padding);
}

/// True when `uri` is a data: URI (the scheme compared without case, as checkUri does).
bool isDataUri(const std::string& uri) {
  return uri.size() > 5 && std::equal(uri.begin(), uri.begin() + 5, "data:", [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Only data: URIs of `allowedMimes` and relative paths that stay in the asset's folder.
bool checkUri(Context& ctx, const std::string& pointer, const std::string& uri,
              const std::vector<std::string>& allowedMimes) {
  if (uri.empty()) return ctx.fail(pointer, "empty URI");
  size_t colon = uri.find(':');
  size_t firstSeparator = uri.find_first_of("/?#\\");
  if (colon != std::string::npos && colon < firstSeparator) {
    std::string scheme = uri.substr(0, colon);
    for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (scheme != "data")
      return ctx.fail(pointer, "URI scheme '" + scheme +
                                   ":' is not allowed (only relative paths and data: URIs)");
    const size_t comma = uri.find(',');
    const std::string header = comma == std::string::npos ? uri : uri.substr(5, comma - 5);
    const size_t semicolon = header.find(';');
    if (comma == std::string::npos || semicolon == std::string::npos ||
        header.substr(semicolon) != ";base64")
      return ctx.fail(pointer, "data: URI must be base64 ('data:<type>;base64,...')");
    const std::string mime = header.substr(0, semicolon);
    for (const std::string& allowed : allowedMimes) {
      if (mime == allowed) return true;
    }
    return ctx.fail(pointer, "data: URI media type '" + mime + "' is not allowed here");
  }
  std::string decoded;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      decoded += uri[i];
      continue;
    }
    if (i + 2 >= uri.size() || hexValue(uri[i + 1]) < 0 || hexValue(uri[i + 2]) < 0)
      return ctx.fail(pointer, "malformed percent-encoding in URI");
    decoded += static_cast<char>(hexValue(uri[i + 1]) * 16 + hexValue(uri[i + 2]));
    i += 2;
  }
  if (decoded.find('\0') != std::string::npos) return ctx.fail(pointer, "URI contains a NUL byte");
  if (decoded[0] == '/' || decoded[0] == '\\')
    return ctx.fail(pointer, "absolute path '" + decoded + "' is not allowed");
  size_t start = 0;
  while (start <= decoded.size()) {
    size_t end = decoded.find_first_of("/\\", start);
    if (end == std::string::npos) end = decoded.size();
    if (decoded.compare(start, end - start, "..") == 0 && end - start == 2)
      return ctx.fail(pointer, "'..' in '" + decoded + "' would leave the asset's folder");
    start = end + 1;
  }
  return true;
}

/// Two numbers at `key` of `owner` that stay finite as floats, into `out`; absent: unchanged.
bool readFloatPair(Context& ctx, const json& owner, const std::string& pointer, const char* key,
                   float out[2]) {
  auto it = owner.find(key);
  if (it == owner.end()) return true;
  const std::string at = pointer + "/" + key;
  if (!it->is_array() || it->size() != 2) return ctx.fail(at, "must be an array of 2 numbers");
  for (size_t k = 0; k < 2; ++k) {
    const json& v = (*it)[k];
    if (!v.is_number() || !std::isfinite(static_cast<float>(v.get<double>())))
      return ctx.fail(at + "/" + str(k), "must be a finite number");
    out[k] = static_cast<float>(v.get<double>());
  }
  return true;
}

bool checkAsset(Context& ctx, const json& root) {
  auto asset = root.find("asset");
  if (asset == root.end()) return ctx.fail("", "property 'asset' is required");
  if (!asset->is_object()) return ctx.fail("/asset", "must be a JSON object");
  auto version = asset->find("version");
  if (version == asset->end() || !version->is_string())
    return ctx.fail("/asset", "'version' must be a string such as \"2.0\"");
  static const std::regex VERSION(R"(^([0-9]+)\.([0-9]+)$)");
  std::smatch match;
  const std::string text = version->get<std::string>();
  if (!std::regex_match(text, match, VERSION))
    return ctx.fail("/asset/version", "'" + text + "' is not of the form MAJOR.MINOR");
  if (match[1].str() != "2")
    return ctx.fail("/asset/version", "glTF " + text + " is not supported (only 2.x)");
  if (auto minVersion = asset->find("minVersion"); minVersion != asset->end()) {
    if (!minVersion->is_string() || !std::regex_match(minVersion->get<std::string>(), VERSION))
      return ctx.fail("/asset/minVersion", "must be a string of the form MAJOR.MINOR");
    if (minVersion->get<std::string>() > text)
      ctx.warn("/asset/minVersion", "is greater than version " + text + "; ignored");
  }
  return true;
}

bool checkExtensionLists(Context& ctx, const json& root) {
  for (const char* key : {"extensionsUsed", "extensionsRequired"}) {
    auto it = root.find(key);
    if (it == root.end()) continue;
    const std::string pointer = std::string("/") + key;
    if (!it->is_array()) return ctx.fail(pointer, "must be an array of strings");
    for (size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_string()) return ctx.fail(pointer + "/" + str(i), "must be a string");
    }
  }
  if (auto required = root.find("extensionsRequired"); required != root.end()) {
    // An asset that requires an extension the importer does not implement cannot be shown.
    for (size_t i = 0; i < required->size(); ++i) {
      const std::string name = (*required)[i].get<std::string>();
      if (std::find(std::begin(SUPPORTED_EXTENSIONS), std::end(SUPPORTED_EXTENSIONS), name) ==
          std::end(SUPPORTED_EXTENSIONS))
        return ctx.fail("/extensionsRequired/" + str(i),
                        "extension '" + name + "' is required but not supported");
    }
  }
  return checkExtensions(ctx, root, "");
}

bool checkMesh(Context& ctx, const json& mesh, const std::string& pointer) {
  auto primitives = mesh.find("primitives");
  if (primitives == mesh.end()) return ctx.fail(pointer, "property 'primitives' is required");
  if (!primitives->is_array() || primitives->empty())
    return ctx.fail(pointer + "/primitives", "must be a non-empty array");
  for (size_t p = 0; p < primitives->size(); ++p) {
    const json& primitive = (*primitives)[p];
    const std::string at = pointer + "/primitives/" + str(p);
    if (!primitive.is_object()) return ctx.fail(at, "must be a JSON object");
    auto attributes = primitive.find("attributes");
    if (attributes == primitive.end()) return ctx.fail(at, "property 'attributes' is required");
    if (!attributes->is_object() || attributes->empty())
      return ctx.fail(at + "/attributes", "must be a non-empty JSON object");
    for (const auto& [semantic, value] : attributes->items()) {
      if (!isInteger(value))
        return ctx.fail(at + "/attributes/" + pointerToken(semantic), "must be an accessor index");
      // JOINTS_n and WEIGHTS_n only make sense together (glTF 2.0 spec, 3.7.3.3).
      for (const auto& [have, need] : {std::pair{"JOINTS_", "WEIGHTS_"}, {"WEIGHTS_", "JOINTS_"}}) {
        if (semantic.rfind(have, 0) == 0 &&
            !attributes->contains(need + semantic.substr(std::strlen(have))))
          return ctx.fail(at + "/attributes/" + pointerToken(semantic),
                          semantic + " without " + need + semantic.substr(std::strlen(have)));
      }
    }
    if (auto targets = primitive.find("targets"); targets != primitive.end()) {
      if (!targets->is_array() || targets->empty())
        return ctx.fail(at + "/targets", "must be a non-empty array");
      for (size_t t = 0; t < targets->size(); ++t) {
        if (!(*targets)[t].is_object() || (*targets)[t].empty())
          return ctx.fail(at + "/targets/" + str(t), "must be a non-empty JSON object");
      }
    }
    for (const char* key : {"material", "mode"}) {
      if (!checkInteger(ctx, primitive, at, key, false, 0, UINT32_MAX)) return false;
    }
    if (!checkReference(ctx, primitive, at, "indices", "accessors")) return false;
    // Indices are read from their view: an accessor of zeros has none (tinygltf: "accessor[1]
    // invalid bufferView").
    if (auto indices = primitive.find("indices"); indices != primitive.end()) {
      const json& accessor = ctx.json.root["accessors"][indices->get<size_t>()];
      if (!accessor.contains("bufferView"))
        return ctx.fail(at + "/indices", "accessors[" + std::to_string(indices->get<size_t>()) +
                                             "] has no bufferView: indices need their data");
    }
  }
  return true;
}

bool checkCamera(Context& ctx, const json& camera, const std::string& pointer) {
  auto type = camera.find("type");
  if (type == camera.end() || !type->is_string())
    return ctx.fail(pointer, "'type' must be \"perspective\" or \"orthographic\"");
  const std::string name = type->get<std::string>();
  if (name != "perspective" && name != "orthographic")
    return ctx.fail(pointer + "/type", "'" + name + "' is not a camera type");
  const std::string other = name == "perspective" ? "orthographic" : "perspective";
  if (!camera.contains(name) || !camera[name].is_object())
    return ctx.fail(pointer, "'" + name + "' camera without its '" + name + "' object");
  if (camera.contains(other))
    return ctx.fail(pointer + "/" + other, "a " + name + " camera must not define '" + other + "'");
  return true;
}

bool checkBuffers(Context& ctx, const json& buffers) {
  uint64_t total = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const json& buffer = buffers[i];
    const std::string at = "/buffers/" + str(i);
    if (!checkInteger(ctx, buffer, at, "byteLength", true, 1, ctx.limits.maxBufferBytes))
      return false;
    total += buffer["byteLength"].get<uint64_t>();
    if (total > ctx.limits.maxTotalBufferBytes)
      return ctx.fail(at + "/byteLength", "buffers total more than the cap of " +
                                              std::to_string(ctx.limits.maxTotalBufferBytes) +
                                              " bytes");
    auto uri = buffer.find("uri");
    if (uri == buffer.end() && !(ctx.glb && i == 0))
      return ctx.fail(
          at, ctx.glb ? "only buffer 0 of a GLB may omit 'uri'" : "property 'uri' is required");
    if (uri != buffer.end()) {
      if (!uri->is_string()) return ctx.fail(at + "/uri", "must be a string");
      const std::string text = uri->get<std::string>();
      if (!checkUri(ctx, at + "/uri", text,
                    {"application/octet-stream", "application/gltf-buffer"}))
        return false;
      // A data: URI must hold byteLength bytes exactly (tinygltf: "Failed to decode 'uri'").
      if (isDataUri(text)) {
        const int64_t bytes = base64Bytes(std::string_view(text).substr(text.find(',') + 1));
        const uint64_t declared = buffer["byteLength"].get<uint64_t>();
        if (bytes < 0) return ctx.fail(at + "/uri", "the data: URI is not valid base64");
        if (uint64_t(bytes) != declared)
          return ctx.fail(at + "/uri", "the data: URI holds " + std::to_string(bytes) +
                                           " bytes, byteLength declares " +
                                           std::to_string(declared));
      }
    }
  }
  return true;
}

bool checkImages(Context& ctx, const json& images) {
  for (size_t i = 0; i < images.size(); ++i) {
    const json& image = images[i];
    const std::string at = "/images/" + str(i);
    auto uri = image.find("uri");
    const bool hasView = image.contains("bufferView");
    if ((uri == image.end()) == !hasView)
      return ctx.fail(at, "exactly one of 'uri' and 'bufferView' must be defined");
    if (hasView) {
      if (!checkReference(ctx, image, at, "bufferView", "bufferViews", true)) return false;
      if (!image.contains("mimeType"))
        return ctx.fail(at, "'mimeType' is required with 'bufferView'");
      continue;
    }
    if (!uri->is_string()) return ctx.fail(at + "/uri", "must be a string");
    const std::string text = uri->get<std::string>();
    if (!checkUri(ctx, at + "/uri", text, {"image/png", "image/jpeg"})) return false;
    if (isDataUri(text) && base64Bytes(std::string_view(text).substr(text.find(',') + 1)) < 0)
      return ctx.fail(at + "/uri", "the data: URI is not valid base64");
  }
  return true;
}

}  // namespace

std::string Context::at(const std::string& pointer) const {
  return json.where(nlohmann::json::json_pointer(pointer));
}

bool Context::fail(const std::string& pointer, const std::string& why) {
  if (error.empty()) error = at(pointer) + ": " + why;
  return false;
}

void Context::warn(const std::string& pointer, const std::string& why) {
  warnings.push_back(at(pointer) + ": " + why);
}

bool readTextureTransform(Context& ctx, const std::string& pointer, UvTransform* transform,
                          int* texCoord) {
  const std::string at = pointer + "/extensions/KHR_texture_transform";
  const json::json_pointer where(at);
  if (!ctx.json.root.contains(where)) return true;
  const json& extension = ctx.json.root.at(where);
  if (!extension.is_object()) return ctx.fail(at, "must be a JSON object");
  UvTransform read;
  if (!readFloatPair(ctx, extension, at, "offset", read.offset) ||
      !readFloatPair(ctx, extension, at, "scale", read.scale))
    return false;
  if (auto it = extension.find("rotation"); it != extension.end()) {
    if (!it->is_number() || !std::isfinite(static_cast<float>(it->get<double>())))
      return ctx.fail(at + "/rotation", "must be a finite number (radians)");
    read.rotation_rad = static_cast<float>(it->get<double>());
  }
  if (extension.contains("texCoord")) {
    if (!checkInteger(ctx, extension, at, "texCoord", false, 0, INT32_MAX)) return false;
    *texCoord = extension["texCoord"].get<int>();
  }
  *transform = read;
  return true;
}

bool checkJson(Context& ctx) {
  const json& root = ctx.json.root;
  if (!root.is_object()) return ctx.fail("", "the top level must be a JSON object");
  if (!checkAsset(ctx, root) || !checkExtensionLists(ctx, root)) return false;
  for (const char* key : COLLECTIONS) {
    auto it = root.find(key);
    if (it == root.end()) continue;
    const std::string pointer = std::string("/") + key;
    if (!it->is_array()) return ctx.fail(pointer, "must be an array");
    for (size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_object()) return ctx.fail(pointer + "/" + str(i), "must be a JSON object");
      if (!checkExtensions(ctx, (*it)[i], pointer + "/" + str(i))) return false;
    }
  }
  if (root.contains("nodes") && root["nodes"].size() > ctx.limits.maxNodes)
    return ctx.fail("/nodes", std::to_string(root["nodes"].size()) + " nodes exceed the cap of " +
                                  std::to_string(ctx.limits.maxNodes));
  if (root.contains("meshes")) {
    for (size_t i = 0; i < root["meshes"].size(); ++i) {
      if (!checkMesh(ctx, root["meshes"][i], "/meshes/" + str(i))) return false;
    }
  }
  if (root.contains("cameras")) {
    for (size_t i = 0; i < root["cameras"].size(); ++i) {
      if (!checkCamera(ctx, root["cameras"][i], "/cameras/" + str(i))) return false;
    }
  }
  if (root.contains("accessors")) {
    for (size_t i = 0; i < root["accessors"].size(); ++i) {
      const json& accessor = root["accessors"][i];
      const std::string at = "/accessors/" + str(i);
      if (!checkInteger(ctx, accessor, at, "count", true, 1, ctx.limits.maxAccessorCount) ||
          !checkReference(ctx, accessor, at, "bufferView", "bufferViews") ||
          !checkInteger(ctx, accessor, at, "byteOffset", false, 0, UINT32_MAX))
        return false;
    }
  }
  if (root.contains("bufferViews")) {
    // Offsets, lengths and strides are never negative (tinygltf read -8 as the default 0).
    for (size_t i = 0; i < root["bufferViews"].size(); ++i) {
      const json& view = root["bufferViews"][i];
      const std::string at = "/bufferViews/" + str(i);
      if (!checkReference(ctx, view, at, "buffer", "buffers", true) ||
          !checkInteger(ctx, view, at, "byteLength", true, 1, ctx.limits.maxBufferBytes) ||
          !checkInteger(ctx, view, at, "byteOffset", false, 0, ctx.limits.maxBufferBytes) ||
          !checkInteger(ctx, view, at, "byteStride", false, 4, 252))  // glTF 2.0, 5.11
        return false;
    }
  }
  if (root.contains("skins")) {
    for (size_t i = 0; i < root["skins"].size(); ++i) {
      const json& joints = root["skins"][i].value("joints", json());
      if (!joints.is_array() || joints.empty())
        return ctx.fail("/skins/" + str(i), "'joints' must be a non-empty array");
    }
  }
  if (root.contains("buffers") && !checkBuffers(ctx, root["buffers"])) return false;
  if (root.contains("images") && !checkImages(ctx, root["images"])) return false;
  return true;
}

}  // namespace world::gltf
