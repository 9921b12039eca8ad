// The collective sections: the scenario's collective (the NCCL-like model by default, or the
// textbook alpha-beta model when alpha or bandwidth are given), the alpha-beta comparisons the
// panels show, and a size sweep like nccl-tests' all_reduce_perf (-b 8 -e 8G -f 2).
#include <algorithm>
#include <cmath>

#include "sim/calc/collectives.h"
#include "sim/evaluate_context.h"

namespace sim::detail {
namespace {

int collectiveRanks(const Context& c) {
  return c.scenario.collective.ranks > 0 ? c.scenario.collective.ranks
                                         : std::max(c.hw.domainGpus, 2);
}

bool alphaBetaGiven(const Context& c) {
  return c.scenario.collective.alpha_s > 0 || c.scenario.collective.bandwidth_Bps > 0;
}

std::optional<calc::Algorithm> forcedAlgorithm(const Context& c) {
  return calc::parseAlgorithm(c.scenario.collective.algorithm);  // nullopt for "auto"
}

// The textbook model's link: the scenario's alpha and bandwidth, else the scale-up figures.
calc::AlphaBeta scaleUpLink(const Context& c) {
  const CollectiveDesc& cd = c.scenario.collective;
  calc::AlphaBeta link{cd.alpha_s,
                       cd.bandwidth_Bps > 0 ? cd.bandwidth_Bps : scaleUpPerDirection_Bps(c.gpu)};
  if (cd.alpha_s <= 0) {
    auto scaleUp = loadInterconnect(c.catalog, c.gpu.scaleUpInterconnect);
    link.alpha_s = scaleUp ? scaleUp->latency_s : 0.0;
  }
  return link;
}

double alphaBetaTime(calc::Collective op, double bytes, int ranks, calc::AlphaBeta link) {
  switch (op) {
    case calc::Collective::AllReduce:
      return calc::ringAllReduceTime_s(bytes, ranks, link);
    case calc::Collective::AllGather:
    case calc::Collective::ReduceScatter:
      return calc::ringAllGatherTime_s(bytes, ranks, link);
    case calc::Collective::AllToAll:
      return calc::allToAllTime_s(bytes, ranks, link);
    case calc::Collective::Broadcast:
    case calc::Collective::Reduce:
      return calc::pipelinedBroadcastTime_s(bytes, ranks, link);
  }
  return 0.0;
}

}  // namespace

std::string checkCollective(const Context& c) {
  const auto forced = forcedAlgorithm(c);
  if (!forced || alphaBetaGiven(c)) return "";
  const auto op = *calc::parseCollective(c.scenario.collective.op);
  const calc::CollectiveTopology topo = collectiveTopology(c.hw, collectiveRanks(c));
  if (calc::algorithmApplies(*forced, op, topo)) return "";
  return "collective.algorithm: " + c.scenario.collective.algorithm + " cannot run " +
         c.scenario.collective.op + " on " + std::to_string(topo.ranks) +
         " ranks here (nvls needs " +
         "an in-network scale-up switch and one node; tree, nvls_tree and collnet span nodes; " +
         "collnet needs SHARP switches)";
}

void collective(const Context& c, Writer& w) {
  const CollectiveDesc& cd = c.scenario.collective;
  const auto op = *calc::parseCollective(cd.op);
  const int ranks = collectiveRanks(c);
  const calc::AlphaBeta link = scaleUpLink(c);
  const calc::CollectiveTopology topo = collectiveTopology(c.hw, ranks);
  const double nodes = std::ceil(double(ranks) / topo.ranksPerNode);
  w.section("collective");
  w.text("op", cd.op);
  w.num("ranks", ranks, "count");
  w.num("nodes", nodes, "count");
  w.num("bytes", cd.bytes, "B");
  w.num("alpha_s", link.alpha_s, "s");
  w.num("bandwidth_Bps", link.bandwidth_Bps, "B/s");
  w.num("bus_bw_factor", calc::busBwFactor(op, ranks), "ratio");
  double time = 0;
  if (alphaBetaGiven(c)) {
    w.text("model", "alpha_beta");
    time = alphaBetaTime(op, cd.bytes, ranks, link);
  } else {
    const calc::CollectiveTime t =
        calc::ncclCollective(op, cd.bytes, topo, c.hw.collectives, forcedAlgorithm(c));
    w.text("model", "nccl");
    w.text("algorithm", std::string(calc::algorithmName(t.algorithm)));
    w.text("protocol", std::string(calc::protocolName(t.protocol)));
    w.num("latency_s", t.latency_s, "s");
    if (nodes > 1) w.num("nic_bandwidth_Bps", t.nicBandwidth_Bps, "B/s");
    time = t.time_s;
  }
  const double algbw =
      cd.algBandwidth_Bps > 0 ? cd.algBandwidth_Bps : calc::algBandwidth_Bps(cd.bytes, time);
  const bool nvlsFactor =
      op == calc::Collective::AllReduce && (cd.algorithm == "nvls" || cd.algorithm == "nvls_tree");
  w.num("time_s", time, "s");
  w.num("alg_bandwidth_Bps", algbw, "B/s");
  w.num("bus_bandwidth_Bps",
        nvlsFactor ? algbw * calc::nvlsAllReduceBusBwFactor(ranks)
                   : calc::busBandwidth_Bps(algbw, op, ranks),
        "B/s");
  if (op != calc::Collective::AllReduce) return;
  // The textbook alternatives on the scale-up link, for comparison.
  w.num("nvls_bus_bw_factor", calc::nvlsAllReduceBusBwFactor(ranks), "ratio");
  w.num("tree_all_reduce_time_s", calc::treeAllReduceTime_s(cd.bytes, ranks, link), "s");
  w.num("ring_latency_term_s", calc::ringAllReduceTime_s(0.0, ranks, link), "s");
  w.num("tree_latency_term_s", calc::treeAllReduceTime_s(0.0, ranks, link), "s");
  w.num("in_network_all_reduce_time_s", calc::inNetworkAllReduceTime_s(cd.bytes, link), "s");
  const int clusterNodes =
      static_cast<int>(std::ceil(static_cast<double>(c.scenario.cluster.gpus) / c.hw.domainGpus));
  if (clusterNodes > 1 && topo.nodeEgress_Bps > 0) {
    const calc::AlphaBeta inter{c.nic.latency_s, topo.nodeEgress_Bps / c.hw.domainGpus};
    w.num("hierarchical_all_reduce_time_s",
          calc::hierarchicalAllReduceTime_s(cd.bytes, c.hw.domainGpus, clusterNodes, link, inter),
          "s");
  }
}

void collectiveSweep(const Context& c, Writer& w) {
  if (alphaBetaGiven(c)) return;
  const auto op = *calc::parseCollective(c.scenario.collective.op);
  const calc::CollectiveTopology topo = collectiveTopology(c.hw, collectiveRanks(c));
  w.section("collective_sweep");
  for (double bytes = 8; bytes <= 8.0 * (1ull << 30); bytes *= 2) {
    const calc::CollectiveTime t =
        calc::ncclCollective(op, bytes, topo, c.hw.collectives, forcedAlgorithm(c));
    const std::string key = std::to_string(static_cast<unsigned long long>(bytes)) + "B";
    w.num(key + "_time_s", t.time_s, "s");
    w.num(key + "_alg_bandwidth_Bps", t.algBandwidth_Bps, "B/s");
    w.num(key + "_bus_bandwidth_Bps", t.busBandwidth_Bps, "B/s");
    w.text(key + "_algorithm", std::string(calc::algorithmName(t.algorithm)) + "/" +
                                   std::string(calc::protocolName(t.protocol)));
  }
}

}  // namespace sim::detail
