#include "sim/trace/classify.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace sim::trace {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool containsAny(const std::string& haystack, std::initializer_list<std::string_view> needles) {
  for (std::string_view n : needles) {
    if (haystack.find(n) != std::string::npos) return true;
  }
  return false;
}

// The part of an NCCL kernel name after its prefix and before the argument list.
std::string_view ncclBody(std::string_view name) {
  for (std::string_view prefix : {"ncclDevKernel_", "ncclKernel_"}) {
    const size_t at = name.find(prefix);
    if (at != std::string_view::npos) {
      std::string_view body = name.substr(at + prefix.size());
      return body.substr(0, body.find('('));
    }
  }
  return {};
}

std::vector<std::string_view> tokens(std::string_view body) {
  std::vector<std::string_view> out;
  while (!body.empty()) {
    const size_t cut = body.find('_');
    out.push_back(body.substr(0, cut));
    if (cut == std::string_view::npos) break;
    body.remove_prefix(cut + 1);
  }
  return out;
}

}  // namespace

const char* gpuClassName(GpuClass c) {
  switch (c) {
    case GpuClass::Gemm:
      return "gemm";
    case GpuClass::Attention:
      return "attention";
    case GpuClass::OtherCompute:
      return "other_compute";
    case GpuClass::Communication:
      return "communication";
    case GpuClass::Memcpy:
      return "memcpy";
    case GpuClass::Memset:
      return "memset";
  }
  return "other_compute";
}

bool isNcclKernel(std::string_view name) {
  return name.find("ncclKernel") != std::string_view::npos ||
         name.find("ncclDevKernel") != std::string_view::npos;
}

GpuClass classifyKernel(std::string_view name) {
  if (isNcclKernel(name)) return GpuClass::Communication;
  const std::string l = lower(name);
  // Attention first: fused attention kernels are often built on CUTLASS ("fmha_cutlassF").
  if (containsAny(l, {"flash", "fmha", "attention", "attn", "sdpa", "mha_", "xformers"}))
    return GpuClass::Attention;
  if (containsAny(l, {"gemm", "cutlass", "cublas", "nvjet", "xmma", "scudnn", "dgrad", "wgrad",
                      "fprop", "convolution", "winograd", "matmul", "triton_tem"}) ||
      name.find("Cijk_") != std::string_view::npos)
    return GpuClass::Gemm;
  return GpuClass::OtherCompute;
}

std::string collectiveKind(std::string_view text) {
  std::string s;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  // Longer names first: "allreduce" before "reduce", "sendrecv" before "send".
  static constexpr std::array<std::string_view, 12> KINDS = {
      "allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "sendrecv",
      "barrier",   "reduce",    "gather",        "scatter",  "send",      "recv"};
  for (std::string_view kind : KINDS) {
    if (s.find(kind) != std::string::npos) return std::string(kind);
  }
  if (s.size() > 32) s.resize(32);
  return s;
}

std::string collectiveFromKernelName(std::string_view name) {
  const std::vector<std::string_view> parts = tokens(ncclBody(name));
  if (parts.empty() || parts[0] == "Generic") return "";
  const std::string kind = collectiveKind(parts[0]);
  return kind;
}

AlgorithmProtocol algorithmProtocolFromKernelName(std::string_view name) {
  AlgorithmProtocol out;
  const std::vector<std::string_view> parts = tokens(ncclBody(name));
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string_view t = parts[i];
    const std::string_view next = i + 1 < parts.size() ? parts[i + 1] : std::string_view();
    if (out.algorithm.empty()) {
      if (t == "COLLNET" && (next == "DIRECT" || next == "CHAIN")) {
        out.algorithm = "COLLNET_" + std::string(next);
        ++i;
        continue;
      }
      if (t == "NVLS" && next == "TREE") {
        out.algorithm = "NVLS_TREE";
        ++i;
        continue;
      }
      if (t == "RING" || t == "TREE" || t == "COLLNET" || t == "NVLS" || t == "PAT") {
        out.algorithm = std::string(t);
        continue;
      }
    }
    if (out.protocol.empty() && (t == "LL" || t == "LL128" || t == "SIMPLE")) {
      out.protocol = std::string(t);
    }
  }
  return out;
}

int64_t dtypeBytes(std::string_view dtype) {
  std::string s = lower(dtype);
  for (std::string_view prefix : {"c10::", "at::", "torch."}) {
    if (s.rfind(prefix, 0) == 0) s.erase(0, prefix.size());
  }
  struct Size {
    std::string_view name;
    int64_t bytes;
  };
  static constexpr Size SIZES[] = {{"byte", 1},
                                   {"char", 1},
                                   {"bool", 1},
                                   {"int8", 1},
                                   {"uint8", 1},
                                   {"int8_t", 1},
                                   {"uint8_t", 1},
                                   {"unsigned char", 1},
                                   {"signed char", 1},
                                   {"float8_e4m3fn", 1},
                                   {"float8_e5m2", 1},
                                   {"float8_e4m3fnuz", 1},
                                   {"float8_e5m2fnuz", 1},
                                   {"half", 2},
                                   {"bfloat16", 2},
                                   {"float16", 2},
                                   {"short", 2},
                                   {"int16", 2},
                                   {"uint16", 2},
                                   {"float", 4},
                                   {"float32", 4},
                                   {"int", 4},
                                   {"int32", 4},
                                   {"uint32", 4},
                                   {"unsigned int", 4},
                                   {"complexhalf", 4},
                                   {"double", 8},
                                   {"float64", 8},
                                   {"long", 8},
                                   {"long int", 8},
                                   {"int64", 8},
                                   {"uint64", 8},
                                   {"long long", 8},
                                   {"unsigned long", 8},
                                   {"complexfloat", 8},
                                   {"complexdouble", 16}};
  for (const Size& size : SIZES) {
    if (s == size.name) return size.bytes;
  }
  return 0;
}

}  // namespace sim::trace
