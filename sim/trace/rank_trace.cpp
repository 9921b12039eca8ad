// Builds a RankTrace from the streamed records: orders and classifies the GPU events, links each
// NCCL kernel to its collective's metadata and each GPU event to the step that launched it.
#include "sim/trace/rank_trace.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>

namespace sim::trace {
namespace {

// How far back a lookup walks among earlier-starting ranges of a thread for one that still
// encloses the time (nested annotations are shallow; this bounds the time on hostile input).
constexpr int ENCLOSING_WALK = 16;

struct Links {
  std::unordered_map<int64_t, uint32_t> launchByCorrelation;  // first launch of each id
  std::unordered_map<int64_t, uint32_t> rpcByExternalId, annotationByExternalId;
  std::vector<uint32_t> rpcs, annotations;  // indices into raw.ranges, by (thread, start)
  struct Step {
    int64_t number, start, end;
  };
  std::vector<Step> steps;  // by start
};

Links buildLinks(const RawTrace& raw) {
  Links links;
  for (uint32_t i = 0; i < raw.launches.size(); ++i) {
    links.launchByCorrelation.emplace(raw.launches[i].correlation, i);
  }
  std::map<int64_t, Links::Step> steps;
  for (uint32_t i = 0; i < raw.ranges.size(); ++i) {
    const RawCpuRange& r = raw.ranges[i];
    if (r.kind == CpuRangeKind::Step) {
      auto [it, fresh] = steps.emplace(r.step, Links::Step{r.step, r.start_ns, r.end_ns});
      if (!fresh) {  // the same step annotated twice (two threads): their union
        it->second.start = std::min(it->second.start, r.start_ns);
        it->second.end = std::max(it->second.end, r.end_ns);
      }
      continue;
    }
    const bool rpc = r.kind == CpuRangeKind::RecordParamComms;
    (rpc ? links.rpcs : links.annotations).push_back(i);
    if (r.externalId >= 0) {
      (rpc ? links.rpcByExternalId : links.annotationByExternalId).emplace(r.externalId, i);
    }
  }
  for (auto* list : {&links.rpcs, &links.annotations}) {
    // Ties broken by file order (index) so the order is deterministic without std::stable_sort
    // (see breakdown.cpp on why not).
    std::sort(list->begin(), list->end(), [&](uint32_t a, uint32_t b) {
      const RawCpuRange &x = raw.ranges[a], &y = raw.ranges[b];
      if (x.thread != y.thread) return x.thread < y.thread;
      return x.start_ns != y.start_ns ? x.start_ns < y.start_ns : a < b;
    });
  }
  for (const auto& [number, step] : steps) links.steps.push_back(step);
  std::sort(links.steps.begin(), links.steps.end(), [](const Links::Step& a, const Links::Step& b) {
    return a.start != b.start ? a.start < b.start : a.number < b.number;
  });
  return links;
}

// The innermost range in `sorted` on `thread` that encloses time `t`, or nullptr.
const RawCpuRange* enclosing(const RawTrace& raw, const std::vector<uint32_t>& sorted,
                             const ThreadKey& thread, int64_t t) {
  auto after = std::upper_bound(sorted.begin(), sorted.end(), std::make_pair(thread, t),
                                [&](const std::pair<ThreadKey, int64_t>& key, uint32_t i) {
                                  const RawCpuRange& r = raw.ranges[i];
                                  return key.first != r.thread ? key.first < r.thread
                                                               : key.second < r.start_ns;
                                });
  for (int walked = 0; after != sorted.begin() && walked < ENCLOSING_WALK; ++walked) {
    const RawCpuRange& r = raw.ranges[*--after];
    if (r.thread != thread) break;
    if (r.end_ns >= t) return &r;
  }
  return nullptr;
}

const RawLaunch* launchOf(const RawTrace& raw, const Links& links, const RawGpuEvent& g) {
  if (g.correlation < 0) return nullptr;
  auto it = links.launchByCorrelation.find(g.correlation);
  return it == links.launchByCorrelation.end() ? nullptr : &raw.launches[it->second];
}

int64_t stepOf(const Links& links, const RawLaunch* launch) {
  if (!launch || links.steps.empty()) return -1;
  auto it = std::upper_bound(links.steps.begin(), links.steps.end(), launch->ts_ns,
                             [](int64_t t, const Links::Step& s) { return t < s.start; });
  if (it == links.steps.begin()) return -1;
  --it;
  return launch->ts_ns <= it->end ? it->number : -1;
}

int64_t timesSize(int64_t count, int64_t elementBytes) {
  if (count < 0 || elementBytes <= 0) return -1;
  if (count > std::numeric_limits<int64_t>::max() / elementBytes) return -1;
  return count * elementBytes;
}

std::string nameOf(const RawTrace& raw, uint32_t id) {
  return id == NO_NAME ? std::string() : raw.names[id];
}

// "In msg nelems" x dtype size, else "Input Dims"[0] x "Input type"[0] size; -1 when neither.
int64_t messageBytes(const RawTrace& raw, const CommArgs& c) {
  const int64_t fromNelems =
      c.dtype == NO_NAME ? -1 : timesSize(c.inNelems, dtypeBytes(raw.names[c.dtype]));
  if (fromNelems >= 0) return fromNelems;
  return c.inputType == NO_NAME ? -1
                                : timesSize(c.inputElements, dtypeBytes(raw.names[c.inputType]));
}

Collective resolveCollective(const RawTrace& raw, const Links& links, const RawGpuEvent& g) {
  const CommArgs* own = g.comm == NO_NAME ? nullptr : &raw.comms[g.comm];
  const RawCpuRange *rpc = nullptr, *annotation = nullptr;
  if (g.externalId >= 0) {  // newer Kineto: the kernel's External id is its record_param_comms'
    if (auto it = links.rpcByExternalId.find(g.externalId); it != links.rpcByExternalId.end())
      rpc = &raw.ranges[it->second];
    if (auto it = links.annotationByExternalId.find(g.externalId);
        it != links.annotationByExternalId.end())
      annotation = &raw.ranges[it->second];
  }
  if (const RawLaunch* launch = launchOf(raw, links, g)) {  // else: the ranges around its launch
    if (!rpc) rpc = enclosing(raw, links.rpcs, launch->thread, launch->ts_ns);
    if (!annotation) annotation = enclosing(raw, links.annotations, launch->thread, launch->ts_ns);
  }
  const CommArgs* rpcArgs = rpc && rpc->comm != NO_NAME ? &raw.comms[rpc->comm] : nullptr;
  const CommArgs* annArgs =
      annotation && annotation->comm != NO_NAME ? &raw.comms[annotation->comm] : nullptr;

  Collective c;
  const std::string kernelName = nameOf(raw, g.name);
  struct Source {
    const CommArgs* args;
    const char* name;
  };
  const Source sources[] = {
      {own, "kernel args"}, {rpcArgs, "record_param_comms"}, {annArgs, "nccl annotation"}};
  for (const Source& s : sources) {
    if (c.kind.empty() && s.args && s.args->collective != NO_NAME) {
      c.kind = collectiveKind(raw.names[s.args->collective]);
      c.source = s.name;
    }
    if (c.bytes < 0 && s.args) {
      c.bytes = messageBytes(raw, *s.args);
      if (c.bytes >= 0) {
        c.bytesSource = s.name;
        c.dtype = nameOf(raw, s.args->dtype != NO_NAME ? s.args->dtype : s.args->inputType);
      }
    }
    if (c.groupSize < 0 && s.args) c.groupSize = s.args->groupSize;
  }
  if (c.kind.empty() && annotation) {
    c.kind = collectiveKind(raw.names[annotation->name]);
    c.source = "nccl annotation";
  }
  if (c.kind.empty()) {
    c.kind = collectiveFromKernelName(kernelName);
    c.source = c.kind.empty() ? "" : "kernel name";
  }
  if (c.kind.empty()) c.kind = "unknown";
  const AlgorithmProtocol fromName = algorithmProtocolFromKernelName(kernelName);
  c.algorithm = own && own->algorithm != NO_NAME ? raw.names[own->algorithm] : fromName.algorithm;
  c.protocol = own && own->protocol != NO_NAME ? raw.names[own->protocol] : fromName.protocol;
  return c;
}

}  // namespace

int64_t RankTrace::span_ns() const {
  int64_t end = 0;
  for (const GpuInterval& i : intervals) end = std::max(end, i.end_ns);
  return end;
}

const StepWindow* RankTrace::step(int64_t number) const {
  auto it = std::lower_bound(steps.begin(), steps.end(), number,
                             [](const StepWindow& s, int64_t n) { return s.number < n; });
  return it != steps.end() && it->number == number ? &*it : nullptr;
}

RankTrace buildRankTrace(RawTrace&& raw) {
  RankTrace out;
  out.file = raw.file;
  out.rankFromTrace = raw.rank >= 0 && raw.worldSize > 0;
  if (out.rankFromTrace) {
    out.rank = raw.rank;
    out.worldSize = raw.worldSize;
  }
  out.events = raw.events;
  out.gpuWithoutTime = raw.gpuWithoutTime;
  out.flowEvents = raw.flowEvents;
  const Links links = buildLinks(raw);

  std::vector<uint32_t> order(raw.gpu.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const RawGpuEvent &x = raw.gpu[a], &y = raw.gpu[b];
    if (x.start_ns != y.start_ns) return x.start_ns < y.start_ns;
    if (x.dur_ns != y.dur_ns) return x.dur_ns < y.dur_ns;
    if (x.device != y.device || x.stream != y.stream)
      return std::tie(x.device, x.stream) < std::tie(y.device, y.stream);
    return a < b;  // file order
  });
  out.originNs = order.empty() ? 0 : raw.gpu[order.front()].start_ns;

