// What only the whole scenario can check, after every field passed its own domain: a layout that
// fits the cluster (multiplied in 64 bits) and divides the model, and pairs of fields that
// contradict each other, which the model would otherwise price as something else than asked.
// Each message names the field to change.
#include <cmath>
#include <span>
#include <string>

#include "sim/calc/parallelism.h"
#include "sim/evaluate_context.h"

namespace sim::detail {
namespace {

std::string str(double value) {
  return numberText(value);
}

// " (where the context comes from)": the config.json's field, the scenario's, or the catalog's.
std::string contextSource(const Context& c) {
  const ModelDesc& m = c.scenario.model;
  if (!m.hfConfig.empty()) return " (" + m.hfConfig + " max_position_embeddings)";
  if (m.layers > 0) return " (model.context_tokens)";
  return " (models." + c.model.id + ".context_tokens)";
}

std::string checkLayoutFits(const Context& c) {
  const ScenarioDesc& s = c.scenario;
  const WorkloadDesc& wl = s.workload;
  const calc::ParallelLayout layout{wl.tp, wl.pp, wl.dp, wl.ep, wl.cp};
  const auto used = calc::layoutGpus(layout);
  if (!used || *used > s.cluster.gpus) {
    return "workload: tp x cp x pp x dp = " + (used ? std::to_string(*used) : "more than 2^63") +
           " exceeds cluster.gpus = " + std::to_string(s.cluster.gpus);
  }
  if (std::string error = calc::checkLayout(layout, c.model.heads, c.model.layers, c.model.experts);
      !error.empty()) {
    return "workload." + error;
  }
  if (wl.tp > c.system.scaleUpDomainGpus) {
    return "workload.tp: " + std::to_string(wl.tp) + " exceeds the " +
           std::to_string(c.system.scaleUpDomainGpus) +
           "-GPU scale-up domain (tensor parallelism runs on its links)";
  }
  return "";
}

// Training: interleaving, context parallelism and the sequence the model was made for.
std::string checkTraining(const Context& c) {
  const WorkloadDesc& wl = c.scenario.workload;
  if (wl.virtualStages > 1 && wl.pp == 1) {
    return "workload.virtual_stages: " + std::to_string(wl.virtualStages) +
           " interleaved chunks need a pipeline (workload.pp > 1)";
  }
  // The fullest stage holds ceil(L / p) layers; a chunk of it needs at least one (Llama 3's
  // 126 layers on 16 stages in 8 chunks: ceil = 8, the first and last stage one chunk short).
  const int fullest = (c.model.layers + wl.pp - 1) / wl.pp;
  if (wl.virtualStages > fullest) {
    return "workload.virtual_stages: " + std::to_string(wl.virtualStages) +
           " chunks per stage, but a stage holds at most " + std::to_string(fullest) +
           " layers (model layers / workload.pp)";
  }
  // Ring attention with load balancing cuts each sequence into 2 x cp chunks (Megatron's CP).
  if (wl.cp > 1 && std::fmod(wl.seqLen, 2.0 * wl.cp) != 0) {
    return "workload.seq_len: " + str(wl.seqLen) +
           " does not split into 2 x cp = " + std::to_string(2 * wl.cp) +
           " equal chunks (workload.cp = " + std::to_string(wl.cp) + ")";
  }
  if (c.model.contextTokens > 0 && wl.seqLen > c.model.contextTokens) {
    return "workload.seq_len: " + str(wl.seqLen) + " tokens exceed the model's context of " +
           std::to_string(c.model.contextTokens) + " tokens" + contextSource(c);
  }
  const calc::TrainingStep step = calc::trainingStep(trainingDesc(c));
  if (std::string why = domainError(domains::TRAINING_STEP, step.step_s); !why.empty()) {
    return "workload: a training step of " + str(step.step_s) + " s (" +
           str(step.step_s / (365.25 * 86400)) +
           " years) is outside the modelled domain of a step (at most " +
           str(domains::TRAINING_STEP.max) +
           " s): the GPU's figures (accelerator.*, its catalog entry) or the layout "
           "(workload.tp, workload.pp, workload.dp, workload.micro_batch) are far from any "
           "training run";
  }
  const double time = trainingTime_s(c, step);
  if (std::string why = domainError(domains::TRAINING_TIME, time); !why.empty()) {
    return "workload.training_tokens: " + str(trainingTokens(c)) + " tokens take " + str(time) +
           " s (" + str(time / (365.25 * 86400)) +
           " years) at this step, outside the modelled domain of a run (at most 1000 years)";
  }
  return "";
}

// Serving: what the serving model prices (one TP x PP replica, continuous or static batching).
std::string checkServing(const Context& c) {
  const WorkloadDesc& wl = c.scenario.workload;
  if (wl.cp > 1) return "workload.cp: context parallelism is modelled for training only";
  if (wl.ep > 1) return "workload.ep: expert parallelism is modelled for training only";
  if (c.model.contextTokens > 0 && wl.promptTokens > c.model.contextTokens) {
    return "workload.prompt_tokens: " + str(wl.promptTokens) +
           " tokens exceed the model's context of " + std::to_string(c.model.contextTokens) +
           " tokens" + contextSource(c);
  }
  if (wl.batching != "static") return "";
  if (wl.requestRate_per_s > 0) {
    return "workload.request_rate_per_s: a request rate sets the concurrency of continuous "
           "batching; static batching serves a fixed workload.batch";
  }
  // A static batch is prefilled and decoded whole: one that does not fit is not served at all.
  const double maxBatch = std::floor(calc::kvCapacityTokens(servingDesc(c, c.gpu)) /
                                     (wl.promptTokens + wl.outputTokens));
  const double batch = wl.batch > 0 ? wl.batch : 1.0;
  if (batch > maxBatch) {
    return "workload.batch: a static batch of " + str(batch) + " requests needs KV for " +
           str(batch * (wl.promptTokens + wl.outputTokens)) + " tokens, but a replica holds " +
           str(std::max(maxBatch, 0.0)) +
           " such requests (lower the batch, raise workload.tp or workload.pp, or batch "
           "continuously)";
  }
  return "";
}

// The field a GPU figure came from: the scenario's override, else the catalog entry's.
std::string gpuField(const Context& c, double overridden, const char* scenarioKey,
                     const char* catalogKey) {
  return overridden > 0 ? std::string("accelerator.") + scenarioKey
                        : "gpus." + c.gpu.id + "." + catalogKey;
}

}  // namespace

std::string checkAccelerator(const Context& c) {
  const AcceleratorDesc& a = c.scenario.accelerator;
  const GpuSpec& g = c.gpu;
  // A board draws at least its idle power: a TDP below it would price a busy GPU below an idle one.
  if (g.tdp_W > 0 && g.idle_W > 0 && g.tdp_W < g.idle_W) {
    return gpuField(c, a.tdp_W, "tdp_W", "tdp_W") + ": " + str(g.tdp_W) +
           " W is below the GPU's idle power of " + str(g.idle_W) + " W (gpus." + g.id +
           ".idle_power_W); a TDP is at least the idle draw";
  }
  // Narrower formats run at least as fast as wider ones on the same tensor cores (FP4 >= FP8 >=
  // BF16, where the device has them): a lower figure is a typo or a sparse/dense mix-up.
  struct Peak {
    double flops, overridden;
    const char *scenarioKey, *catalogKey, *format;
  };
  const Peak peaks[] = {
      {g.denseBf16_flops, a.denseBf16_flops, "dense_bf16_flops", "dense_bf16_flops", "BF16"},
      {g.denseFp8_flops, a.denseFp8_flops, "dense_fp8_flops", "dense_fp8_flops", "FP8"},
      {g.denseFp4_flops, a.denseFp4_flops, "dense_fp4_flops", "dense_fp4_flops", "FP4"},
  };
  // The driver never reports more than the stacks hold (capacity read as GiB, like with like).
  if (g.hbmUsable_bytes > hbmDram_bytes(g)) {
    return gpuField(c, a.hbmUsableBytes, "hbm_usable_bytes", "hbm_usable_bytes") + ": " +
           str(g.hbmUsable_bytes) + " B is more than the GPU's HBM of " + str(g.hbmCapacity_bytes) +
           " B (" + gpuField(c, a.hbmBytes, "hbm_bytes", "hbm_capacity_bytes") +
           ", GiB-sized: " + str(hbmDram_bytes(g)) + " B of DRAM)";
  }
  // Math in a format the device has no peak for would be priced at a wider format's.
  if (std::string missing = missingTensorFormat(g, c.compute); !missing.empty()) {
    return "workload.compute_dtype: " + std::string(precisionName(c.compute)) + " math, but " +
           missing + "; choose a format it has (cluster.gpu " + g.id + ")";
  }
  const Peak* wider = &peaks[0];
  for (const Peak& p : std::span(peaks).subspan(1)) {
    if (p.flops <= 0) continue;  // the device has no such path
    if (p.flops < wider->flops) {
      return gpuField(c, p.overridden, p.scenarioKey, p.catalogKey) + ": the " + p.format +
             " peak of " + str(p.flops) + " FLOP/s is below the " + wider->format + " peak of " +
             str(wider->flops) + " FLOP/s (" +
             gpuField(c, wider->overridden, wider->scenarioKey, wider->catalogKey) +
             "); a narrower format is at least as fast";
    }
    wider = &p;
  }
  return "";
}

std::string checkCluster(const Context& c) {
  const ClusterDesc& cl = c.scenario.cluster;
  if (std::string error =
          fabricPartsError(c.fabricSwitch, "cluster.switch", c.nic, "cluster.scale_out_nic");
      !error.empty()) {
    return error;
  }
  if (cl.systemsPerRack == 1) return "";
  if (c.system.rackUnits <= 0) {
    return "cluster.systems_per_rack: " + std::to_string(cl.systemsPerRack) + " " + c.system.id +
           " per rack, but a " + c.system.id + " is a rack or more (systems." + c.system.id +
           " has no rack_units): 1 per rack";
  }
  const double units = cl.systemsPerRack * c.system.rackUnits;
  if (units > c.facility.rackUnits) {
    return "cluster.systems_per_rack: " + std::to_string(cl.systemsPerRack) + " " + c.system.id +
           " of " + str(c.system.rackUnits) + "U (systems." + c.system.id + ".rack_units) take " +
           str(units) + "U, more than the " + str(c.facility.rackUnits) + "U rack (facility." +
           c.scenario.facility.profile + ".rack_units)";
  }
  return "";
}

std::string checkWorkload(const Context& c) {
  if (std::string error = checkLayoutFits(c); !error.empty()) return error;
  return c.scenario.workload.kind == "training" ? checkTraining(c) : checkServing(c);
}

}  // namespace sim::detail
