#include "sim/calc/collectives.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace sim::calc {
namespace {

constexpr std::array<std::pair<Collective, std::string_view>, 6> COLLECTIVE_NAMES = {{
    {Collective::AllReduce, "all_reduce"},
    {Collective::AllGather, "all_gather"},
    {Collective::ReduceScatter, "reduce_scatter"},
    {Collective::AllToAll, "all_to_all"},
    {Collective::Broadcast, "broadcast"},
    {Collective::Reduce, "reduce"},
}};

constexpr std::array<std::pair<Algorithm, std::string_view>, 5> ALGORITHM_NAMES = {{
    {Algorithm::Ring, "ring"},
    {Algorithm::Tree, "tree"},
    {Algorithm::Nvls, "nvls"},
    {Algorithm::NvlsTree, "nvls_tree"},
    {Algorithm::CollNet, "collnet"},
}};

// One protocol's bandwidth share and latencies (NCCL tuning model: LL sends 8-byte words with
// flags, LL128 128-byte lines with 8 bytes of flags, Simple plain copies with a sync per chunk).
struct ProtocolCost {
  Protocol protocol;
  double bandwidthShare;
  double base_s, hopScaleUp_s, hopNetwork_s, treeHopNetwork_s;
};

std::array<ProtocolCost, 3> protocols(const CollectiveSpec& m) {
  return {{{Protocol::LL, m.llFraction, m.baseLl_s, m.hopScaleUpLl_s, m.hopNetworkLl_s,
            m.treeHopNetworkLl_s},
           {Protocol::LL128, m.ll128Fraction, m.baseLl128_s, m.hopScaleUpLl128_s,
            m.hopNetworkLl128_s, m.treeHopNetworkLl128_s},
           {Protocol::Simple, 1.0, m.baseSimple_s, m.hopScaleUpSimple_s, m.hopNetworkSimple_s,
            m.treeHopNetworkSimple_s}}};
}

struct Shape {
  double n = 0;        // ranks
  double g = 0;        // ranks per node
  double nodes = 0;    // nodes spanned
  double up_Bps = 0;   // achieved scale-up bandwidth per rank (Simple)
  double net_Bps = 0;  // achieved node egress (Simple), through the fabric's taper
};

Shape shapeOf(const CollectiveTopology& topo, const CollectiveSpec& m) {
  Shape s;
  s.n = std::max(topo.ranks, 1);
  s.g = std::clamp(topo.ranksPerNode, 1, std::max(topo.ranks, 1));
  s.nodes = std::ceil(s.n / s.g);
  s.up_Bps = topo.scaleUp_Bps * m.ringFraction;
  // Traffic between domains leaves through the leaves' up-ports: a tapered fabric (down : up
  // ports > 1) gives each domain that share of its NICs' rate.
  s.net_Bps = topo.nodeEgress_Bps * m.nicFraction / std::max(topo.fabricTaper, 1.0);
  return s;
}

// Bytes through the busiest node's NICs (each direction) per byte of a double-binary-tree
// AllReduce across `nodes` nodes (NCCL 2.4): each tree carries half the buffer, up then down. A
// node's load is set by its place in the two trees: two nodes are root and leaf of each (1 each
// way), of three one is a root with two children in one tree and a leaf in the other (1 + 1/2),
// from four on one is an inner node with two children and a parent in one tree (3/2) and a leaf
// in the other (1/2): 2.
double treeNicLoad(double nodes) {
  return std::clamp(nodes / 2.0, 0.0, 2.0);
}

// Per-message cost of one NVLS pass over a domain of `g` ranks: NCCL's NVLS latency and a step
// per further rank (every rank's shard is reduced and multicast in turn).
double nvlsLatency(double g, const CollectiveSpec& m) {
  return m.nvls_s + (g - 1.0) * m.nvlsRank_s;
}

// Bytes each rank's busiest link moves per byte of the collective, as nccl-tests counts it.
double ringVolume(Collective op, double n) {
  if (op == Collective::AllReduce) return 2.0 * (n - 1.0) / n;
  if (op == Collective::Broadcast || op == Collective::Reduce) return 1.0;
  return (n - 1.0) / n;
}

// Ring steps in total and across nodes (NCCL tuning model).
std::pair<double, double> ringSteps(Collective op, const Shape& s) {
  if (op == Collective::AllReduce) return {2.0 * (s.n - 1.0), s.nodes > 1 ? 2.0 * s.nodes : 0.0};
  return {s.n - 1.0, s.nodes - 1.0};
}

// Time of one (algorithm, protocol) choice; infinity when the bandwidth is zero.
CollectiveTime price(Algorithm a, const ProtocolCost& p, Collective op, double bytes,
                     const Shape& s, const CollectiveTopology& topo, const CollectiveSpec& m) {
  CollectiveTime t;
  t.algorithm = a;
  t.protocol = p.protocol;
  const bool multi = s.nodes > 1;
  const double ringBw = (multi ? std::min(s.up_Bps, s.net_Bps) : s.up_Bps) * p.bandwidthShare;
  const double log2Nodes = std::log2(std::max(s.nodes, 1.0));
  double bandwidth = 0;  // algorithm bandwidth: bytes / (time - latency)
  switch (a) {
    case Algorithm::Ring: {
      const auto [steps, interSteps] = ringSteps(op, s);
      t.latency_s = p.base_s + (steps - interSteps) * p.hopScaleUp_s + interSteps * p.hopNetwork_s;
      bandwidth = ringBw / ringVolume(op, s.n);
      break;
    }
    case Algorithm::Tree:  // double binary tree: a chain inside each node, trees of nodes across
      t.latency_s =
          p.base_s + 2.0 * ((s.g - 1.0) * p.hopScaleUp_s + log2Nodes * p.treeHopNetwork_s);
      // Inside, NCCL's tuning model gives the chain half the link (its tree ratio of 1/2).
      bandwidth = std::min(0.5 * s.up_Bps, s.net_Bps / treeNicLoad(s.nodes)) * p.bandwidthShare *
                  m.treeFraction;
      break;
    case Algorithm::Nvls:  // one pass through the switch, which reduces and multicasts
      t.latency_s = nvlsLatency(s.g, m);
      bandwidth = topo.scaleUp_Bps * m.nvlsFraction;
      break;
    case Algorithm::NvlsTree:  // NVLS inside, a tree of nodes across: phases pipelined
      t.latency_s = nvlsLatency(s.g, m) + 2.0 * log2Nodes * p.hopNetwork_s;
      bandwidth = std::min(topo.scaleUp_Bps * m.nvlsFraction,
                           s.net_Bps / treeNicLoad(s.nodes) * m.treeFraction);
      break;
    case Algorithm::CollNet: {  // the fabric reduces: each shard crosses a NIC once each way
      const double intra = topo.scaleUpReduces ? topo.scaleUp_Bps * m.nvlsFraction
                                               : s.up_Bps * s.g / (2.0 * std::max(s.g - 1.0, 1.0));
      // Inside, an NVLS pass where the switch reduces, else a chain through the domain.
      t.latency_s = (topo.scaleUpReduces ? nvlsLatency(s.g, m)
                                         : p.base_s + 2.0 * (s.g - 1.0) * p.hopScaleUp_s) +
                    m.collnetNetwork_s;
      bandwidth = std::min(intra, s.net_Bps);
      break;
    }
  }
  t.time_s =
      bandwidth > 0 ? t.latency_s + bytes / bandwidth : std::numeric_limits<double>::infinity();
  return t;
}

// An all-to-all: every rank sends bytes / n to every other; the ones on other nodes leave
// through the rank's share of its node's NICs, the rest cross the scale-up links, concurrently.
CollectiveTime allToAll(double bytes, const Shape& s, const CollectiveSpec& m) {
  CollectiveTime t;
  t.algorithm = Algorithm::Ring;  // grouped point-to-point sends: no collective algorithm
  const bool multi = s.nodes > 1;
  const double inside = bytes * (s.g - 1.0) / s.n;
  const double outside = bytes * (s.n - s.g) / s.n;
  t.latency_s = m.baseSimple_s + (multi ? m.hopNetworkSimple_s : m.hopScaleUpSimple_s);
  const double perRankNet = s.net_Bps / s.g;
  const double busy = std::max(inside / s.up_Bps, multi ? outside / perRankNet : 0.0);
  t.time_s = t.latency_s + busy;
  t.nicBandwidth_Bps = multi ? outside / t.time_s : 0.0;
  return t;
}

}  // namespace