  std::map<std::pair<int64_t, int64_t>, uint32_t> streamIndex;
  std::map<int64_t, int64_t> eventsPerDevice;
  for (const RawGpuEvent& g : raw.gpu) {
    streamIndex.emplace(std::make_pair(g.device, g.stream), 0u);
    ++eventsPerDevice[g.device];
  }
  for (auto& [key, index] : streamIndex) {
    index = static_cast<uint32_t>(out.streams.size());
    out.streams.push_back({key.first, key.second});
  }
  int64_t busiest = 0;
  for (const auto& [device, count] : eventsPerDevice) {
    if (count > busiest) {
      busiest = count;
      out.deviceId = device;
    }
  }
  for (const DeviceProperty& d : raw.devices) {
    if (out.deviceId >= 0 && d.id == out.deviceId && !d.name.empty()) {
      out.device = d.name;
      break;
    }
  }

  std::vector<int8_t> kernelClass(raw.names.size(), -1);  // classification cached per name
  std::map<int64_t, StepWindow> steps;
  for (const Links::Step& s : links.steps) steps[s.number].number = s.number;
  out.intervals.reserve(order.size());
  for (uint32_t index : order) {
    const RawGpuEvent& g = raw.gpu[index];
    GpuInterval iv;
    iv.start_ns = g.start_ns - out.originNs;
    iv.end_ns = iv.start_ns + g.dur_ns;
    iv.stream = streamIndex[{g.device, g.stream}];
    iv.name = g.name;
    iv.bytes = g.bytes;
    if (g.kind == GpuEventKind::Memcpy) {
      iv.cls = GpuClass::Memcpy;
    } else if (g.kind == GpuEventKind::Memset) {
      iv.cls = GpuClass::Memset;
    } else {
      int8_t& cached = kernelClass[g.name];
      if (cached < 0) cached = static_cast<int8_t>(classifyKernel(raw.names[g.name]));
      iv.cls = static_cast<GpuClass>(cached);
    }
    if (iv.cls == GpuClass::Communication) {
      out.collectives.push_back(resolveCollective(raw, links, g));
      iv.collective = static_cast<int32_t>(out.collectives.size() - 1);
      iv.bytes = out.collectives.back().bytes;
    }
    iv.step = stepOf(links, launchOf(raw, links, g));
    if (iv.step >= 0) {
      StepWindow& w = steps[iv.step];
      w.start_ns = w.gpuEvents == 0 ? iv.start_ns : std::min(w.start_ns, iv.start_ns);
      w.end_ns = std::max(w.end_ns, iv.end_ns);
      ++w.gpuEvents;
    }
    out.intervals.push_back(iv);
  }
  for (const auto& [number, window] : steps) out.steps.push_back(window);
  out.names = std::move(raw.names);
  return out;
}

