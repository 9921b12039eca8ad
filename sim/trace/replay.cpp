#include "sim/trace/replay.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "sim/calc/collectives.h"

namespace sim::trace {
namespace {

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  text.erase(std::remove_if(text.begin(), text.end(), [](char c) { return c == ' '; }), text.end());
  return text;
}

// The model in a catalog display name: its first word with both letters and digits ("H100" of
// "NVIDIA H100 SXM5 80GB", "MI300X" of "AMD Instinct MI300X"); and its capacity ("80GB"), if any.
void modelAndCapacity(const std::string& name, std::string& model, std::string& capacity) {
  model.clear();
  capacity.clear();
  size_t start = 0;
  while (start < name.size()) {
    const size_t end = std::min(name.find(' ', start), name.size());
    const std::string word = name.substr(start, end - start);
    const bool digit =
        std::any_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
    const bool alpha = std::any_of(word.begin(), word.end(), [](char c) {
      return std::isalpha(static_cast<unsigned char>(c)) != 0;
    });
    const std::string u = upper(word);
    if (digit && u.size() > 2 && u.compare(u.size() - 2, 2, "GB") == 0) {
      capacity = u;
    } else if (digit && alpha && model.empty()) {
      model = u;
    }
    start = end + 1;
  }
}

std::optional<calc::Collective> calcCollective(const std::string& kind) {
  if (kind == "allreduce") return calc::Collective::AllReduce;
  if (kind == "allgather") return calc::Collective::AllGather;
  if (kind == "reducescatter") return calc::Collective::ReduceScatter;
  if (kind == "alltoall") return calc::Collective::AllToAll;
  if (kind == "broadcast") return calc::Collective::Broadcast;
  if (kind == "reduce") return calc::Collective::Reduce;
  return std::nullopt;
}

}  // namespace

ByteFlow::ByteFlow(std::vector<Event> events) {
  // Rate changes at each start and end; sorted, summed, integrated once.
  std::vector<std::pair<int64_t, double>> changes;
  std::vector<std::pair<int64_t, double>> instants;
  for (const Event& e : events) {
    if (!(e.bytes > 0)) continue;
    if (e.end_ns <= e.start_ns) {
      instants.push_back({e.start_ns, e.bytes});
      continue;
    }
    const double rate = e.bytes / static_cast<double>(e.end_ns - e.start_ns);
    changes.push_back({e.start_ns, rate});
    changes.push_back({e.end_ns, -rate});
  }
  // An instant is a 1 ns event: its bytes arrive at once, as far as any window can tell.
  for (const auto& [t, bytes] : instants) {
    changes.push_back({t, bytes});
    changes.push_back({t + 1, -bytes});
  }
  std::sort(changes.begin(), changes.end());
  double rate = 0, before = 0;
  for (size_t i = 0; i < changes.size();) {
    const int64_t t = changes[i].first;
    if (!m_times.empty()) before += rate * static_cast<double>(t - m_times.back());
    for (; i < changes.size() && changes[i].first == t; ++i) rate += changes[i].second;
    rate = std::max(rate, 0.0);  // sums of +r and -r may leave a rounding residue
    m_times.push_back(t);
    m_rate.push_back(rate);
    m_before.push_back(before);
  }
}

double ByteFlow::bytesBefore(int64_t t) const {
  auto it = std::upper_bound(m_times.begin(), m_times.end(), t);
  if (it == m_times.begin()) return 0.0;
  const size_t k = static_cast<size_t>(it - m_times.begin()) - 1;
  return m_before[k] + m_rate[k] * static_cast<double>(t - m_times[k]);
}

double ByteFlow::bytesIn(int64_t from, int64_t to) const {
  if (to <= from) return 0.0;
  return std::max(0.0, bytesBefore(to) - bytesBefore(from));
}

double wireBytes(const std::string& kind, double inputBytes, int64_t ranks) {
  if (!(inputBytes > 0)) return 0.0;
  const auto op = calcCollective(kind);
  if (!op || ranks < 2) return op ? 0.0 : inputBytes;
  const double buffer =
      *op == calc::Collective::AllGather ? inputBytes * double(ranks) : inputBytes;
  return buffer * calc::busBwFactor(*op, int(std::min<int64_t>(ranks, 1 << 24)));
}

std::string deviceNote(const std::string& traceDevice, const std::string& clusterGpu,
                       const std::vector<std::string>& catalogGpus) {
  const std::string traced = upper(traceDevice);
  for (const std::string& name : catalogGpus) {
    std::string model, capacity;
    modelAndCapacity(name, model, capacity);
    if (model.empty() || traced.find(model) == std::string::npos) continue;
    if (!capacity.empty() && traced.find(capacity) == std::string::npos) continue;
    return "";
  }
  if (traceDevice == "unknown" || traceDevice.empty()) {
    return "the trace names no device (no deviceProperties); replayed on " + clusterGpu;
  }
  return "traced on " + traceDevice + ", which the catalog lacks; replayed on " + clusterGpu +
         " as measured (kernel times are not rescaled)";
}

