// Where the ranks of a traced job sit on the cluster dcwalk shows: a rank -> GPU map, from the
// trace's world size and either a parallel layout (`tp=8,pp=2,dp=8`) or a file naming each rank's
// GPU. Without either, rank r runs on GPU r (the engine's GpuId order: rack by rack, tray by tray,
// slot by slot). See docs/trace.md "Replay".
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sim/result.h"

namespace sim::trace {

/// A parallel layout of the traced job. `order` lists the dimensions fastest first as the flag
/// wrote them ("tp", "dp", "pp": Megatron-LM's default rank order, tensor-parallel ranks
/// consecutive); a dimension the flag leaves out is 1 and slowest.
struct RankLayout {
  int64_t tp = 1, pp = 1, dp = 1;
  std::vector<std::string> order;  // fastest first; always holds all three
};

/// Parses "tp=8,pp=2,dp=8" (any order, each at most once, each in 1..2^24). Errors name the
/// part that is wrong.
Result<RankLayout> parseRankLayout(std::string_view text);

/// GPU of every rank 0..worldSize-1 under `layout` on a cluster of `gpuCount` GPUs in NVLink
/// domains of `gpusPerDomain`: each tensor-parallel group lies inside one domain (groups are
/// packed domain by domain, a domain's leftover GPUs stay free), data-parallel replicas of a
/// stage next to each other, pipeline stages after them. Refused when tp x pp x dp is not the
/// world size, when a TP group is larger than a domain, or when the job does not fit.
Result<std::vector<uint32_t>> placeRanks(int64_t worldSize, const RankLayout& layout,
                                         uint32_t gpusPerDomain, uint32_t gpuCount);

/// Rank r on GPU (firstGpu + r) mod gpuCount (firstGpu: where the viewer looks first, e.g. the
/// hero rack's open tray); refused when the world is larger than the cluster.
Result<std::vector<uint32_t>> identityPlacement(int64_t worldSize, uint32_t gpuCount,
                                                uint32_t firstGpu = 0);

/// A rank -> GPU file: one "RANK GPU" pair of integers a line; '#' starts a comment; blank lines
/// are skipped. Every rank 0..worldSize-1 exactly once, each GPU below `gpuCount` at most once.
/// Errors name the file and line. At most 16 MiB are read.
Result<std::vector<uint32_t>> readRankMapFile(const std::filesystem::path& path, int64_t worldSize,
                                              uint32_t gpuCount);

}  // namespace sim::trace
