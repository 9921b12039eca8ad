#include "sim/trace/serving_trace.h"

#include <algorithm>
#include <string>

#include "sim/calc/serving.h"
#include "sim/calc/transformer.h"
#include "sim/trace/training_trace.h"

namespace sim::trace {

using engine::Engine;
using engine::InferencePlan;

ServingRecorder::ServingRecorder(double from_s, double until_s, std::vector<uint32_t> replicas)
    : m_from_s(from_s), m_until_s(until_s), m_replicas(std::move(replicas)) {
  m_records.resize(m_replicas.size());
}

void ServingRecorder::observe(const Engine& e) {
  const engine::InferenceService* service = e.inference();
  if (!service || e.stepCount() == 0) return;
  const double dt = e.desc().dt_s;
  const double start = e.time_s() - dt;
  // Half a step of slack: the engine's clock is a multiple of dt, the window's ends are not.
  if (start < m_from_s - 0.5 * dt || e.time_s() > m_until_s + 0.5 * dt) return;
  for (size_t i = 0; i < m_replicas.size(); ++i) {
    m_records[i].push_back({start, dt, service->activity()[m_replicas[i]]});
  }
}

std::vector<int64_t> defaultServingRanks(const Engine& e) {
  const InferencePlan& p = *e.inferencePlan();
  const std::vector<float> speed = gpuSpeeds(e);
  uint32_t slowest = 0;
  float lowest = 1.0f;
  for (uint32_t r = 0; r < p.replicas; ++r)
    for (int t = 0; t < p.desc.tp; ++t)
      if (speed[p.firstGpuOfReplica[r] + t] < lowest) {
        lowest = speed[p.firstGpuOfReplica[r] + t];
        slowest = r;
      }
  std::vector<int64_t> ranks{0};
  if (slowest != 0) ranks.push_back(int64_t(slowest) * p.desc.tp);
  return ranks;
}

namespace {

// One iteration: per layer a GEMM, attention, the other kernels and two TP all-reduces, each
// the calculator's share of the iteration's `length_s`.
struct Iteration {
  calc::IterationCost cost;
  double tokens = 0;
  const char* kind = "decode";
};

void addIteration(ModelRank& out, const InferencePlan& p, const Iteration& it, double start_s,
                  double length_s, int32_t allReduce) {
  const calc::IterationCost& c = it.cost;
  const double layers = std::max(1.0, p.serving.model.layers);
  const double scale = c.total_s > 0 ? length_s / c.total_s : 0.0;
  const std::string math(precisionName(p.desc.math));
  const std::string kind = it.kind;
  const double gemm = c.matmul_s / layers * scale, attention = c.attention_s / layers * scale;
  const double other = (c.elementwise_s + c.fixed_s) / layers * scale;
  const double reduce = c.tpComm_s / layers / 2 * scale;
  double t = start_s;
  auto put = [&](double dur, ModelStream stream, GpuClass cls, const std::string& name,
                 int32_t collective) {
    out.addKernel(t, dur, stream, cls, name, collective);
    t += dur;
  };
  for (int l = 0; l < int(layers); ++l) {
    put(gemm, ModelStream::Compute, GpuClass::Gemm, "dcwalk_gemm_" + math + "_" + kind, -1);
    put(attention, ModelStream::Compute, GpuClass::Attention, "dcwalk_paged_attention_" + kind, -1);
    if (reduce > 0)
      put(reduce, ModelStream::TensorParallel, GpuClass::Communication,
          "ncclKernel_AllReduce_Sum_bf16", allReduce);
    put(other, ModelStream::Compute, GpuClass::OtherCompute, "dcwalk_elementwise_" + kind, -1);
    if (reduce > 0)
      put(reduce, ModelStream::TensorParallel, GpuClass::Communication,
          "ncclKernel_AllReduce_Sum_bf16", allReduce);
  }
}

}  // namespace

std::vector<ModelRank> servingRanks(const Engine& e, const ServingRecorder& recorder,
                                    const std::vector<int64_t>& ranks) {
  const InferencePlan& p = *e.inferencePlan();
  const engine::Cluster& c = e.cluster();
  const engine::InferenceDesc& d = p.desc;
  std::vector<ModelRank> out;
  for (int64_t rank : ranks) {
    const uint32_t replica = static_cast<uint32_t>(rank / d.tp);
    const auto slot = std::find(recorder.replicas().begin(), recorder.replicas().end(), replica);
    if (slot == recorder.replicas().end()) continue;
    ModelRank r;
    r.rank = rank;
    r.worldSize = int64_t(p.replicas) * d.tp;
    r.gpu = p.firstGpuOfReplica[replica] + static_cast<uint32_t>(rank % d.tp);
    r.device = c.gpus[r.gpu].slot;
    r.deviceName = c.specs.gpu.name;
    r.deviceMemory_bytes = c.specs.gpu.hbmUsable_bytes;
    r.role = "serving replica " + std::to_string(replica) + " of " + std::to_string(p.replicas) +
             ", rank " + std::to_string(rank % d.tp) + " of its " + std::to_string(d.tp) +
             " tensor-parallel GPUs, GPU " + std::to_string(r.gpu);
    std::vector<int64_t> group;
    for (int t = 0; t < d.tp; ++t) group.push_back(int64_t(replica) * d.tp + t);
    int64_t step = 0;
    // The all-reduce's size follows the iteration's new tokens: one collective per size in a row.
    double cachedTokens = -1;
    int32_t cached = -1;
    auto allReduceFor = [&](double tokens) {
      if (d.tp <= 1) return int32_t(-1);
      if (tokens == cachedTokens) return cached;
      const double bytes = tokens * p.serving.model.hidden * p.serving.activationBytes;
      cachedTokens = tokens;
      cached = static_cast<int32_t>(r.collectives.size());
      r.collectives.push_back(
          modelCollective("allreduce", bytes, bytes, Precision::BF16, group, "tp"));
      return cached;
    };
    for (const ServingStepRecord& rec :
         recorder.records(size_t(slot - recorder.replicas().begin()))) {
      const engine::ReplicaActivity& a = rec.activity;
      double t = rec.start_s + rec.dt_s - a.carry_s - a.prefill_s - a.decode_s;
      auto iteration = [&](const Iteration& it, double length) {
        const int64_t begin = toNs(t);
        addIteration(r, p, it, t, length, allReduceFor(it.tokens));
        t += length;
        r.steps.push_back({step++, begin, toNs(t)});
      };
      if (a.prefill_s > 0 && a.prefillSequences > 0) {
        const double seqs = a.prefillSequences;
        Iteration it;
        it.tokens = seqs * d.promptTokens;
        it.cost =
            calc::iterationCost(p.serving, it.tokens, seqs, 0.0,
                                seqs * calc::causalAttentionFlops(p.serving.model, d.promptTokens));
        it.kind = "prefill";
        iteration(it, a.prefill_s);
      }
      if (a.decodeIterations > 0 && a.decode_s > 0) {
        Iteration it;
        it.tokens = a.decodeSequences;
        it.cost = calc::iterationCost(p.serving, a.decodeSequences, a.decodeSequences,
                                      a.decodeKvTokens, 0.0);
        const double each = a.decode_s / a.decodeIterations;
        for (uint32_t i = 0; i < a.decodeIterations; ++i) iteration(it, each);
      }
    }
    sortKernels(r);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace sim::trace