Result<Replay> Replay::create(std::vector<RankTrace> ranks, std::vector<uint32_t> gpuOfRank,
                              const engine::Cluster& cluster) {
  using R = Result<Replay>;
  if (ranks.empty()) return R::failure("no trace files");
  if (std::string why = rankSetError(ranks); !why.empty()) return R::failure(why);
  Replay replay;
  replay.m_worldSize = ranks.front().worldSize;
  if (gpuOfRank.size() != static_cast<size_t>(replay.m_worldSize)) {
    return R::failure("the rank map has " + std::to_string(gpuOfRank.size()) +
                      " ranks; the traces' world has " + std::to_string(replay.m_worldSize));
  }
  for (uint32_t gpu : gpuOfRank) {
    if (gpu >= cluster.gpuCount()) {
      return R::failure("GPU " + std::to_string(gpu) + " of the rank map is not in the cluster's " +
                        std::to_string(cluster.gpuCount()) + " GPUs");
    }
  }
  // One clock: the earliest first GPU event of any rank (CPU-only ranks do not set it).
  int64_t origin = std::numeric_limits<int64_t>::max();
  for (const RankTrace& r : ranks) {
    if (!r.intervals.empty()) origin = std::min(origin, r.originNs);
  }
  if (origin == std::numeric_limits<int64_t>::max()) origin = 0;
  for (RankTrace& r : ranks) {
    const int64_t offset = r.intervals.empty() ? 0 : r.originNs - origin;
    replay.m_offset_ns.push_back(offset);
    replay.m_span_ns = std::max(replay.m_span_ns, offset + r.span_ns());
    replay.m_gpus.push_back(gpuOfRank[static_cast<size_t>(r.rank)]);
    std::vector<ByteFlow::Event> hbm, nvlink, fabric;
    for (const GpuInterval& iv : r.intervals) {
      if (iv.bytes <= 0) continue;
      const ByteFlow::Event e{iv.start_ns + offset, iv.end_ns + offset, double(iv.bytes)};
      hbm.push_back(e);
      if (iv.cls != GpuClass::Communication || iv.collective < 0) continue;
      const Collective& c = r.collectives[static_cast<size_t>(iv.collective)];
      const int64_t group = c.groupSize > 0 ? c.groupSize : r.worldSize;
      ByteFlow::Event wire = e;
      wire.bytes = wireBytes(c.kind, double(iv.bytes), group);
      (group <= int64_t(cluster.gpusPerRack) ? nvlink : fabric).push_back(wire);
    }
    replay.m_flows.push_back({ActivityIndex(r), ByteFlow(std::move(hbm)),
                              ByteFlow(std::move(nvlink)), ByteFlow(std::move(fabric))});
  }
  replay.m_traces = std::move(ranks);
  return replay;
}

std::optional<int64_t> Replay::stepStart_ns(int64_t number) const {
  std::optional<int64_t> start;
  for (size_t i = 0; i < m_traces.size(); ++i) {
    const StepWindow* w = m_traces[i].step(number);
    if (!w || w->gpuEvents == 0) continue;
    const int64_t t = w->start_ns + m_offset_ns[i];
    start = start ? std::min(*start, t) : t;
  }
  return start;
}

std::vector<int64_t> Replay::stepNumbers() const {
  std::vector<int64_t> numbers;
  for (const RankTrace& r : m_traces) {
    for (const StepWindow& w : r.steps) numbers.push_back(w.number);
  }
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  return numbers;
}

GpuActivity Replay::activity(size_t i, int64_t from, int64_t to) const {
  GpuActivity a;
  if (to <= from || i >= m_flows.size()) return a;
  const RankFlows& f = m_flows[i];
  const int64_t lf = from - m_offset_ns[i], lt = to - m_offset_ns[i];  // the rank's own clock
  const double window_s = static_cast<double>(to - from) * 1e-9;
  a.tensor = f.activity.tensorFraction(lf, lt);
  a.compute = f.activity.computeFraction(lf, lt);
  a.communication = f.activity.busyFraction(GpuClass::Communication, lf, lt);
  a.hbm_Bps = f.hbm.bytesIn(from, to) / window_s;
  a.nvlink_Bps = f.nvlink.bytesIn(from, to) / window_s;
  a.fabric_Bps = f.fabric.bytesIn(from, to) / window_s;
  return a;
}

void Replay::apply(int64_t from, int64_t to, engine::Snapshot& s) {
  const engine::Cluster& c = *s.cluster;
  m_utilisation.assign(c.gpuCount(), 0.0f);
  m_hbm.assign(c.gpuCount(), 0.0f);
  m_noData.assign(c.gpuCount(), 1);
  m_links.assign(c.linkCount(), 0.0f);
  const uint32_t up = c.leaves > 0 ? uint32_t(c.leafUplinks.size() / c.leaves) : 0;
  double nvlinkBytes = 0;
  for (size_t i = 0; i < m_flows.size(); ++i) {
    const uint32_t g = m_gpus[i];
    if (g >= c.gpuCount()) continue;
    const GpuActivity a = activity(i, from, to);
    m_noData[g] = 0;
    m_utilisation[g] = float(a.tensor);
    m_hbm[g] = float(a.hbm_Bps);
    nvlinkBytes += m_flows[i].nvlink.bytesBefore(to);
    if (a.fabric_Bps <= 0) continue;
    // Out through the GPU's NIC cable, then spread evenly over its leaf's uplinks (ECMP).
    const uint32_t nic = c.gpuLink[g];
    m_links[nic] += float(a.fabric_Bps / c.links[nic].capacity_Bps);
    const uint32_t leaf = c.gpuLeaf[g];
    for (uint32_t j = 0; j < up; ++j) {
      const uint32_t link = c.leafUplinks[size_t{leaf} * up + j];
      m_links[link] += float(a.fabric_Bps / up / c.links[link].capacity_Bps);
    }
  }
  float maxLink = 0;
  for (float& u : m_links) {
    u = std::min(u, 1.0f);
    maxLink = std::max(maxLink, u);
  }
  s.gpuUtilisation = m_utilisation;
  s.gpuHbm_Bps = m_hbm;
  s.gpuNoData = m_noData;
  s.linkUtilisation = m_links;
  s.time_s = static_cast<double>(to) * 1e-9;
  s.aggregates.time_s = s.time_s;
  s.aggregates.maxLinkUtilisation = maxLink;
  s.nvlinkBytes = nvlinkBytes;
}

}  // namespace sim::trace
