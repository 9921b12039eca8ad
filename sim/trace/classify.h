// What a GPU event is, from its category and kernel name, and what an NCCL call is, from the
// names and metadata Kineto writes. The patterns are listed (and argued) in docs/trace.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sim::trace {

/// The class of a GPU event. Compute = Gemm, Attention and OtherCompute (every non-NCCL kernel).
enum class GpuClass : uint8_t { Gemm, Attention, OtherCompute, Communication, Memcpy, Memset };
inline constexpr int GPU_CLASS_COUNT = 6;

/// "gemm", "attention", "other_compute", "communication", "memcpy", "memset".
const char* gpuClassName(GpuClass c);
inline bool isCompute(GpuClass c) {
  return c <= GpuClass::OtherCompute;
}

/// An NCCL (or RCCL) kernel: the name contains "ncclKernel" (NCCL <= 2.18, what HTA matches) or
/// "ncclDevKernel" (NCCL >= 2.19 and RCCL).
bool isNcclKernel(std::string_view kernelName);
/// A kernel's class by name: NCCL first, then attention, then GEMM patterns, else other compute.
GpuClass classifyKernel(std::string_view kernelName);

/// A collective's kind, canonical ("allreduce", "allgather", "reducescatter", "alltoall",
/// "broadcast", "reduce", "sendrecv", "send", "recv", "barrier", "gather", "scatter"), from any
/// spelling Kineto uses: "allreduce", "all_reduce", "_allgather_base", "all_to_all" ...; other
/// text comes back lower-cased (at most 32 characters); "" from "".
std::string collectiveKind(std::string_view text);
/// The kind named in an NCCL kernel's name ("ncclKernel_AllReduce_RING_LL_Sum_float(...)"
/// -> "allreduce"); "" when the name does not say (ncclDevKernel_Generic).
std::string collectiveFromKernelName(std::string_view kernelName);

struct AlgorithmProtocol {
  std::string algorithm;  // RING, TREE, COLLNET_DIRECT, COLLNET_CHAIN, NVLS, NVLS_TREE, PAT
  std::string protocol;   // LL, LL128, SIMPLE
};
/// The algorithm and protocol an NCCL kernel's name carries ("..._RING_LL_..."); "" when absent.
AlgorithmProtocol algorithmProtocolFromKernelName(std::string_view kernelName);

/// Bytes per element of a data type as Kineto names it: NCCL metadata "dtype" (c10 ScalarType
/// names: Float, Half, BFloat16, Long ...) or an "Input type" (float, c10::Half, unsigned char
/// ...); 0 when unknown (TensorList, Scalar, "").
int64_t dtypeBytes(std::string_view dtype);

}  // namespace sim::trace
