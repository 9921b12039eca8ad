#include "sim/trace/training_trace.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "sim/calc/memory.h"
#include "sim/calc/training.h"

namespace sim::trace {
namespace {

using engine::Engine;
using engine::TrainingPhase;
using engine::TrainingPlan;

constexpr int PHASES = 3;  // pipeline, exposed DP collective, optimizer

TrainingPhase phaseOf(int64_t ordinal) {
  return static_cast<TrainingPhase>(ordinal % PHASES);
}

// A phase's length as the engine takes it now; 0 for a collective that cannot complete (the
// engine stalls there, so no boundary is ever placed after it within one step).
double lengthOf(const Engine& e, TrainingPhase phase) {
  const double d = e.phaseDuration_s(phase);
  return std::isfinite(d) ? d : 0.0;
}

}  // namespace

std::vector<float> gpuSpeeds(const Engine& e) {
  const engine::Cluster& c = e.cluster();
  std::vector<float> speed(c.gpuCount(), 1.0f);
  // The faults the last step ran with: those active at its start.
  const double t = std::max(0.0, e.time_s() - (e.stepCount() > 0 ? e.desc().dt_s : 0.0));
  for (const engine::FaultDesc& f : e.desc().faults) {
    if (f.kind != engine::FaultKind::Straggler || t < f.start_s || t >= f.end_s) continue;
    if (f.target >= speed.size()) continue;
    const double s = f.severity > 0 ? f.severity : e.figures().stragglerSpeedFraction;
    speed[f.target] = std::min(speed[f.target], float(s));
  }
  const engine::Snapshot snap = e.snapshot();
  if (!snap.cduClock.empty()) {
    for (uint32_t g = 0; g < c.gpuCount(); ++g) {
      const uint32_t cdu = c.rackCdu[c.gpus[g].rack.index];
      speed[g] = std::min(speed[g], snap.cduClock[cdu]);
    }
  }
  return speed;
}

void TrainingRecorder::observe(const Engine& e) {
  const TrainingPlan* plan = e.training();
  if (!plan) return;
  const int64_t ordinal = int64_t(e.completedSteps()) * PHASES + static_cast<int64_t>(e.phase());
  const double now = e.time_s();
  if (m_ordinal < 0) {
    // The first look: only a step seen from its start can be drawn whole.
    m_ordinal = ordinal;
    m_entries.clear();
    if (e.phase() == TrainingPhase::Pipeline) m_entries.push_back(now - e.stepElapsed_s());
    return;
  }
  if (ordinal == m_ordinal) return;
  // Phases entered since the last look, latest first: the latest from where the engine is now
  // (a step's start exactly), each earlier one a whole phase length before the next.
  std::vector<double> entry(size_t(ordinal - m_ordinal));
  entry.back() = ordinal % PHASES == 0 ? now - e.stepElapsed_s()
                                       : now - e.phaseFraction() * lengthOf(e, phaseOf(ordinal));
  for (size_t i = entry.size() - 1; i-- > 0;) {
    entry[i] = entry[i + 1] - lengthOf(e, phaseOf(m_ordinal + 1 + int64_t(i)));
  }
  const double floor_s = m_entries.empty() ? 0.0 : m_entries.back();
  for (size_t i = 0; i < entry.size(); ++i) {
    const double at = std::clamp(entry[i], i ? entry[i - 1] : floor_s, now);
    entry[i] = at;
    const int64_t o = m_ordinal + 1 + int64_t(i);
    if (o % PHASES != 0) {
      if (!m_entries.empty()) m_entries.push_back(at);
      continue;
    }
    // A step ended at `at`: keep it when it was seen whole and began in the window.
    const bool kept = m_entries.size() == PHASES && m_entries[0] >= m_from_s;
    if (kept && !m_keepLast && m_steps.size() >= m_maxSteps) ++m_overflow;
    if (kept && (m_keepLast || m_steps.size() < m_maxSteps)) {
      if (m_keepLast) m_steps.clear();
      TrainingStepRecord r;
      r.number = o / PHASES - 1;
      r.start_s = m_entries[0];
      r.pipelineEnd_s = m_entries[1];
      r.dataParallelEnd_s = m_entries[2];
      r.end_s = at;
      const double optimizer = e.phaseDuration_s(TrainingPhase::Optimizer);
      r.rate = optimizer > 0 && plan->optimizer_s > 0 ? plan->optimizer_s / optimizer : 1.0;
      r.allToAll_s = e.allToAllTime_s();
      r.dataParallel_s = e.dataParallelTime_s();
      r.dataParallelExposed_s = e.dataParallelExposedTime_s();
      const std::vector<float> speeds = gpuSpeeds(e);
      for (uint32_t g = 0; g < speeds.size(); ++g) {
        if (speeds[g] < 1.0f && plan->stageOfGpu[g] != engine::NOT_IN_JOB) {
          r.slowGpus.push_back({g, speeds[g]});
        }
      }
      m_steps.push_back(std::move(r));
    }
    m_entries.assign(1, at);
  }
  m_ordinal = ordinal;
}

TrainingRankPlace trainingRankPlace(const TrainingPlan& plan, int64_t rank) {
  const int64_t unit = int64_t(plan.desc.tp) * plan.desc.cp;
  const int64_t group = rank / unit;
  return {static_cast<int>(group / plan.desc.dp), static_cast<int>(group % plan.desc.dp),
          static_cast<int>(rank % unit)};
}

namespace {

int64_t rankOf(const TrainingPlan& plan, int stage, int replica, int inGroup) {
  const int64_t unit = int64_t(plan.desc.tp) * plan.desc.cp;
  return (int64_t(stage) * plan.desc.dp + replica) * unit + inGroup;
}

}  // namespace

std::vector<int64_t> defaultTrainingRanks(const TrainingPlan& plan,
                                          const std::vector<TrainingStepRecord>& steps) {
  std::vector<int64_t> ranks;
  for (int s = 0; s < plan.desc.pp; ++s) ranks.push_back(rankOf(plan, s, 0, 0));
  const SlowGpu* slowest = nullptr;
  for (const TrainingStepRecord& r : steps)
    for (const SlowGpu& g : r.slowGpus)
      if (!slowest || g.speed < slowest->speed) slowest = &g;
  if (!slowest) return ranks;
  const auto at = std::find(plan.gpuOfRank.begin(), plan.gpuOfRank.end(), slowest->gpu);
  const int64_t rank = at - plan.gpuOfRank.begin();
  if (at != plan.gpuOfRank.end() && std::find(ranks.begin(), ranks.end(), rank) == ranks.end())
    ranks.push_back(rank);
  return ranks;
}

namespace {

// The communicators a pass kernel runs on.
enum class Comm : uint8_t {
  None,
  TpAllReduce,
  TpAllGather,
  TpReduceScatter,
  Cp,
  PpForward,
  PpBackward,
  Ep
};

// One kernel of a micro-batch's forward or backward pass, at full speed.
struct PassKernel {
  double nominal_s = 0;
  bool allToAll = false;  // lasts the routed all-to-all time, whatever the clock
  ModelStream stream = ModelStream::Compute;
  GpuClass cls = GpuClass::OtherCompute;
  std::string name;
  Comm comm = Comm::None;
};

// A micro-batch's forward and backward passes on the busiest stage: its layers' matmuls,
// attention and elementwise work (the engine's forward/backward split, each class in its share
// of the layer's compute), the TP collectives between them, CP ring passes, EP all-to-alls and
// the PP send that ends the pass.
struct Passes {
  std::vector<PassKernel> forward, backward;
  double forwardNominal_s = 0, backwardNominal_s = 0;  // without the all-to-alls
  int allToAllsPerPass = 0;
};

Passes passesOf(const TrainingPlan& p) {
  const calc::TrainingStep& st = p.step;
  const int layers = std::max(1, st.stageLayers);
  const double compute = p.forward_s + p.backward_s;
  const double head = std::max(0.0, compute - layers * st.layerCompute_s);
  const std::string prec(precisionName(p.desc.precision));
  calc::TrainingDesc shape;
  shape.tp = p.desc.tp;
  shape.activations = calc::parseActivationStrategy(p.desc.activations)
                          .value_or(calc::ActivationStrategy::Selective);
  const bool sp = calc::sequenceParallel(shape);
  const int repeat = shape.activations == calc::ActivationStrategy::Full ? 1 : 0;
  // calc::tpCommPerLayer's collectives: 6 all-gathers and 4 reduce-scatters a layer with
  // sequence parallelism, else 4 all-reduces (a full recompute repeats the forward's in backward).
  const int tpForward = p.desc.tp > 1 ? (sp ? 4 : 2) : 0;
  const int tpBackward = p.desc.tp > 1 ? (sp ? 6 + 4 * repeat : 2 + 2 * repeat) : 0;
  const int rsBackward = 2 + 2 * repeat;  // the backward's reduce-scatters (sequence parallel)
  const double tpEach =
      tpForward + tpBackward > 0 ? st.layerTpComm_s / (tpForward + tpBackward) : 0;
  Passes out;
  out.allToAllsPerPass = p.desc.ep > 1 ? layers : 0;
  for (int pass = 0; pass < 2; ++pass) {
    const bool fwd = pass == 0;
    const double share = fwd ? p.forward_s / compute : p.backward_s / compute;
    const char* dir = fwd ? "fwd" : "bwd";
    std::vector<PassKernel>& k = fwd ? out.forward : out.backward;
    const int tpCount = fwd ? tpForward : tpBackward;
    auto tp = [&](int i) {
      Comm comm = Comm::TpAllReduce;
      const char* name = "ncclKernel_AllReduce_Sum_";
      if (sp) {
        // Reduce-scatters alternate with all-gathers (2 of them forward), all-gathers after.
        const bool gather = !(i % 2 == 1 && i / 2 < (fwd ? 2 : rsBackward));
        comm = gather ? Comm::TpAllGather : Comm::TpReduceScatter;
        name = gather ? "ncclKernel_AllGather_" : "ncclKernel_ReduceScatter_Sum_";
      }
      k.push_back(
          {tpEach, false, ModelStream::TensorParallel, GpuClass::Communication, name + prec, comm});
    };
    if (!fwd && head > 0)
      k.push_back({head * share, false, ModelStream::Compute, GpuClass::Gemm,
                   "dcwalk_gemm_" + prec + "_lm_head_bwd", Comm::None});
    for (int l = 0; l < layers; ++l) {
      int done = 0;
      k.push_back({st.layerMatmul_s * share, false, ModelStream::Compute, GpuClass::Gemm,
                   "dcwalk_gemm_" + prec + "_" + dir, Comm::None});
      for (; done < tpCount / 2; ++done) tp(done);
      k.push_back({st.layerAttention_s * share, false, ModelStream::Compute, GpuClass::Attention,
                   std::string("dcwalk_flash_attention_") + dir, Comm::None});
      if (st.layerCpComm_s > 0)
        k.push_back({st.layerCpComm_s * (fwd ? 1.0 / 3.0 : 2.0 / 3.0), false,
                     ModelStream::TensorParallel, GpuClass::Communication, "ncclKernel_SendRecv",
                     Comm::Cp});
      k.push_back({st.layerElementwise_s * share, false, ModelStream::Compute,
                   GpuClass::OtherCompute, std::string("dcwalk_elementwise_") + dir, Comm::None});
      for (; done < tpCount; ++done) tp(done);
      if (out.allToAllsPerPass > 0)
        k.push_back({0, true, ModelStream::Expert, GpuClass::Communication, "ncclKernel_SendRecv",
                     Comm::Ep});
    }
    if (fwd && head > 0)
      k.push_back({head * share, false, ModelStream::Compute, GpuClass::Gemm,
                   "dcwalk_gemm_" + prec + "_lm_head_fwd", Comm::None});
    if (p.desc.pp > 1)
      k.push_back({p.ppSend_s / 2, false, ModelStream::PipelineParallel, GpuClass::Communication,
                   "ncclKernel_SendRecv", fwd ? Comm::PpForward : Comm::PpBackward});
    double& nominal = fwd ? out.forwardNominal_s : out.backwardNominal_s;
    for (const PassKernel& pk : k) nominal += pk.nominal_s;
  }
  return out;
}

// One rank's communicators, as indices into its ModelRank::collectives.
struct RankComms {
  std::array<int32_t, 8> pass{};  // by Comm
  int64_t dpGradientBytes = 0;
};

RankComms addCommunicators(ModelRank& out, const TrainingPlan& p, const TrainingRankPlace& at) {
  const engine::TrainingDesc& d = p.desc;
  const double bpe = bytesPerElement(d.precision);
  const double tokens = d.microBatch * d.seqLen_tokens / d.cp;
  const double activation = tokens * p.model.hidden * bpe;
  std::vector<int64_t> tpGroup, ppGroup, epGroup, cpGroup;
  const int tpBase = at.inGroup - at.inGroup % d.tp;
  for (int t = 0; t < d.tp; ++t) tpGroup.push_back(rankOf(p, at.stage, at.replica, tpBase + t));
  for (int c = 0; c < d.cp; ++c)
    cpGroup.push_back(rankOf(p, at.stage, at.replica, at.inGroup % d.tp + c * d.tp));
  for (int s = 0; s < d.pp; ++s) ppGroup.push_back(rankOf(p, s, at.replica, at.inGroup));
  const int epBase = at.replica - at.replica % d.ep;
  for (int e = 0; e < d.ep; ++e) epGroup.push_back(rankOf(p, at.stage, epBase + e, at.inGroup));
  RankComms c;
  c.pass.fill(-1);
  auto add = [&](Comm comm, ModelCollective mc) {
    c.pass[size_t(comm)] = static_cast<int32_t>(out.collectives.size());
    out.collectives.push_back(std::move(mc));
  };
  const Precision prec = d.precision;
  add(Comm::TpAllReduce, modelCollective("allreduce", activation, activation, prec, tpGroup, "tp"));
  add(Comm::TpAllGather,
      modelCollective("allgather", activation / d.tp, activation, prec, tpGroup, "tp"));
  add(Comm::TpReduceScatter,
      modelCollective("reducescatter", activation, activation / d.tp, prec, tpGroup, "tp"));
  add(Comm::Cp, modelCollective("sendrecv", 0, 0, prec, cpGroup, "cp"));
  const double pp = activation / d.tp;  // each TP rank sends its slice (sequence parallel)
  add(Comm::PpForward, modelCollective("send", pp, pp, prec, ppGroup, "pp"));
  add(Comm::PpBackward, modelCollective("recv", pp, pp, prec, ppGroup, "pp"));
  add(Comm::Ep, modelCollective("alltoall", p.allToAllBytesPerGpu, p.allToAllBytesPerGpu, prec,
                                epGroup, "ep"));
  c.dpGradientBytes = static_cast<int64_t>(p.gradientBytesPerGpu);
  return c;
}

std::vector<int64_t> dpGroupOf(const TrainingPlan& p, const TrainingRankPlace& at) {
  std::vector<int64_t> g;
  for (int r = 0; r < p.desc.dp; ++r) g.push_back(rankOf(p, at.stage, r, at.inGroup));
  return g;
}

// Maps the modelled step's clock (phase boundaries `from`) onto the engine's (`to`), piecewise
// linearly: the identity plus the step's start when the state held through the step.
struct Warp {
  std::array<double, 4> from{}, to{};
  double operator()(double x) const {
    for (int i = 0; i < 3; ++i) {
      if (x > from[i + 1] && i < 2) continue;
      const double span = from[i + 1] - from[i];
      const double f = span > 0 ? std::clamp((x - from[i]) / span, 0.0, 1.0) : 0.0;
      return to[i] + f * (to[i + 1] - to[i]);
    }
    return to[3];
  }
};

// Lays one recorded step out for one rank running at clock share `speed`.
void addStep(ModelRank& out, const TrainingPlan& p, const Passes& passes, const RankComms& comms,
             const TrainingRankPlace& at, const std::vector<int64_t>& dpGroup, double speed,
             const TrainingStepRecord& rec) {
  const engine::TrainingDesc& d = p.desc;
  const double rate = std::clamp(rec.rate, 1e-6, 1.0);
  const double g = std::clamp(std::max(speed, rate), 1e-6, 1.0);
  const double a2a = std::isfinite(rec.allToAll_s) ? rec.allToAll_s : 0.0;
  const double a2aPass = passes.allToAllsPerPass * a2a;
  const double fwdSlot = passes.forwardNominal_s / rate + a2aPass;
  const double bwdSlot = passes.backwardNominal_s / rate + a2aPass;
  const double m = d.microBatches, v = d.virtualStages;
  const double work = m * (fwdSlot + bwdSlot);
  const double pipeline = work * (1.0 + p.bubbleFraction);
  // The engine's StageWindow: the stage idles s forward slots before its first micro-batch and
  // s backward slots after its last, at the job's pace, all-to-alls included.
  const engine::StageWindow& window = p.stages[size_t(at.stage)];
  const double lead = window.start_s / rate + at.stage * a2aPass / v;
  const double trail = (p.pipeline_s - window.end_s) / rate + at.stage * a2aPass / v;
  const double gap = std::max(0.0, pipeline - work - lead - trail);
  const double observedDp = rec.dataParallelEnd_s - rec.pipelineEnd_s;
  const bool dpFinite = std::isfinite(rec.dataParallel_s);
  const double exposed = dpFinite ? rec.dataParallelExposed_s : observedDp;
  const double dpTotal = d.dp > 1 ? (dpFinite ? rec.dataParallel_s : observedDp) : 0.0;
  Warp warp;
  warp.from = {0, pipeline, pipeline + exposed, pipeline + exposed + p.optimizer_s / rate};
  warp.to = {rec.start_s, rec.pipelineEnd_s, rec.dataParallelEnd_s, rec.end_s};
  auto add = [&](double start, double dur, ModelStream stream, GpuClass cls,
                 const std::string& name, int32_t collective) {
    const double a = warp(start), b = warp(start + dur);
    out.addKernel(a, b - a, stream, cls, name, collective);
  };
  // A pass at `slot`: its kernels back to back at the rank's clock; returns its busy length.
  auto pass = [&](const std::vector<PassKernel>& kernels, double slot) {
    double t = slot;
    for (const PassKernel& k : kernels) {
      const double dur = k.allToAll ? a2a : k.nominal_s / g;
      add(t, dur, k.stream, k.cls, k.name, comms.pass[size_t(k.comm)]);
      t += dur;
    }
    return t - slot;
  };
  // 1F1B: warm-up forwards, the rest of the bubble, then one forward and one backward in turn.
  const int mb = d.microBatches;
  const int warmup = std::min(d.pp - 1 - at.stage, mb - 1);
  double t = lead, firstForward = 0, lastBackward = 0, lastBackwardStart = 0;
  int forwards = 0;
  for (; forwards < warmup; ++forwards, t += fwdSlot) {
    const double busy = pass(passes.forward, t);
    if (forwards == 0) firstForward = busy;
  }
  const double firstForwardStart = lead;
  t += gap;
  for (int b = 0; b < mb; ++b) {
    if (forwards < mb) {
      const double busy = pass(passes.forward, t);
      if (forwards++ == 0) firstForward = busy;
      t += fwdSlot;
    }
    lastBackwardStart = t;
    lastBackward = pass(passes.backward, t);
    t += bwdSlot;
  }
  // DP: the all-gather under the first forward, the reduce-scatter under the last backward, as
  // far as the engine's overlap and those passes reach; the rest exposed after the last backward.
  if (dpTotal > 0) {
    const double rsShare =
        p.step.dpReduceScatter_s + p.step.dpAllGather_s > 0
            ? p.step.dpReduceScatter_s / (p.step.dpReduceScatter_s + p.step.dpAllGather_s)
            : 0.5;
    const double rs = dpTotal * rsShare, ag = dpTotal - rs;
    const double hidden = std::max(0.0, dpTotal - exposed);
    const double rsHidden = std::min({rs, lastBackward, hidden});
    const double agHidden = std::min({ag, firstForward, hidden - rsHidden});
    const double bytes = double(comms.dpGradientBytes);
    auto dpKernel = [&](double start, double dur, bool gather) {
      const double share = dur / (gather ? ag : rs);
      const double full = bytes * share, shard = full / d.dp;
      const int32_t c = static_cast<int32_t>(out.collectives.size());
      out.collectives.push_back(
          gather ? modelCollective("allgather", shard, full, d.precision, dpGroup, "dp")
                 : modelCollective("reducescatter", full, shard, d.precision, dpGroup, "dp"));
      add(start, dur, ModelStream::DataParallel, GpuClass::Communication,
          gather ? "ncclKernel_AllGather_" + std::string(precisionName(d.precision))
                 : "ncclKernel_ReduceScatter_Sum_" + std::string(precisionName(d.precision)),
          c);
    };
    if (agHidden > 0) dpKernel(firstForwardStart, agHidden, true);
    if (rsHidden > 0) dpKernel(lastBackwardStart, rsHidden, false);
    const double tail = pipeline - trail;
    if (rs - rsHidden > 0) dpKernel(tail, rs - rsHidden, false);
    if (ag - agHidden > 0) dpKernel(tail + rs - rsHidden, ag - agHidden, true);
  }
  // The optimizer closes the step (a faster GPU waits before it, as for the others' gradients).
  const double optimizerSpan = warp.from[3] - warp.from[2];
  const double optimizer_s =
      p.optimizer_s / g *
      (optimizerSpan > 0 ? (rec.end_s - rec.dataParallelEnd_s) / optimizerSpan : 1.0);
  out.addKernel(rec.end_s - optimizer_s, optimizer_s, ModelStream::Compute, GpuClass::OtherCompute,
                "dcwalk_multi_tensor_adam");
  out.steps.push_back({rec.number, toNs(rec.start_s), toNs(rec.end_s)});
}

}  // namespace

std::vector<ModelRank> trainingRanks(const Engine& e, const std::vector<TrainingStepRecord>& steps,
                                     const std::vector<int64_t>& ranks) {
  const TrainingPlan& p = *e.training();
  const engine::Cluster& c = e.cluster();
  const Passes passes = passesOf(p);
  std::vector<ModelRank> out;
  for (int64_t rank : ranks) {
    const TrainingRankPlace at = trainingRankPlace(p, rank);
    ModelRank r;
    r.rank = rank;
    r.worldSize = p.jobGpus;
    r.gpu = p.gpuOfRank[size_t(rank)];
    r.device = c.gpus[r.gpu].slot;
    r.deviceName = c.specs.gpu.name;
    r.deviceMemory_bytes = c.specs.gpu.hbmUsable_bytes;
    r.role = "pipeline stage " + std::to_string(at.stage) + " of " + std::to_string(p.desc.pp) +
             ", data-parallel replica " + std::to_string(at.replica) + " of " +
             std::to_string(p.desc.dp) + ", rank " + std::to_string(at.inGroup) +
             " in its tensor-parallel group, GPU " + std::to_string(r.gpu);
    const RankComms comms = addCommunicators(r, p, at);
    const std::vector<int64_t> dpGroup = dpGroupOf(p, at);
    for (const TrainingStepRecord& rec : steps) {
      double speed = 1.0;
      for (const SlowGpu& s : rec.slowGpus)
        if (s.gpu == r.gpu) speed = s.speed;
      addStep(r, p, passes, comms, at, dpGroup, speed, rec);
    }
    sortKernels(r);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace sim::trace
