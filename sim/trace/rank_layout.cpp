#include "sim/trace/rank_layout.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

#include "sim/input_file.h"

namespace sim::trace {
namespace {

constexpr int64_t MAX_DEGREE = int64_t(1) << 24;  // the world size's own cap (limits.h)
constexpr std::streamsize MAX_MAP_BYTES = 16 << 20;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

bool parseInt(std::string_view text, int64_t& out) {
  text = trim(text);
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('\'');
  out.append(text);
  out.push_back('\'');
  return out;
}

}  // namespace

Result<RankLayout> parseRankLayout(std::string_view text) {
  RankLayout layout;
  layout.order.clear();
  if (trim(text).empty()) return Result<RankLayout>::failure("empty layout (e.g. tp=8,pp=2,dp=8)");
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view part = trim(text.substr(start, comma - start));
    const size_t eq = part.find('=');
    const std::string name(trim(part.substr(0, eq)));
    int64_t value = 0;
    if (eq == std::string_view::npos || (name != "tp" && name != "pp" && name != "dp")) {
      return Result<RankLayout>::failure(quoted(part) + ": expected tp=N, pp=N or dp=N");
    }
    if (!parseInt(part.substr(eq + 1), value) || value < 1 || value > MAX_DEGREE) {
      return Result<RankLayout>::failure(quoted(part) + ": " + name +
                                         " must be an integer in 1..16777216");
    }
    if (std::find(layout.order.begin(), layout.order.end(), name) != layout.order.end()) {
      return Result<RankLayout>::failure(name + " given twice");
    }
    layout.order.push_back(name);
    (name == "tp" ? layout.tp : name == "pp" ? layout.pp : layout.dp) = value;
    start = comma + 1;
  }
  // Dimensions left out are 1; put them last (slowest), in Megatron's order.
  for (const char* name : {"tp", "dp", "pp"}) {
    if (std::find(layout.order.begin(), layout.order.end(), name) == layout.order.end()) {
      layout.order.push_back(name);
    }
  }
  return layout;
}

Result<std::vector<uint32_t>> identityPlacement(int64_t worldSize, uint32_t gpuCount,
                                                uint32_t firstGpu) {
  if (worldSize < 1 || worldSize > gpuCount) {
    return Result<std::vector<uint32_t>>::failure(
        "the trace's world size " + std::to_string(worldSize) + " is larger than the cluster's " +
        std::to_string(gpuCount) + " GPUs (choose a larger --scenario or fewer ranks)");
  }
  std::vector<uint32_t> gpus(static_cast<size_t>(worldSize));
  for (size_t r = 0; r < gpus.size(); ++r) {
    gpus[r] = static_cast<uint32_t>((uint64_t{firstGpu} + r) % gpuCount);
  }
  return gpus;
}

Result<std::vector<uint32_t>> placeRanks(int64_t worldSize, const RankLayout& layout,
                                         uint32_t gpusPerDomain, uint32_t gpuCount) {
  using R = Result<std::vector<uint32_t>>;
  const double product = double(layout.tp) * double(layout.pp) * double(layout.dp);
  if (product != double(worldSize)) {
    return R::failure("tp x pp x dp = " + std::to_string(int64_t(product)) +
                      " but the trace's world size is " + std::to_string(worldSize));
  }
  if (gpusPerDomain == 0 || layout.tp > gpusPerDomain) {
    return R::failure("tp=" + std::to_string(layout.tp) + " is larger than the cluster's NVLink " +
                      "domain of " + std::to_string(gpusPerDomain) + " GPUs");
  }
  // TP groups packed domain by domain, none straddling two domains.
  const int64_t groupsPerDomain = gpusPerDomain / layout.tp;
  const int64_t groups = layout.pp * layout.dp;
  const int64_t domains = (groups + groupsPerDomain - 1) / groupsPerDomain;
  const int64_t lastGpu =
      (domains - 1) * gpusPerDomain + ((groups - 1) % groupsPerDomain + 1) * layout.tp;
  if (lastGpu > gpuCount) {
    return R::failure("the layout needs " + std::to_string(lastGpu) + " GPUs with each TP group " +
                      "inside an NVLink domain; the cluster has " + std::to_string(gpuCount));
  }
  std::vector<uint32_t> gpus(static_cast<size_t>(worldSize));
  for (int64_t rank = 0; rank < worldSize; ++rank) {
    // The rank's coordinates, its dimensions fastest first as the layout orders them.
    int64_t rest = rank, tpi = 0, ppi = 0, dpi = 0;
    for (const std::string& name : layout.order) {
      const int64_t size = name == "tp" ? layout.tp : name == "pp" ? layout.pp : layout.dp;
      (name == "tp" ? tpi : name == "pp" ? ppi : dpi) = rest % size;
      rest /= size;
    }
    const int64_t group = ppi * layout.dp + dpi;  // a stage's replicas side by side
    const int64_t gpu =
        (group / groupsPerDomain) * gpusPerDomain + (group % groupsPerDomain) * layout.tp + tpi;
    gpus[static_cast<size_t>(rank)] = static_cast<uint32_t>(gpu);
  }
  return gpus;
}