std::string_view collectiveName(Collective collective) {
  for (const auto& [c, name] : COLLECTIVE_NAMES) {
    if (c == collective) return name;
  }
  return "";
}

std::optional<Collective> parseCollective(std::string_view name) {
  for (const auto& [c, n] : COLLECTIVE_NAMES) {
    if (n == name) return c;
  }
  return std::nullopt;
}

double busBwFactor(Collective collective, int ranks) {
  const double n = ranks;
  switch (collective) {
    case Collective::AllReduce:
      return 2.0 * (n - 1.0) / n;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll:
      return (n - 1.0) / n;
    case Collective::Broadcast:
    case Collective::Reduce:
      return 1.0;
  }
  return 1.0;
}

double nvlsAllReduceBusBwFactor(int ranks) {
  return (ranks - 1.0) / (ranks + 1.0);
}

double algBandwidth_Bps(double bytes, double time_s) {
  return bytes / time_s;
}

double busBandwidth_Bps(double algBandwidth, Collective collective, int ranks) {
  return algBandwidth * busBwFactor(collective, ranks);
}

double ringAllReduceTime_s(double bytes, int ranks, AlphaBeta link) {
  const double p = ranks;
  return 2.0 * (p - 1.0) * link.alpha_s + 2.0 * (p - 1.0) / p * bytes / link.bandwidth_Bps;
}

