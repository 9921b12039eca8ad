// Collective-communication calculators: nccl-tests algbw/busbw conventions (NVIDIA/nccl-tests
// doc/PERFORMANCE.md, src/all_reduce.cu) and alpha-beta time models (Thakur, Rabenseifner & Gropp,
// IJHPCA 2005; NCCL 2.4 double binary trees; NVLS/SHARP in-network reduction).
// Units: bytes, seconds, bytes/s per rank and direction (the egress a ring is limited by).
#pragma once

#include <optional>
#include <string_view>

#include "sim/specs.h"

namespace sim::calc {

enum class Collective { AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, Reduce };

/// Name used in scenarios and output ("all_reduce", ...).
std::string_view collectiveName(Collective collective);
/// Parses a collective name; nullopt when unknown.
std::optional<Collective> parseCollective(std::string_view name);

/// nccl-tests busbw factor: AllReduce 2(n-1)/n; AllGather/ReduceScatter/AllToAll (n-1)/n;
/// Broadcast/Reduce 1.
double busBwFactor(Collective collective, int ranks);
/// nccl-tests factor for AllReduce with NCCL_ALGO=NVLS/NVLSTREE set explicitly: (n-1)/(n+1).
double nvlsAllReduceBusBwFactor(int ranks);
/// algbw = bytes / time (bytes: per-rank buffer for AllReduce, whole array for AG/RS).
double algBandwidth_Bps(double bytes, double time_s);
/// busbw = algbw x busBwFactor.
double busBandwidth_Bps(double algBandwidth_Bps, Collective collective, int ranks);

/// Latency (alpha) and bandwidth (1/beta) of one hop.
struct AlphaBeta {
  double alpha_s = 0;
  double bandwidth_Bps = 0;  // per rank, one direction
};

/// Ring AllReduce: 2(p-1) alpha + 2 (p-1)/p S / B (reduction cost gamma ignored).
double ringAllReduceTime_s(double bytes, int ranks, AlphaBeta link);
/// Ring AllGather or ReduceScatter of an S-byte array: (p-1) alpha + (p-1)/p S / B.
double ringAllGatherTime_s(double bytes, int ranks, AlphaBeta link);
/// Double binary tree AllReduce (NCCL 2.4): 2 log2(p) alpha + 2 (p-1)/p S / B.
double treeAllReduceTime_s(double bytes, int ranks, AlphaBeta link);
/// Recursive doubling AllReduce: log2(p) (alpha + S / B).
double recursiveDoublingAllReduceTime_s(double bytes, int ranks, AlphaBeta link);
/// In-network (NVLS / SHARP) AllReduce: 2 alpha + S / B (each byte crosses each link once each
/// way).
double inNetworkAllReduceTime_s(double bytes, AlphaBeta link);
/// Pipelined ring Broadcast or Reduce of S bytes: (p-1) alpha + S / B.
double pipelinedBroadcastTime_s(double bytes, int ranks, AlphaBeta link);
/// AllToAll of an S-byte per-rank buffer: (p-1) alpha + (p-1)/p S / B.
double allToAllTime_s(double bytes, int ranks, AlphaBeta link);

/// Two-level AllReduce over `nodes` domains of `perNode` ranks: ReduceScatter inside each domain,
/// ring AllReduce of S / perNode across domains, AllGather inside. The phases are pipelined in
/// chunks (as NCCL's NVLS-tree and CollNet do), so the time is the slower of the scale-up links
/// (carrying both intra phases) and the NICs, plus every phase's latency term.
double hierarchicalAllReduceTime_s(double bytes, int perNode, int nodes, AlphaBeta intraNode,
                                   AlphaBeta interNode);

// ---- The NCCL-like model: algorithm and protocol chosen by message size and topology ----

enum class Algorithm { Ring, Tree, Nvls, NvlsTree, CollNet };
enum class Protocol { LL, LL128, Simple };

/// Names used in scenarios and output ("ring", "tree", "nvls", "nvls_tree", "collnet").
std::string_view algorithmName(Algorithm algorithm);
std::optional<Algorithm> parseAlgorithm(std::string_view name);
/// "LL", "LL128", "Simple".
std::string_view protocolName(Protocol protocol);

/// Where the ranks of a collective sit.
struct CollectiveTopology {
  int ranks = 8;
  int ranksPerNode = 8;         // ranks sharing one scale-up domain
  double scaleUp_Bps = 450e9;   // per rank, one direction (links x link rate)
  double nodeEgress_Bps = 0;    // NICs x NIC rate of one node, one direction
  bool scaleUpReduces = false;  // the scale-up switch reduces in network (NVLS)
  bool fabricReduces = false;   // the fabric switches reduce in network (SHARP / CollNet)
  double fabricTaper = 1.0;     // leaf down : up ports; traffic between domains shares the uplinks
};

struct CollectiveTime {
  Algorithm algorithm = Algorithm::Ring;
  Protocol protocol = Protocol::Simple;
  double time_s = 0;
  double latency_s = 0;         // the size-independent part of time_s
  double algBandwidth_Bps = 0;  // bytes / time (nccl-tests algbw)
  double busBandwidth_Bps = 0;  // algbw x the nccl-tests factor
  double nicBandwidth_Bps = 0;  // bytes through one NIC / time (0 inside one node)
};

/// Whether `algorithm` can run `op` on `topo` (NVLS needs an in-network scale-up switch, the
/// tree, NVLS-tree and CollNet span nodes, the multi-node ones need a NIC).
bool algorithmApplies(Algorithm algorithm, Collective op, const CollectiveTopology& topo);
/// Time of `op` over `bytes` (per-rank buffer for AllReduce, whole array for AG/RS/AllToAll) as
/// NCCL's tuning model prices it: for every algorithm and protocol that applies, latency (base +
/// per-step hop latencies) + bytes / bandwidth, with bandwidths the measured shares of the link
/// and NIC rates in `model`; the fastest wins unless `forced` names one. Multi-node rings are
/// bound by min(scale-up, node egress); hierarchical algorithms pipeline their phases; an
/// all-to-all across nodes is bound by each rank's NIC share. busbw uses nccl-tests' factors
/// ((n-1)/(n+1) for an AllReduce only when NVLS or NVLS-tree is forced, as nccl-tests does).
CollectiveTime ncclCollective(Collective op, double bytes, const CollectiveTopology& topo,
                              const CollectiveSpec& model,
                              std::optional<Algorithm> forced = std::nullopt);

}  // namespace sim::calc