Result<std::vector<uint32_t>> readRankMapFile(const std::filesystem::path& path, int64_t worldSize,
                                              uint32_t gpuCount) {
  using R = Result<std::vector<uint32_t>>;
  const std::string name = path.string();
  if (std::string why = regularFileError(path); !why.empty()) return R::failure(name + ": " + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) return R::failure(name + ": cannot be read");
  std::string text(static_cast<size_t>(MAX_MAP_BYTES) + 1, '\0');
  in.read(text.data(), MAX_MAP_BYTES + 1);
  text.resize(static_cast<size_t>(in.gcount()));
  if (static_cast<std::streamsize>(text.size()) > MAX_MAP_BYTES) {
    return R::failure(name + ": larger than 16 MiB");
  }
  if (worldSize < 1 || worldSize > gpuCount) {
    return R::failure(name + ": the trace's world size " + std::to_string(worldSize) +
                      " does not fit the cluster's " + std::to_string(gpuCount) + " GPUs");
  }
  std::vector<int64_t> gpuOf(static_cast<size_t>(worldSize), -1);
  std::vector<int64_t> rankOn;  // by GPU, the rank already there (grown on demand)
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string where = name + ":" + std::to_string(number) + ": ";
    std::string_view body = line;
    body = trim(body.substr(0, body.find('#')));
    if (body.empty()) continue;
    const size_t space = body.find_first_of(" \t");
    int64_t rank = 0, gpu = 0;
    if (space == std::string_view::npos || !parseInt(body.substr(0, space), rank) ||
        !parseInt(body.substr(space), gpu)) {
      return R::failure(where + "expected \"RANK GPU\" (two integers)");
    }
    if (rank < 0 || rank >= worldSize) {
      return R::failure(where + "rank " + std::to_string(rank) + " outside the world of " +
                        std::to_string(worldSize));
    }
    if (gpu < 0 || gpu >= gpuCount) {
      return R::failure(where + "GPU " + std::to_string(gpu) + " outside the cluster's " +
                        std::to_string(gpuCount) + " GPUs");
    }
    if (gpuOf[static_cast<size_t>(rank)] >= 0) {
      return R::failure(where + "rank " + std::to_string(rank) + " given twice");
    }
    if (rankOn.size() <= static_cast<size_t>(gpu)) rankOn.resize(static_cast<size_t>(gpu) + 1, -1);
    if (rankOn[static_cast<size_t>(gpu)] >= 0) {
      return R::failure(where + "GPU " + std::to_string(gpu) + " already holds rank " +
                        std::to_string(rankOn[static_cast<size_t>(gpu)]));
    }
    gpuOf[static_cast<size_t>(rank)] = gpu;
    rankOn[static_cast<size_t>(gpu)] = rank;
  }
  std::vector<uint32_t> gpus(gpuOf.size());
  for (size_t r = 0; r < gpuOf.size(); ++r) {
    if (gpuOf[r] < 0) return R::failure(name + ": rank " + std::to_string(r) + " has no GPU");
    gpus[r] = static_cast<uint32_t>(gpuOf[r]);
  }
  return gpus;
}

}  // namespace sim::trace