double ringAllGatherTime_s(double bytes, int ranks, AlphaBeta link) {
  const double p = ranks;
  return (p - 1.0) * link.alpha_s + (p - 1.0) / p * bytes / link.bandwidth_Bps;
}

double treeAllReduceTime_s(double bytes, int ranks, AlphaBeta link) {
  const double p = ranks;
  return 2.0 * std::log2(p) * link.alpha_s + 2.0 * (p - 1.0) / p * bytes / link.bandwidth_Bps;
}

double recursiveDoublingAllReduceTime_s(double bytes, int ranks, AlphaBeta link) {
  return std::log2(static_cast<double>(ranks)) * (link.alpha_s + bytes / link.bandwidth_Bps);
}

double inNetworkAllReduceTime_s(double bytes, AlphaBeta link) {
  return 2.0 * link.alpha_s + bytes / link.bandwidth_Bps;
}

double pipelinedBroadcastTime_s(double bytes, int ranks, AlphaBeta link) {
  return (ranks - 1.0) * link.alpha_s + bytes / link.bandwidth_Bps;
}

double allToAllTime_s(double bytes, int ranks, AlphaBeta link) {
  const double p = ranks;
  return (p - 1.0) * link.alpha_s + (p - 1.0) / p * bytes / link.bandwidth_Bps;
}

