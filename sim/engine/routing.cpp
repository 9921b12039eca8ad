#include "sim/engine/routing.h"

#include <algorithm>

namespace sim::engine {
namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

Router::Router(const Cluster* cluster, uint64_t seed, uint32_t subflows)
    : m_cluster(cluster),
      m_seed(seed),
      m_subflows(subflows < 1 ? 1 : subflows),
      m_up(cluster->linkCount(), 1) {}

void Router::setLinkUp(LinkId link, bool up) {
  if (link.index < m_up.size()) m_up[link.index] = up ? 1 : 0;
}

uint64_t Router::hash(uint64_t flow, uint64_t salt, uint64_t hop) const {
  return splitmix64(m_seed ^ splitmix64(flow * 0x100000001b3ull ^ splitmix64(salt + 31 * hop)));
}

uint32_t Router::nicGpuFor(uint32_t gpu) const {
  const Cluster& c = *m_cluster;
  if (m_up[c.gpuLink[gpu]]) return gpu;
  // PXN: the next GPU of the same NVLink domain whose NIC is up.
  const uint32_t first = c.gpus[gpu].rack.index * c.gpusPerRack;
  for (uint32_t k = 1; k < c.gpusPerRack; ++k) {
    const uint32_t g = first + (c.gpus[gpu].local + k) % c.gpusPerRack;
    if (m_up[c.gpuLink[g]]) return g;
  }
  return INVALID_INDEX;
}

uint32_t Router::spineOfLeafUplink(uint32_t leaf, uint32_t j) const {
  const Cluster& c = *m_cluster;
  return c.links[c.leafUplinks[size_t{leaf} * c.fabric.leafUpPorts + j]].upper;
}

uint32_t Router::spineToLeaf(uint32_t spine, uint32_t leaf, uint64_t h) const {
  const Cluster& c = *m_cluster;
  const uint32_t up = c.fabric.leafUpPorts;
  if (c.fabric.tiers == 3) {
    if (c.switches[spine].pod != c.switches[leaf].pod) return INVALID_INDEX;
    const uint32_t lk = c.leafUplinks[size_t{leaf} * up + (spine - c.leaves) % up];
    return m_up[lk] ? lk : INVALID_INDEX;
  }
  for (uint32_t k = 0; k < up; ++k) {
    const uint32_t j = static_cast<uint32_t>((h + k) % up);
    const uint32_t lk = c.leafUplinks[size_t{leaf} * up + j];
    if (c.links[lk].upper == spine && m_up[lk]) return lk;
  }
  return INVALID_INDEX;
}

bool Router::routeOne(uint32_t src, uint32_t dst, double bytes, uint64_t h,
                      std::vector<double>& load) const {
  const Cluster& c = *m_cluster;
  const uint32_t leafA = c.gpuLeaf[src], leafB = c.gpuLeaf[dst];
  const uint32_t up = c.fabric.leafUpPorts;
  if (leafA == leafB) {
    load[2 * size_t{c.gpuLink[src]}] += bytes;
    load[2 * size_t{c.gpuLink[dst]} + 1] += bytes;
    return true;
  }
  const bool samePod = c.fabric.tiers == 2 || c.switches[leafA].pod == c.switches[leafB].pod;
  const uint64_t h1 = h % up;
  for (uint32_t k = 0; k < up; ++k) {
    const uint32_t j = static_cast<uint32_t>((h1 + k) % up);
    const uint32_t upA = c.leafUplinks[size_t{leafA} * up + j];
    if (!m_up[upA]) continue;
    const uint32_t spineA = c.links[upA].upper;
    if (samePod) {
      const uint32_t downB = spineToLeaf(spineA, leafB, h >> 20);
      if (downB == INVALID_INDEX) continue;
      load[2 * size_t{c.gpuLink[src]}] += bytes;
      load[2 * size_t{upA}] += bytes;
      load[2 * size_t{downB} + 1] += bytes;
      load[2 * size_t{c.gpuLink[dst]} + 1] += bytes;
      return true;
    }
    // Up to a core, down into the destination pod.
    const uint32_t spineUp = (c.fabric.leafDownPorts + c.fabric.leafUpPorts) / 2;  // radix / 2
    const uint32_t podB = c.switches[leafB].pod;
    const uint64_t h2 = (h >> 24) % spineUp;
    for (uint32_t k2 = 0; k2 < spineUp; ++k2) {
      const uint32_t j2 = static_cast<uint32_t>((h2 + k2) % spineUp);
      const uint32_t upS = c.spineUplinks[size_t{spineA - c.leaves} * spineUp + j2];
      if (!m_up[upS]) continue;
      const uint32_t core = c.links[upS].upper - c.leaves - c.spines;
      const uint32_t b = c.corePodStart[size_t{core} * c.pods + podB];
      const uint32_t e = c.corePodStart[size_t{core} * c.pods + podB + 1];
      if (b == e) continue;
      const uint64_t h3 = (h >> 40) % (e - b);
      for (uint32_t k3 = 0; k3 < e - b; ++k3) {
        const uint32_t downC = c.corePodLinks[b + (h3 + k3) % (e - b)];
        if (!m_up[downC]) continue;
        const uint32_t downB = spineToLeaf(c.links[downC].lower, leafB, 0);
        if (downB == INVALID_INDEX) continue;
        load[2 * size_t{c.gpuLink[src]}] += bytes;
        load[2 * size_t{upA}] += bytes;
        load[2 * size_t{upS}] += bytes;
        load[2 * size_t{downC} + 1] += bytes;
        load[2 * size_t{downB} + 1] += bytes;
        load[2 * size_t{c.gpuLink[dst]} + 1] += bytes;
        return true;
      }
    }
  }
  return false;
}

RouteTotals Router::route(const std::vector<Flow>& flows, uint64_t salt,
                          std::vector<double>& load) const {
  const Cluster& c = *m_cluster;
  RouteTotals t;
  for (size_t i = 0; i < flows.size(); ++i) {
    const Flow& f = flows[i];
    if (c.gpus[f.src].rack.index == c.gpus[f.dst].rack.index) {
      t.nvlink_bytes += f.bytes;  // same NVLink domain: never touches the fabric
      continue;
    }
    const uint32_t s = nicGpuFor(f.src), d = nicGpuFor(f.dst);
    bool routed = s != INVALID_INDEX && d != INVALID_INDEX;
    const double part = f.bytes / m_subflows;
    for (uint32_t k = 0; routed && k < m_subflows; ++k)
      routed = routeOne(s, d, part, hash(i, salt, k), load);
    if (!routed) {
      ++t.unroutable;
      continue;
    }
    if (s != f.src) t.nvlink_bytes += f.bytes;
    if (d != f.dst) t.nvlink_bytes += f.bytes;
    t.injected_bytes += f.bytes;
    t.delivered_bytes += f.bytes;
  }
  return t;
}

double busiestLinkTime_s(const Cluster& cluster, const std::vector<double>& load) {
  double worst = 0;
  for (size_t l = 0; l < cluster.links.size(); ++l) {
    const double cap = cluster.links[l].capacity_Bps;
    worst = std::max(worst, std::max(load[2 * l], load[2 * l + 1]) / cap);
  }
  return worst;
}

}  // namespace sim::engine
