#include "sim/calc/collectives.h"

#include <array>
#include <cmath>
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
  const double inside = 2.0 * ringAllGatherTime_s(bytes, perNode, intraNode);
  const double across = nodes > 1 ? ringAllReduceTime_s(bytes / perNode, nodes, interNode) : 0.0;
  return inside + across;
}

}  // namespace sim::calc