double hierarchicalAllReduceTime_s(double bytes, int perNode, int nodes, AlphaBeta intraNode,
                                   AlphaBeta interNode) {
  const AlphaBeta intraBandwidth{0.0, intraNode.bandwidth_Bps};
  const AlphaBeta interBandwidth{0.0, interNode.bandwidth_Bps};
  // Reduce-scatter and all-gather inside share the scale-up links (one chunk in each at once);
  // the inter-node all-reduce runs on the NICs at the same time.
  const double inside = 2.0 * ringAllGatherTime_s(bytes, perNode, intraBandwidth);
  const double across =
      nodes > 1 ? ringAllReduceTime_s(bytes / perNode, nodes, interBandwidth) : 0.0;
  const double latency = 2.0 * ringAllGatherTime_s(0.0, perNode, intraNode) +
                         (nodes > 1 ? ringAllReduceTime_s(0.0, nodes, interNode) : 0.0);
  return std::max(inside, across) + latency;
}

std::string_view algorithmName(Algorithm algorithm) {
  for (const auto& [a, name] : ALGORITHM_NAMES) {
    if (a == algorithm) return name;
  }
  return "";
}

std::optional<Algorithm> parseAlgorithm(std::string_view name) {
  for (const auto& [a, n] : ALGORITHM_NAMES) {
    if (n == name) return a;
  }
  return std::nullopt;
}

std::string_view protocolName(Protocol protocol) {
  switch (protocol) {
    case Protocol::LL:
      return "LL";
    case Protocol::LL128:
      return "LL128";
    case Protocol::Simple:
      return "Simple";
  }
  return "";
}

bool algorithmApplies(Algorithm algorithm, Collective op, const CollectiveTopology& topo) {
  const bool multi = topo.ranks > topo.ranksPerNode;
  const bool hasNic = topo.nodeEgress_Bps > 0;
  if (op == Collective::AllToAll) return algorithm == Algorithm::Ring && (!multi || hasNic);
  if (multi && !hasNic) return false;
  const bool reduce = op == Collective::AllReduce;
  switch (algorithm) {
    case Algorithm::Ring:
      return true;
    case Algorithm::Tree:
      return reduce && multi;
    case Algorithm::Nvls:
      return reduce && !multi && topo.scaleUpReduces && topo.ranks > 2;
    case Algorithm::NvlsTree:
      return reduce && multi && topo.scaleUpReduces;
    case Algorithm::CollNet:
      return reduce && multi && topo.fabricReduces;
  }
  return false;
}

CollectiveTime ncclCollective(Collective op, double bytes, const CollectiveTopology& topo,
                              const CollectiveSpec& model, std::optional<Algorithm> forced) {
  const Shape s = shapeOf(topo, model);
  CollectiveTime best;
  if (op == Collective::AllToAll) {
    best = allToAll(bytes, s, model);
  } else {
    best.time_s = std::numeric_limits<double>::infinity();
    for (const auto& [algorithm, name] : ALGORITHM_NAMES) {
      if (forced && algorithm != *forced) continue;
      if (!algorithmApplies(algorithm, op, topo)) continue;
      for (const ProtocolCost& p : protocols(model)) {
        // NVLS, NVLS-tree and CollNet run the Simple protocol only (NCCL).
        const bool simpleOnly = algorithm == Algorithm::Nvls || algorithm == Algorithm::NvlsTree ||
                                algorithm == Algorithm::CollNet;
        if (simpleOnly && p.protocol != Protocol::Simple) continue;
        const CollectiveTime candidate = price(algorithm, p, op, bytes, s, topo, model);
        if (candidate.time_s < best.time_s) best = candidate;
      }
    }
    if (!std::isfinite(best.time_s)) return CollectiveTime{};
  }
  best.algBandwidth_Bps = best.time_s > 0 ? bytes / best.time_s : 0.0;
  const bool nvlsFactor = op == Collective::AllReduce && forced &&
                          (*forced == Algorithm::Nvls || *forced == Algorithm::NvlsTree);
  const int n = std::max(topo.ranks, 2);
  best.busBandwidth_Bps =
      best.algBandwidth_Bps * (nvlsFactor ? nvlsAllReduceBusBwFactor(n) : busBwFactor(op, n));
  return best;
}

}  // namespace sim::calc
