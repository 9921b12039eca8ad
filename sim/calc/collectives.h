// Collective-communication calculators: nccl-tests algbw/busbw conventions (NVIDIA/nccl-tests
// doc/PERFORMANCE.md, src/all_reduce.cu) and alpha-beta time models (Thakur, Rabenseifner & Gropp,
// IJHPCA 2005; NCCL 2.4 double binary trees; NVLS/SHARP in-network reduction).
// Units: bytes, seconds, bytes/s per rank and direction (the egress a ring is limited by).
#pragma once

#include <optional>
#include <string_view>

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
/// ring AllReduce of S / perNode across domains, AllGather inside.
double hierarchicalAllReduceTime_s(double bytes, int perNode, int nodes, AlphaBeta intraNode,
                                   AlphaBeta interNode);

}  // namespace sim::calc
