#include "sim/engine/engine.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "sim/calc/power.h"
#include "sim/engine/request.h"

namespace sim::engine {
namespace {

constexpr uint16_t NO_HOPS = 0xffff;

uint64_t fnv(uint64_t h, const void* data, size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}
template <class T>
uint64_t fnvVec(uint64_t h, const std::vector<T>& v) {
  return fnv(h, v.data(), v.size() * sizeof(T));
}

std::string checkFault(const FaultDesc& f, const Cluster& c, size_t i) {
  const std::string at = "faults[" + std::to_string(i) + "]";
  if (!(f.start_s >= 0) || !(f.end_s > f.start_s))
    return at + ": start_s must be >= 0 and end_s > start_s";
  if (f.severity < 0 || f.severity > 1) return at + ".severity must be within 0..1";
  uint32_t count = 0;
  switch (f.kind) {
    case FaultKind::LinkDown:
      count = c.linkCount();
      break;
    case FaultKind::PfcStorm:
      count = c.switchCount();
      break;
    case FaultKind::PumpTrip:
      count = c.cdus;
      break;
    case FaultKind::Straggler:
      count = c.gpuCount();
      break;
  }
  if (f.target >= count)
    return at + ".target: " + std::to_string(f.target) + " is not a valid " +
           faultKindName(f.kind) + " target (0.." + std::to_string(count - 1) + ")";
  return "";
}

}  // namespace

const char* faultKindName(FaultKind kind) {
  switch (kind) {
    case FaultKind::LinkDown:
      return "link_down";
    case FaultKind::PfcStorm:
      return "pfc_storm";
    case FaultKind::PumpTrip:
      return "pump_trip";
    case FaultKind::Straggler:
      return "straggler";
  }
  return "?";
}

Result<std::unique_ptr<Engine>> Engine::create(const Catalog& catalog, const EngineDesc& desc) {
  using R = Result<std::unique_ptr<Engine>>;
  if (!(desc.dt_s > 0) || desc.dt_s > 10) return R::failure("dt_s must be within (0, 10] s");
  if (desc.seriesEvery < 1) return R::failure("seriesEvery must be >= 1");
  if (desc.seriesCapacity < 2 || desc.seriesCapacity > 10'000'000)
    return R::failure("seriesCapacity must be 2..10,000,000");
  if (auto valid = checkEngineDesc(desc); !valid) return R::failure(valid.error());
  auto figures = loadEngineFigures(catalog);
  if (!figures) return R::failure(figures.error());
  auto specs = loadClusterSpecs(catalog, desc.cluster);
  if (!specs) return R::failure(specs.error());
  auto cluster = buildCluster(*specs, desc.cluster, figures->racksPerCdu, specs->system.maxPower_W);
  if (!cluster) return R::failure(cluster.error());

  std::unique_ptr<Engine> e(new Engine());
  e->m_desc = desc;
  e->m_figures = *figures;
  e->m_cluster = std::move(*cluster);
  const Cluster& c = e->m_cluster;
  e->m_router =
      Router(&e->m_cluster, desc.seed, static_cast<uint32_t>(figures->channelsPerConnection));

  if (desc.workload.kind == WorkloadKind::Training) {
    auto plan = planTraining(catalog, c, desc.workload.training);
    if (!plan) return R::failure(plan.error());
    e->m_training = std::move(*plan);
  } else {
    auto plan = planInference(catalog, c, desc.workload.inference);
    if (!plan) return R::failure(plan.error());
    e->m_inferencePlan = std::move(*plan);
    e->m_service = InferenceService(&e->m_inferencePlan, desc.seed);
    e->m_replicaSpeed.assign(e->m_inferencePlan.replicas, 1.0f);
  }
  for (size_t i = 0; i < desc.faults.size(); ++i)
    if (std::string err = checkFault(desc.faults[i], c, i); !err.empty()) return R::failure(err);

  // Cooling: each CDU's design flow carries its racks' maximum power at the design rise.
  const FacilitySpec& fac = c.specs.facility;
  const double racksPerCdu = std::max(1.0, std::floor(figures->racksPerCdu));
  e->m_loop = {
      figures->cduLoopMass_kg, fac.coolantSpecificHeat_J_per_kg_K,
      calc::coolantMassFlow_kg_per_s(racksPerCdu * c.rackMaxPower_W,
                                     fac.coolantSpecificHeat_J_per_kg_K, fac.coolantDeltaT_K),
      fac.coolantSupply_C};
  // A GPU's cold plate takes the share of that flow its TDP takes of the rack's maximum power.
  e->m_plate = {figures->coldPlateCoolantMass_kg, fac.coolantSpecificHeat_J_per_kg_K,
                calc::coolantMassFlow_kg_per_s(
                    c.specs.gpu.tdp_W, fac.coolantSpecificHeat_J_per_kg_K, fac.coolantDeltaT_K),
                fac.coolantSupply_C};
  const double gpuTdp_W = c.specs.gpu.tdp_W;
  e->m_otherRackLoad_W =
      figures->rackOtherLoadFraction * std::max(0.0, c.rackMaxPower_W - c.gpusPerRack * gpuTdp_W);
  e->m_designIt_W = double(c.campusRacks) * c.rackMaxPower_W;

  const size_t gpus = c.gpuCount(), links = c.linkCount();
  e->m_gpuUtil.assign(gpus, 0);
  e->m_gpuPower_W.assign(gpus, 0);
  e->m_gpuJunction_C.assign(gpus, static_cast<float>(fac.coolantSupply_C));  // idle, at the supply
  e->m_gpuColdPlate_C.assign(gpus, static_cast<float>(fac.coolantSupply_C));
  e->m_gpuHbm_Bps.assign(gpus, 0);
  e->m_gpuKv.assign(gpus, 0);
  e->m_gpuSpeed.assign(gpus, 1.0f);
  e->m_switchPaused.assign(c.switchCount(), 0);
  e->m_rackPower_W.assign(c.racks, 0);
  e->m_rackMeanPower_W.assign(c.racks, 0);
  e->m_rackWindowEnergy_J.assign(c.racks, 0);
  e->m_cduLoop_C.assign(c.cdus, static_cast<float>(fac.coolantSupply_C));
  e->m_cduFlow.assign(c.cdus, 1.0f);
  e->m_cduClock.assign(c.cdus, 1.0f);
  e->m_cduHeat_W.assign(c.cdus, 0);
  e->m_cduHottestPlate_C.assign(c.cdus, fac.coolantSupply_C);
  e->m_cduHostsWork.assign(c.cdus, 0);
  for (uint32_t g = 0; g < gpus; ++g) {
    const bool works = e->training() ? e->m_training.stageOfGpu[g] != NOT_IN_JOB
                                     : e->m_inferencePlan.replicaOfGpu[g] != INVALID_INDEX;
    if (works) e->m_cduHostsWork[c.rackCdu[c.gpus[g].rack.index]] = 1;
  }
  e->m_dpLoad.assign(2 * links, 0);
  e->m_ppLoad.assign(2 * links, 0);
  e->m_a2aLoad.assign(2 * links, 0);
  e->m_dpUtil.assign(links, 0);
  e->m_ppUtil.assign(links, 0);
  e->m_zeroUtil.assign(links, 0);
  const size_t stages = e->training() ? e->m_training.stages.size() : 0;
  e->m_stagePower_W.assign(stages, 0);
  e->m_stageUtil.assign(stages, 0);
  e->m_stageHbm_Bps.assign(stages, 0);
  e->m_series.resize(desc.seriesCapacity);
  e->m_seriesEvery = desc.seriesEvery;
  for (const FaultDesc& f : desc.faults) {
    e->m_faultActive.push_back(0);
    e->m_faultClear_s.push_back(f.end_s);
    e->m_pfcHops.emplace_back(f.kind == FaultKind::PfcStorm ? c.switchCount() : 0, NO_HOPS);
  }

  e->reroute();
  if (e->training()) {
    e->m_faultFreeDp_s = e->m_dpTime_s;
    e->m_faultFreePipeline_s = e->m_pipeline_s;
    e->m_faultFreeStep_s =
        e->m_pipeline_s + e->m_training.dpExposed_s(e->m_dpTime_s) + e->m_training.optimizer_s;
    e->trainingPower();
  } else {
    e->inferencePower();
  }
  // Start every loop and cold plate at the equilibrium of the first step's heat.
  for (uint32_t r = 0; r < c.racks; ++r) e->m_cduHeat_W[c.rackCdu[r]] += e->m_rackPower_W[r];
  const auto settled = [](const CoolingLoop& loop, double heat_W) {
    return static_cast<float>(loop.supply_C +
                              calc::coolantTemperatureRise_K(heat_W, loop.designFlow_kg_per_s,
                                                             loop.specificHeat_J_per_kg_K));
  };
  for (uint32_t k = 0; k < c.cdus; ++k) e->m_cduLoop_C[k] = settled(e->m_loop, e->m_cduHeat_W[k]);
  for (uint32_t g = 0; g < gpus; ++g)
    e->m_gpuColdPlate_C[g] = settled(e->m_plate, e->m_gpuPower_W[g]);
  e->aggregate();
  return R(std::move(e));
}

void Engine::addFault(const FaultDesc& fault) {
  m_desc.faults.push_back(fault);
  m_faultActive.push_back(0);
  m_faultClear_s.push_back(fault.end_s);
  m_pfcHops.emplace_back(fault.kind == FaultKind::PfcStorm ? m_cluster.switchCount() : 0, NO_HOPS);
}

void Engine::reroute() {
  const Cluster& c = m_cluster;
  std::fill(m_dpLoad.begin(), m_dpLoad.end(), 0.0);
  std::fill(m_ppLoad.begin(), m_ppLoad.end(), 0.0);
  std::fill(m_a2aLoad.begin(), m_a2aLoad.end(), 0.0);
  if (!training()) return;
  const TrainingPlan& p = m_training;
  m_dpTotals = m_router.route(p.dpFlows, 1, m_dpLoad);
  m_ppTotals = m_router.route(p.ppFlows, 2, m_ppLoad);
  m_a2aTotals = m_router.route(p.allToAllFlows, 3, m_a2aLoad);
  m_a2aTime_s = p.allToAllFlows.empty() ? 0 : busiestLinkTime_s(c, m_a2aLoad) + p.allToAllAlpha_s;
  if (m_a2aTotals.unroutable > 0) m_a2aTime_s = NEVER_S;
  // The all-to-alls sit on the critical path of every micro-batch slot.
  const double a2aPerStep = p.desc.microBatches * p.allToAllsPerMicroBatch;
  m_pipeline_s = p.pipeline_s + a2aPerStep * (1.0 + p.bubbleFraction) * m_a2aTime_s;
  const double dpBusy_s = busiestLinkTime_s(c, m_dpLoad);
  m_dpTime_s = m_training.dpFlows.empty() ? 0 : dpBusy_s + m_training.dpAlpha_s;
  if (m_dpTotals.unroutable > 0) m_dpTime_s = NEVER_S;  // the ring cannot complete
  m_dpMaxUtil = m_ppMaxUtil = 0;
  for (size_t l = 0; l < c.links.size(); ++l) {
    const double cap = c.links[l].capacity_Bps;
    const double dp = std::max(m_dpLoad[2 * l], m_dpLoad[2 * l + 1]) / cap;
    const double pp = std::max(m_ppLoad[2 * l] + a2aPerStep * m_a2aLoad[2 * l],
                               m_ppLoad[2 * l + 1] + a2aPerStep * m_a2aLoad[2 * l + 1]) /
                      cap;
    m_dpUtil[l] = std::isfinite(m_dpTime_s) && m_dpTime_s > 0 ? float(dp / m_dpTime_s) : 0.0f;
    m_ppUtil[l] = std::isfinite(m_pipeline_s) && m_pipeline_s > 0 ? float(pp / m_pipeline_s) : 0.0f;
    m_dpMaxUtil = std::max(m_dpMaxUtil, double(m_dpUtil[l]));
    m_ppMaxUtil = std::max(m_ppMaxUtil, double(m_ppUtil[l]));
  }
}

void Engine::applyFaults() {
  const Cluster& c = m_cluster;
  bool links = false, pumps = false, stragglers = false;
  for (size_t i = 0; i < m_desc.faults.size(); ++i) {
    const FaultDesc& f = m_desc.faults[i];
    const uint8_t active = (m_time_s >= f.start_s && m_time_s < f.end_s) ? 1 : 0;
    if (active == m_faultActive[i]) continue;
    m_faultActive[i] = active;
    switch (f.kind) {
      case FaultKind::LinkDown:
        links = true;
        break;
      case FaultKind::PumpTrip:
        pumps = true;
        break;
      case FaultKind::Straggler:
        stragglers = true;
        break;
      case FaultKind::PfcStorm:
        if (active) {
          // Hop distance from the congested switch over switch-to-switch cables (relaxation,
          // at most the fabric's diameter passes; no allocation).
          std::vector<uint16_t>& hops = m_pfcHops[i];
          std::fill(hops.begin(), hops.end(), NO_HOPS);
          hops[f.target] = 0;
          for (bool changed = true; changed;) {
            changed = false;
            for (const Link& L : c.links) {
              if (L.tier == LinkTier::Endpoint) continue;
              const uint16_t a = hops[L.lower], b = hops[L.upper];
              if (a != NO_HOPS && (b == NO_HOPS || b > a + 1))
                hops[L.upper] = a + 1, changed = true;
              if (b != NO_HOPS && (a == NO_HOPS || a > b + 1))
                hops[L.lower] = b + 1, changed = true;
            }
          }
        } else {
          m_faultClear_s[i] = m_time_s;
        }
        break;
    }
  }
  if (links) {
    for (uint32_t l = 0; l < c.linkCount(); ++l) m_router.setLinkUp({l}, true);
    for (size_t i = 0; i < m_desc.faults.size(); ++i)
      if (m_faultActive[i] && m_desc.faults[i].kind == FaultKind::LinkDown)
        m_router.setLinkUp({m_desc.faults[i].target}, false);
    reroute();
  }
  if (pumps) {
    std::fill(m_cduFlow.begin(), m_cduFlow.end(), 1.0f);
    for (size_t i = 0; i < m_desc.faults.size(); ++i) {
      const FaultDesc& f = m_desc.faults[i];
      if (!m_faultActive[i] || f.kind != FaultKind::PumpTrip) continue;
      const double left = f.severity > 0 ? f.severity : m_figures.pumpTripRemainingFlowFraction;
      m_cduFlow[f.target] = std::min(m_cduFlow[f.target], float(left));
    }
  }
  if (stragglers) {
    std::fill(m_gpuSpeed.begin(), m_gpuSpeed.end(), 1.0f);
    m_stragglerMin = 1;
    for (size_t i = 0; i < m_desc.faults.size(); ++i) {
      const FaultDesc& f = m_desc.faults[i];
      if (!m_faultActive[i] || f.kind != FaultKind::Straggler) continue;
      const double speed = f.severity > 0 ? f.severity : m_figures.stragglerSpeedFraction;
      m_gpuSpeed[f.target] = std::min(m_gpuSpeed[f.target], float(speed));
      const bool inJob = training() ? m_training.stageOfGpu[f.target] != NOT_IN_JOB : false;
      if (inJob) m_stragglerMin = std::min(m_stragglerMin, float(speed));
    }
  }
}

void Engine::updatePause() {
  const double hop = m_figures.pfcHopDelay_s;
  const double t = m_time_s;
  if (m_pausedSwitches > 0) std::fill(m_switchPaused.begin(), m_switchPaused.end(), 0);
  m_pausedSwitches = 0;
  for (size_t i = 0; i < m_desc.faults.size(); ++i) {
    const FaultDesc& f = m_desc.faults[i];
    if (f.kind != FaultKind::PfcStorm || t < f.start_s) continue;
    // The trigger holds pause until it clears; a cyclic buffer dependency (deadlock) holds it
    // until the PFC watchdog drops the stuck queues. Then pause drains hop by hop outwards.
    const double clear = m_faultActive[i] ? NEVER_S : m_faultClear_s[i];
    const double release = clear + (f.deadlock ? m_figures.pfcWatchdog_s : 0.0);
    const std::vector<uint16_t>& hops = m_pfcHops[i];
    for (size_t s = 0; s < hops.size(); ++s) {
      if (hops[s] == NO_HOPS) continue;
      const double reached = f.start_s + hops[s] * hop;
      if (t >= reached && reached < release && t < release + hops[s] * hop) {
        m_pausedSwitches += m_switchPaused[s] ? 0 : 1;
        m_switchPaused[s] = 1;
      }
    }
  }
}

double Engine::computeRate() const {
  double rate = m_stragglerMin;
  for (uint32_t k = 0; k < m_cluster.cdus; ++k)
    if (m_cduHostsWork[k]) rate = std::min(rate, double(m_cduClock[k]));
  return rate;
}

double Engine::phaseDuration_s(TrainingPhase phase) const {
  return phaseDuration_s(phase, computeRate());
}

double Engine::phaseDuration_s(TrainingPhase phase, double rate) const {
  const TrainingPlan& p = m_training;
  switch (phase) {
    case TrainingPhase::Pipeline:
      // Compute and NVLink scale with the clock; the fabric's all-to-alls do not.
      return p.pipeline_s / rate + (m_pipeline_s - p.pipeline_s);
    case TrainingPhase::DataParallel:
      // Only what the bubble and the last backward cannot hide holds the step up.
      return p.dpExposed_s(m_dpTime_s);
    case TrainingPhase::Optimizer:
      return p.optimizer_s / rate;
  }
  return 0.0;
}

void Engine::advanceTraining(double dt_s) {
  const TrainingPlan& p = m_training;
  const double rate = computeRate();
  const bool paused = m_pausedSwitches > 0;
  double remaining = dt_s, useful_s = 0;
  while (remaining > 0) {
    const double duration = phaseDuration_s(m_phase, rate);
    double nominal = p.optimizer_s;
    if (m_phase == TrainingPhase::Pipeline) nominal = m_faultFreePipeline_s;
    if (m_phase == TrainingPhase::DataParallel) nominal = p.dpExposed_s(m_faultFreeDp_s);
    const bool stalled =
        m_phase != TrainingPhase::Optimizer && (paused || !std::isfinite(duration));
    if (stalled) break;
    const double left_s = (1.0 - m_phaseFraction) * duration;
    const double spent = std::min(left_s, remaining);
    const double dFraction = duration > 0 ? spent / duration : 1.0 - m_phaseFraction;
    useful_s += dFraction * nominal;
    if (m_phase == TrainingPhase::Pipeline) {
      m_nvlinkBytes += dFraction * p.nvlinkBytesPerStep + dFraction * m_ppTotals.nvlink_bytes;
      const double a2aPerStep = p.desc.microBatches * p.allToAllsPerMicroBatch;
      m_fabricBytes +=
          dFraction * (m_ppTotals.injected_bytes + a2aPerStep * m_a2aTotals.injected_bytes);
      m_nvlinkBytes += dFraction * a2aPerStep * m_a2aTotals.nvlink_bytes;
    } else if (m_phase == TrainingPhase::DataParallel) {
      m_nvlinkBytes += dFraction * m_dpTotals.nvlink_bytes;
      m_fabricBytes += dFraction * m_dpTotals.injected_bytes;
    }
    remaining -= spent;
    if (left_s > spent) {
      m_phaseFraction += dFraction;
      break;
    }
    m_phaseFraction = 0;
    if (m_phase == TrainingPhase::Pipeline) {
      m_phase = p.dpFlows.empty() ? TrainingPhase::Optimizer : TrainingPhase::DataParallel;
    } else if (m_phase == TrainingPhase::DataParallel) {
      m_phase = TrainingPhase::Optimizer;
    } else {
      const double end_s = m_time_s + (dt_s - remaining);
      m_lastStepTime_s = end_s - m_stepStart_s;
      m_stepStart_s = end_s;
      ++m_completedSteps;
      m_tokensDone += p.tokensPerStep;
      m_phase = TrainingPhase::Pipeline;
    }
  }
  m_goodput = useful_s / dt_s;
  m_useful_s += useful_s;
  if (paused)
    m_linkUtil = &m_zeroUtil;
  else
    m_linkUtil = m_phase == TrainingPhase::Pipeline       ? &m_ppUtil
                 : m_phase == TrainingPhase::DataParallel ? &m_dpUtil
                                                          : &m_zeroUtil;
}

void Engine::trainingPower() {
  const Cluster& c = m_cluster;
  const TrainingPlan& p = m_training;
  const double tdp = c.specs.gpu.tdp_W;
  const double idle = m_figures.gpuIdleFraction * tdp;
  const double comm = m_figures.gpuCommunicationFraction * tdp;
  const double mem = m_figures.gpuMemoryBoundFraction * tdp;
  const double hbm = c.specs.gpu.hbmBandwidth_Bps;
  const bool paused = m_pausedSwitches > 0;
  // Weights read once forward and twice backward per micro-batch slot.
  const double weightsPerGpu_bytes =
      p.params / (double(p.desc.tp) * p.desc.pp) * bytesPerElement(p.desc.precision);
  const double computeHbm_Bps =
      p.microBatchSlot_s > 0 ? std::min(hbm, 3.0 * weightsPerGpu_bytes / p.microBatchSlot_s) : 0;
  const double tau = m_phaseFraction * p.pipeline_s;
  for (size_t s = 0; s < p.stages.size(); ++s) {
    double power = idle, util = 0, traffic = 0;
    if (paused && m_phase != TrainingPhase::Optimizer) {
      power = comm;  // spinning in NCCL, waiting on paused ports
    } else if (m_phase == TrainingPhase::Pipeline) {
      const StageWindow& w = p.stages[s];
      if (tau >= w.start_s && tau < w.end_s) {
        util = w.busyFraction;
        power = util * tdp + (1.0 - util) * comm;
        traffic = util * computeHbm_Bps;
      }
    } else if (m_phase == TrainingPhase::DataParallel) {
      power = comm;
      traffic = std::isfinite(m_dpTime_s) && m_dpTime_s > 0
                    ? std::min(hbm, 2.0 * p.dpRingBytesPerGpu / m_dpTime_s)
                    : 0;
    } else {
      power = mem;
      traffic = hbm;
    }
    m_stagePower_W[s] = float(power);
    m_stageUtil[s] = float(util);
    m_stageHbm_Bps[s] = float(traffic);
  }
  for (uint32_t r = 0; r < c.racks; ++r) {
    const float clock = m_cduClock[c.rackCdu[r]];
    double rack_W = m_otherRackLoad_W;
    const uint32_t first = r * c.gpusPerRack;
    for (uint32_t g = first; g < first + c.gpusPerRack; ++g) {
      const uint8_t s = p.stageOfGpu[g];
      if (s == NOT_IN_JOB) {
        m_gpuPower_W[g] = float(idle);
        m_gpuUtil[g] = 0;
        m_gpuHbm_Bps[g] = 0;
      } else {
        m_gpuPower_W[g] = float(idle + (m_stagePower_W[s] - idle) * clock);
        m_gpuUtil[g] = m_stageUtil[s] * clock;
        m_gpuHbm_Bps[g] = m_stageHbm_Bps[s] * clock;
      }
      rack_W += m_gpuPower_W[g];
    }
    m_rackPower_W[r] = float(rack_W);
  }
}

void Engine::inferencePower() {
  const Cluster& c = m_cluster;
  const InferencePlan& p = m_inferencePlan;
  const double tdp = c.specs.gpu.tdp_W;
  const double idle = m_figures.gpuIdleFraction * tdp;
  const double mem = m_figures.gpuMemoryBoundFraction * tdp;
  const double hbm = c.specs.gpu.hbmBandwidth_Bps;
  const auto& activity = m_service.activity();
  const auto& kv = m_service.kvOccupancy();
  for (uint32_t r = 0; r < c.racks; ++r) {
    const float clock = m_cduClock[c.rackCdu[r]];
    double rack_W = m_otherRackLoad_W;
    const uint32_t first = r * c.gpusPerRack;
    for (uint32_t g = first; g < first + c.gpusPerRack; ++g) {
      const uint32_t rep = p.replicaOfGpu[g];
      if (rep == INVALID_INDEX) {
        m_gpuPower_W[g] = float(idle);
        m_gpuUtil[g] = m_gpuHbm_Bps[g] = m_gpuKv[g] = 0;
      } else {
        const ReplicaActivity a = activity[rep];
        const double busy = a.prefillShare * (tdp - idle) + a.decodeShare * (mem - idle);
        m_gpuPower_W[g] = float(idle + busy * clock);
        m_gpuUtil[g] = std::min(1.0f, a.prefillShare + a.decodeShare);
        m_gpuHbm_Bps[g] = float(a.decodeShare * hbm);
        m_gpuKv[g] = kv[rep];
      }
      rack_W += m_gpuPower_W[g];
    }
    m_rackPower_W[r] = float(rack_W);
  }
}

void Engine::thermal(double dt_s) {
  const Cluster& c = m_cluster;
  const FacilitySpec& fac = c.specs.facility;
  std::fill(m_cduHeat_W.begin(), m_cduHeat_W.end(), 0.0);
  for (uint32_t r = 0; r < c.racks; ++r) m_cduHeat_W[c.rackCdu[r]] += m_rackPower_W[r];
  for (uint32_t k = 0; k < c.cdus; ++k) {
    const double start = m_cduLoop_C[k];
    const double end = loopTemperatureAfter_C(m_loop, start, m_cduHeat_W[k], m_cduFlow[k], dt_s);
    m_itEnergy_J += m_cduHeat_W[k] * dt_s;
    m_heatRemoved_J += engine::heatRemoved_J(m_loop, start, end, m_cduFlow[k], dt_s);
    m_cduLoop_C[k] = float(end);
  }
  // Each cold plate at its CDU's flow; the hottest plate of a CDU sets its GPUs' clock.
  std::vector<double>& hottest_C = m_cduHottestPlate_C;
  std::fill(hottest_C.begin(), hottest_C.end(), fac.coolantSupply_C);
  for (uint32_t g = 0; g < c.gpuCount(); ++g) {
    const uint32_t k = c.rackCdu[c.gpus[g].rack.index];
    const double plate_C =
        loopTemperatureAfter_C(m_plate, m_gpuColdPlate_C[g], m_gpuPower_W[g], m_cduFlow[k], dt_s);
    m_gpuColdPlate_C[g] = float(plate_C);
    const double coolant_C = 0.5 * (m_plate.supply_C + plate_C);  // the plate's mean
    m_gpuJunction_C[g] = float(
        calc::junctionTemperature_C(coolant_C, m_gpuPower_W[g], fac.junctionToCoolant_K_per_W));
    hottest_C[k] = std::max(hottest_C[k], coolant_C);
  }
  for (uint32_t k = 0; k < c.cdus; ++k)
    m_cduClock[k] =
        float(throttleFactor(hottest_C[k], c.specs.gpu.tdp_W, fac.junctionToCoolant_K_per_W,
                             m_figures.throttleJunction_C, m_figures.throttleMinClockFraction));
}

void Engine::step() {
  const double dt = m_desc.dt_s;
  applyFaults();
  updatePause();
  const uint64_t stepsBefore = m_completedSteps;
  if (training()) {
    advanceTraining(dt);
    trainingPower();
  } else {
    const Cluster& c = m_cluster;
    const InferencePlan& p = m_inferencePlan;
    for (uint32_t r = 0; r < p.replicas; ++r) {
      const uint32_t first = p.firstGpuOfReplica[r];
      float speed = m_cduClock[c.rackCdu[c.gpus[first].rack.index]];
      for (int t = 0; t < p.desc.tp; ++t) speed = std::min(speed, m_gpuSpeed[first + t]);
      m_replicaSpeed[r] = speed;
    }
    m_service.step(m_time_s, dt, m_replicaSpeed);
    inferencePower();
  }
  averagePower(dt, m_completedSteps != stepsBefore);
  thermal(dt);
  ++m_steps;
  m_time_s = double(m_steps) * dt;
  aggregate();
  recordSeries();
}

void Engine::recordSeries() {
  if (m_steps % m_seriesEvery != 0) return;
  if (m_seriesCount == m_series.size()) {
    // Full: keep the rows at even multiples of the interval (the 2nd, 4th, ...), in place.
    size_t kept = 0;
    for (size_t i = 1; i < m_seriesCount; i += 2) m_series[kept++] = m_series[i];
    m_seriesCount = kept;
    m_seriesEvery *= 2;
    if (m_steps % m_seriesEvery != 0) return;
  }
  m_series[m_seriesCount++] = m_agg;
}

void Engine::averagePower(double dt_s, bool stepEnded) {
  for (size_t r = 0; r < m_rackPower_W.size(); ++r)
    m_rackWindowEnergy_J[r] += m_rackPower_W[r] * dt_s;
  m_window_s += dt_s;
  // A training step is the power's natural period (compute, then the collective); a step that
  // never ends (a deadlock) still closes its window, so the mean falls to what the racks draw.
  const double limit_s =
      training() ? STALLED_WINDOW_STEPS * m_faultFreeStep_s : SERVICE_POWER_WINDOW_S;
  const bool close = (training() && stepEnded) || m_window_s >= limit_s - 1e-9 * dt_s;
  if (!close && m_windowClosed) return;
  for (size_t r = 0; r < m_rackPower_W.size(); ++r)
    m_rackMeanPower_W[r] = float(m_rackWindowEnergy_J[r] / m_window_s);
  if (!close) return;
  std::fill(m_rackWindowEnergy_J.begin(), m_rackWindowEnergy_J.end(), 0.0);
  m_window_s = 0;
  m_windowClosed = true;
}

uint64_t stepsUntil(double t_s, double dt_s) {
  if (!(t_s > 0)) return 0;
  return static_cast<uint64_t>(std::ceil(t_s / dt_s - 1e-9));
}

void Engine::advanceTo(double t_s) {
  const uint64_t target = stepsUntil(t_s, m_desc.dt_s);
  while (m_steps < target) step();
}

void Engine::aggregate() {
  const Cluster& c = m_cluster;
  Aggregates& a = m_agg;
  a.time_s = m_time_s;
  double fabric = 0;
  for (float w : m_rackPower_W) fabric += w;
  a.fabricIt_W = fabric;
  a.campusIt_W = fabric * double(c.campusRacks) / double(c.racks);
  a.facility_W =
      a.campusIt_W + facilityOverheadAt_W(a.campusIt_W, m_designIt_W, c.specs.facility.pue,
                                          m_figures.facilityFixedOverheadFraction);
  a.pue = a.campusIt_W > 0 ? a.facility_W / a.campusIt_W : 0;
  double power = 0, hot = 0;
  uint32_t working = 0;
  for (uint32_t g = 0; g < c.gpuCount(); ++g) {
    const bool works = training() ? m_training.stageOfGpu[g] != NOT_IN_JOB
                                  : m_inferencePlan.replicaOfGpu[g] != INVALID_INDEX;
    if (works) power += m_gpuPower_W[g], ++working;
    hot = std::max(hot, double(m_gpuJunction_C[g]));
  }
  a.meanGpuPower_W = working ? power / working : 0;
  a.maxJunction_C = hot;
  a.maxLoop_C = 0;
  a.minClock = 1;
  for (uint32_t k = 0; k < c.cdus; ++k) {
    a.maxLoop_C = std::max(a.maxLoop_C, double(m_cduLoop_C[k]));
    a.minClock = std::min(a.minClock, double(m_cduClock[k]));
  }
  a.pausedSwitches = m_pausedSwitches;
  if (training()) {
    const TrainingPlan& p = m_training;
    // Shares of the fault-free rate: the phase fractions' rounding may put useful seconds a few
    // ulps above the elapsed ones, which is no progress faster than fault-free.
    a.goodput = std::min(1.0, m_goodput);
    a.goodputCumulative = m_time_s > 0 ? std::min(1.0, m_useful_s / m_time_s) : 0;
    a.trainingSteps = double(m_completedSteps);
    a.lastStepTime_s = m_lastStepTime_s;
    // One step's tokens over the last step's time, or over the current step's so far when it has
    // run longer (a held step is no throughput).
    a.tokensPerSecond =
        m_lastStepTime_s > 0 ? p.tokensPerStep / std::max(m_lastStepTime_s, stepElapsed_s()) : 0;
    a.phase = double(m_phase);
    a.maxLinkUtilisation = m_linkUtil == &m_ppUtil   ? m_ppMaxUtil
                           : m_linkUtil == &m_dpUtil ? m_dpMaxUtil
                                                     : 0;
  } else {
    const InferenceService& s = m_service;
    a.phase = 3;
    a.tokensPerSecond = m_desc.dt_s > 0 ? s.stepOutputTokens / m_desc.dt_s : 0;
    a.queued = double(s.queued);
    a.active = double(s.active);
    a.meanTtft_s = s.stepTtftCount ? s.stepTtftSum_s / s.stepTtftCount : 0;
    a.tpot_s = s.meanTpot_s;
    double kv = 0;
    for (float k : s.kvOccupancy()) kv += k;
    a.meanKvOccupancy = m_inferencePlan.replicas ? kv / m_inferencePlan.replicas : 0;
    // Goodput of a service: tokens delivered per unit of clock it had (1 when nothing slows it).
    double speed = 0;
    for (float v : m_replicaSpeed) speed += v;
    a.goodput = m_inferencePlan.replicas ? speed / m_inferencePlan.replicas : 0;
    a.goodputCumulative = s.arrived ? double(s.arrived - s.rejected) / double(s.arrived) : 1;
  }
}

Snapshot Engine::snapshot() const {
  Snapshot s;
  s.gpuUtilisation = m_gpuUtil;
  s.gpuPower_W = m_gpuPower_W;
  s.gpuJunction_C = m_gpuJunction_C;
  s.gpuColdPlate_C = m_gpuColdPlate_C;
  s.gpuHbm_Bps = m_gpuHbm_Bps;
  s.gpuKvOccupancy = m_gpuKv;
  s.linkUtilisation = *m_linkUtil;
  s.linkUp = m_router.linkStates();
  s.switchPaused = m_switchPaused;
  s.rackPower_W = m_rackPower_W;
  s.rackMeanPower_W = m_rackMeanPower_W;
  s.cduLoop_C = m_cduLoop_C;
  s.cduFlowFraction = m_cduFlow;
  s.cduClock = m_cduClock;
  s.aggregates = m_agg;
  s.time_s = m_time_s;
  s.steps = m_steps;
  s.cluster = &m_cluster;
  s.figures = &m_figures;
  s.desc = &m_desc;
  s.training = training();
  s.phase = m_phase;
  s.phaseFraction = m_phaseFraction;
  s.stepElapsed_s = stepElapsed_s();
  s.lastStepTime_s = m_lastStepTime_s;
  s.faultFreeStepTime_s = m_faultFreeStep_s;
  s.pipelineTime_s = m_pipeline_s;
  if (training())
    for (TrainingPhase phase :
         {TrainingPhase::Pipeline, TrainingPhase::DataParallel, TrainingPhase::Optimizer})
      s.phaseDuration_s[size_t(phase)] = phaseDuration_s(phase);
  s.dataParallelTime_s = m_dpTime_s;
  s.dataParallelExposedTime_s = dataParallelExposedTime_s();
  s.dpLinkBytes = m_dpLoad;
  s.ppLinkBytes = m_ppLoad;
  s.allToAllLinkBytes = m_a2aLoad;
  s.nvlinkBytes = m_nvlinkBytes;
  s.inference = inferencePlan();
  return s;
}

std::unique_ptr<Engine> Engine::clone() const {
  std::unique_ptr<Engine> e(new Engine(*this));
  // The members that point into the engine itself point into the copy.
  e->m_router.rebind(&e->m_cluster);
  e->m_service.rebind(&e->m_inferencePlan);
  e->m_linkUtil = m_linkUtil == &m_ppUtil   ? &e->m_ppUtil
                  : m_linkUtil == &m_dpUtil ? &e->m_dpUtil
                                            : &e->m_zeroUtil;
  return e;
}

namespace {

// The same fault, whenever it is cleared.
bool sameFault(const FaultDesc& a, const FaultDesc& b) {
  return a.kind == b.kind && a.start_s == b.start_s && a.target == b.target &&
         a.severity == b.severity && a.deadlock == b.deadlock;
}

}  // namespace

double firstDifference_s(const std::vector<FaultDesc>& a, const std::vector<FaultDesc>& b) {
  double first = NEVER_S;
  // Each fault of one list either has its twin in the other (the same fault, perhaps cleared at
  // another time: the two differ from the earlier end on) or makes a difference from its start.
  auto unmatched = [&](const std::vector<FaultDesc>& from, const std::vector<FaultDesc>& to) {
    std::vector<uint8_t> used(to.size(), 0);
    for (const FaultDesc& f : from) {
      size_t twin = to.size();
      for (size_t j = 0; j < to.size() && twin == to.size(); ++j)
        if (!used[j] && sameFault(f, to[j])) twin = j;
      if (twin == to.size()) {
        first = std::min(first, f.start_s);
        continue;
      }
      used[twin] = 1;
      if (to[twin].end_s != f.end_s) {
        first = std::min(first, std::max(f.start_s, std::min(f.end_s, to[twin].end_s)));
      }
    }
  };
  unmatched(a, b);
  unmatched(b, a);
  return first;
}

Result<bool> Engine::replaceFaults(const std::vector<FaultDesc>& faults) {
  const double diverges_s = firstDifference_s(m_desc.faults, faults);
  if (diverges_s < m_time_s) {
    return Result<bool>::failure("the new faults change what happened before t = " +
                                 std::to_string(m_time_s) + " s; rerun from an earlier time");
  }
  const size_t switches = m_cluster.switchCount();
  for (size_t i = 0; i < faults.size(); ++i) {
    if (std::string err = checkFault(faults[i], m_cluster, i); !err.empty())
      return Result<bool>::failure(err);
  }
  std::vector<uint8_t> active(faults.size(), 0);
  std::vector<double> cleared(faults.size(), 0);
  std::vector<std::vector<uint16_t>> hops(faults.size());
  std::vector<uint8_t> used(m_desc.faults.size(), 0);
  for (size_t i = 0; i < faults.size(); ++i) {
    const FaultDesc& f = faults[i];
    cleared[i] = f.end_s;
    hops[i].assign(f.kind == FaultKind::PfcStorm ? switches : 0, NO_HOPS);
    for (size_t j = 0; j < m_desc.faults.size(); ++j) {
      if (used[j] || !sameFault(f, m_desc.faults[j])) continue;
      used[j] = 1;  // its state so far carries over (it has not been different yet)
      active[i] = m_faultActive[j];
      if (!active[i] && m_time_s >= f.start_s) cleared[i] = m_faultClear_s[j];
      hops[i] = m_pfcHops[j];
      break;
    }
  }
  m_desc.faults = faults;
  m_faultActive = std::move(active);
  m_faultClear_s = std::move(cleared);
  m_pfcHops = std::move(hops);
  return true;
}

uint64_t Engine::stateHash() const {
  uint64_t h = 0xcbf29ce484222325ull;
  h = fnv(h, &m_time_s, sizeof m_time_s);
  h = fnv(h, &m_steps, sizeof m_steps);
  h = fnv(h, &m_phase, sizeof m_phase);
  h = fnv(h, &m_phaseFraction, sizeof m_phaseFraction);
  h = fnv(h, &m_completedSteps, sizeof m_completedSteps);
  h = fnv(h, &m_lastStepTime_s, sizeof m_lastStepTime_s);
  h = fnvVec(h, m_gpuPower_W);
  h = fnvVec(h, m_gpuJunction_C);
  h = fnvVec(h, m_gpuColdPlate_C);
  h = fnvVec(h, m_rackPower_W);
  h = fnvVec(h, m_rackMeanPower_W);
  h = fnvVec(h, m_rackWindowEnergy_J);
  h = fnv(h, &m_window_s, sizeof m_window_s);
  h = fnvVec(h, m_cduLoop_C);
  h = fnvVec(h, m_dpLoad);
  h = fnvVec(h, m_ppLoad);
  h = fnvVec(h, m_a2aLoad);
  h = fnvVec(h, m_switchPaused);
  if (inference()) h = m_service.hash(h);
  return h;
}

}  // namespace sim::engine