Result<RankTrace> loadRankTrace(const std::filesystem::path& path, const ReadLimits& limits) {
  auto raw = readKinetoFile(path, limits);
  if (!raw) return Result<RankTrace>::failure(raw.error());
  return buildRankTrace(std::move(*raw));
}

uint64_t heldBytes(const RankTrace& rank) {
  uint64_t bytes = sizeof(RankTrace) + rank.file.capacity() + rank.device.capacity();
  bytes += rank.streams.capacity() * sizeof(GpuStream);
  bytes += rank.intervals.capacity() * sizeof(GpuInterval);
  bytes += rank.steps.capacity() * sizeof(StepWindow);
  bytes += rank.collectives.capacity() * sizeof(Collective);
  for (const Collective& c : rank.collectives) {
    bytes += c.kind.capacity() + c.algorithm.capacity() + c.protocol.capacity() +
             c.dtype.capacity() + c.source.capacity() + c.bytesSource.capacity();
  }
  bytes += rank.names.capacity() * sizeof(std::string);
  for (const std::string& name : rank.names) bytes += name.capacity();
  return bytes;
}

Result<std::vector<RankTrace>> loadRankTraces(const std::vector<std::string>& files,
                                              ReadLimits limits) {
  using R = Result<std::vector<RankTrace>>;
  std::vector<RankTrace> ranks;
  for (const std::string& file : files) {
    auto rank = loadRankTrace(file, limits);
    if (!rank) return R::failure(rank.error());
    limits.recordBytesHeld += heldBytes(*rank);
    ranks.push_back(std::move(*rank));
  }
  return ranks;
}

std::string rankSetError(const std::vector<RankTrace>& ranks) {
  std::map<int64_t, const RankTrace*> byRank;
  for (const RankTrace& r : ranks) {
    if (r.worldSize != ranks.front().worldSize) {
      return r.file + ": world_size " + std::to_string(r.worldSize) + " differs from " +
             ranks.front().file + "'s " + std::to_string(ranks.front().worldSize);
    }
    if (r.rank < 0 || r.rank >= r.worldSize)
      return r.file + ": rank " + std::to_string(r.rank) + " outside its world";
    const auto [it, fresh] = byRank.emplace(r.rank, &r);
    if (!fresh) return r.file + ": rank " + std::to_string(r.rank) + " is also " + it->second->file;
  }
  return "";
}

void fillMissingRanks(std::vector<RankTrace>& ranks) {
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i].rankFromTrace) continue;
    ranks[i].rank = static_cast<int64_t>(i);
    ranks[i].worldSize = static_cast<int64_t>(ranks.size());
  }
}

}  // namespace sim::trace
