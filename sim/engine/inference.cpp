#include "sim/engine/inference.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/calc/memory.h"
#include "sim/model_params.h"
#include "sim/workload_inputs.h"

namespace sim::engine {
namespace {

uint64_t fnv(uint64_t h, const void* data, size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

}  // namespace

Result<InferencePlan> planInference(const Catalog& catalog, const Cluster& cluster,
                                    const InferenceDesc& desc) {
  using R = Result<InferencePlan>;
  InferencePlan p;
  p.desc = desc;
  auto model = loadModel(catalog, desc.modelId);
  if (!model) return R::failure(model.error());
  p.model = *model;
  if (desc.tp < 1 || cluster.gpusPerRack % desc.tp != 0)
    return R::failure("workload.inference.tp: " + std::to_string(desc.tp) +
                      " must divide the NVLink domain of " + std::to_string(cluster.gpusPerRack));
  if (desc.maxBatch < 1 || desc.maxBatch > 4096)
    return R::failure("workload.inference.maxBatch must be 1..4096");
  if (desc.queueCapacity < 1 || desc.queueCapacity > 1u << 16)
    return R::failure("workload.inference.queueCapacity must be 1..65536");
  if (!(desc.promptTokens >= 1) || !(desc.outputTokens >= 1))
    return R::failure("workload.inference: promptTokens and outputTokens must be >= 1");
  if (!(desc.arrivalRatePerReplica_per_s >= 0))
    return R::failure("workload.inference.arrivalRatePerReplica_per_s must be >= 0");
  const uint32_t perRack = cluster.gpusPerRack / desc.tp;
  const uint32_t most = cluster.racks * perRack;
  p.replicas = desc.replicas == 0 ? most : desc.replicas;
  if (p.replicas > most)
    return R::failure("workload.inference.replicas: " + std::to_string(p.replicas) +
                      " exceed the " + std::to_string(most) + " the fabric holds");

  p.params = paramCount(p.model);
  p.weightsBytesPerReplica = calc::weightBytes(p.params, desc.weights);
  p.kvBytesPerToken = calc::kvCacheBytesPerToken(p.model, desc.kvCache);
  auto hw = hardwareInputs(catalog, cluster.specs.gpu, cluster.specs.system, cluster.specs.nic,
                           cluster.specs.fabricSwitch, int(cluster.gpuCount()));
  if (!hw) return R::failure(hw.error());
  p.serving.model = calc::transformerShape(p.model);
  p.serving.tp = desc.tp;
  p.serving.weightBytes = bytesPerElement(desc.weights);
  p.serving.kvBytes = bytesPerElement(desc.kvCache);
  if (std::string missing = missingTensorFormat(cluster.specs.gpu, desc.math); !missing.empty()) {
    return R::failure("workload.inference.math: " + std::string(precisionName(desc.math)) +
                      " math, but " + missing);
  }
  applyHardware(p.serving, *hw, desc.math);
  p.kvCapacityTokensPerReplica = calc::kvCapacityTokens(p.serving);
  if (p.kvCapacityTokensPerReplica < desc.promptTokens + desc.outputTokens)
    return R::failure("workload.inference: " + desc.modelId + " on tp " + std::to_string(desc.tp) +
                      " leaves no room for one request's KV cache");

  p.replicaOfGpu.assign(cluster.gpuCount(), INVALID_INDEX);
  p.firstGpuOfReplica.resize(p.replicas);
  for (uint32_t r = 0; r < p.replicas; ++r) {
    const uint32_t first = (r / perRack) * cluster.gpusPerRack + (r % perRack) * desc.tp;
    p.firstGpuOfReplica[r] = first;
    for (int t = 0; t < desc.tp; ++t) p.replicaOfGpu[first + t] = r;
  }
  return p;
}

InferenceService::InferenceService(const InferencePlan* plan, uint64_t seed) : m_plan(plan) {
  const uint32_t n = plan->replicas;
  m_slots = static_cast<uint32_t>(plan->desc.maxBatch);
  m_queueCap = plan->desc.queueCapacity;
  m_rng.resize(n);
  for (uint32_t r = 0; r < n; ++r) m_rng[r] = seed * 0x9e3779b97f4a7c15ull + r;
  m_queueArrival.assign(size_t{n} * m_queueCap, 0.0);
  m_queueHead.assign(n, 0);
  m_queueCount.assign(n, 0);
  m_slotArrival.assign(size_t{n} * m_slots, 0.0);
  m_slotContext.assign(size_t{n} * m_slots, 0.0f);
  m_slotLeft.assign(size_t{n} * m_slots, 0.0f);
  m_slotFresh.assign(size_t{n} * m_slots, 0);
  m_activeCount.assign(n, 0);
  m_kvTokens.assign(n, 0.0);
  m_carry_s.assign(n, 0.0);
  m_activity.assign(n, ReplicaActivity{0, 0});
  m_kvOccupancy.assign(n, 0.0f);
}

double InferenceService::uniform(uint32_t r) {
  uint64_t z = (m_rng[r] += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

uint32_t InferenceService::poisson(uint32_t r, double mean) {
  // Knuth's product of uniforms, in chunks of mean <= 16 so exp(-mean) stays well above 0.
  uint32_t total = 0;
  while (mean > 0) {
    const double part = std::min(mean, 16.0);
    mean -= part;
    const double limit = std::exp(-part);
    double prod = uniform(r);
    while (prod > limit) {
      ++total;
      prod *= uniform(r);
    }
  }
  return total;
}

void InferenceService::step(double now_s, double dt_s, const std::vector<float>& speed) {
  const InferencePlan& p = *m_plan;
  const InferenceDesc& d = p.desc;
  const double perRequestTokens = d.promptTokens + d.outputTokens;
  stepOutputTokens = 0;
  stepTtftSum_s = 0;
  stepTtftCount = 0;
  queued = active = 0;
  double tpotSum = 0;
  uint32_t tpotCount = 0;
  for (uint32_t r = 0; r < p.replicas; ++r) {
    // Arrivals.
    const uint32_t arrivals = poisson(r, d.arrivalRatePerReplica_per_s * dt_s);
    for (uint32_t a = 0; a < arrivals; ++a) {
      ++arrived;
      if (m_queueCount[r] == m_queueCap) {
        ++rejected;
        continue;
      }
      const uint32_t at = (m_queueHead[r] + m_queueCount[r]) % m_queueCap;
      // They arrived during the step just ended and are scheduled at its boundary.
      m_queueArrival[size_t{r} * m_queueCap + at] = now_s - uniform(r) * dt_s;
      ++m_queueCount[r];
    }
    const double f = std::max(1e-6f, speed[r]);
    double* slotArrival = &m_slotArrival[size_t{r} * m_slots];
    float* slotContext = &m_slotContext[size_t{r} * m_slots];
    float* slotLeft = &m_slotLeft[size_t{r} * m_slots];
    uint8_t* slotFresh = &m_slotFresh[size_t{r} * m_slots];

    // Admission (continuous batching): join while a slot and KV room for the whole request
    // remain, so no sequence is ever preempted.
    uint32_t admitted = 0;
    uint32_t slot = 0;
    while (m_queueCount[r] > 0 && m_activeCount[r] < m_slots &&
           m_kvTokens[r] + perRequestTokens <= p.kvCapacityTokensPerReplica) {
      while (slotLeft[slot] > 0) ++slot;
      slotArrival[slot] = m_queueArrival[size_t{r} * m_queueCap + m_queueHead[r]];
      m_queueHead[r] = (m_queueHead[r] + 1) % m_queueCap;
      --m_queueCount[r];
      slotContext[slot] = static_cast<float>(d.promptTokens);
      slotLeft[slot] = static_cast<float>(d.outputTokens);
      slotFresh[slot] = 1;
      m_kvTokens[r] += d.promptTokens;
      ++m_activeCount[r];
      ++admitted;
    }
    double prefill_s = 0;
    if (admitted > 0) {
      prefill_s = calc::iterationCost(
                      p.serving, admitted * d.promptTokens, admitted, 0.0,
                      admitted * calc::causalAttentionFlops(p.serving.model, d.promptTokens))
                      .total_s /
                  f;
      const double firstToken_s = now_s + prefill_s;
      for (uint32_t s = 0; s < m_slots; ++s)
        if (slotFresh[s]) {
          slotFresh[s] = 0;
          const double ttft = std::max(0.0, firstToken_s - slotArrival[s]);
          stepTtftSum_s += ttft;
          ++stepTtftCount;
        }
    }

    // Decode iterations that fit in the step (time debt from a long prefill carries over).
    double decode_s = 0;
    uint32_t iterations = 0;
    const double decodeKvTokens = m_kvTokens[r];
    const uint32_t decodeSequences = m_activeCount[r];
    if (m_activeCount[r] > 0) {
      const double tpot_s =
          calc::iterationCost(p.serving, m_activeCount[r], m_activeCount[r], m_kvTokens[r], 0.0)
              .total_s /
          f;
      const double available = m_carry_s[r] + dt_s - prefill_s;
      iterations = available > 0 ? static_cast<uint32_t>(available / tpot_s) : 0;
      decode_s = iterations * tpot_s;
      m_carry_s[r] = available - decode_s;
      tpotSum += tpot_s;
      ++tpotCount;
    } else {
      m_carry_s[r] = 0;  // an idle replica banks no time
    }
    if (iterations > 0)
      for (uint32_t s = 0; s < m_slots; ++s) {
        if (slotLeft[s] <= 0) continue;
        const float k = std::min(float(iterations), slotLeft[s]);
        slotLeft[s] -= k;
        slotContext[s] += k;
        m_kvTokens[r] += k;
        stepOutputTokens += k;
        if (slotLeft[s] <= 0) {
          slotLeft[s] = 0;
          m_kvTokens[r] -= slotContext[s];
          --m_activeCount[r];
          ++completed;
        }
      }
    m_activity[r] = {.prefillShare = static_cast<float>(std::min(1.0, prefill_s / dt_s)),
                     .decodeShare = static_cast<float>(std::min(1.0, decode_s / dt_s)),
                     .prefill_s = prefill_s,
                     .decode_s = decode_s,
                     .decodeKvTokens = decodeKvTokens,
                     .carry_s = m_carry_s[r],
                     .prefillSequences = admitted,
                     .decodeIterations = iterations,
                     .decodeSequences = decodeSequences};
    m_kvOccupancy[r] = static_cast<float>(m_kvTokens[r] / p.kvCapacityTokensPerReplica);
    queued += m_queueCount[r];
    active += m_activeCount[r];
  }
  outputTokens += stepOutputTokens;
  ttftSum_s += stepTtftSum_s;
  ttftCount += stepTtftCount;
  meanTpot_s = tpotCount > 0 ? tpotSum / tpotCount : 0;
}

uint64_t InferenceService::hash(uint64_t h) const {
  h = fnv(h, m_queueArrival.data(), m_queueArrival.size() * sizeof(double));
  h = fnv(h, m_queueCount.data(), m_queueCount.size() * sizeof(uint32_t));
  h = fnv(h, m_slotLeft.data(), m_slotLeft.size() * sizeof(float));
  h = fnv(h, m_slotContext.data(), m_slotContext.size() * sizeof(float));
  h = fnv(h, m_kvTokens.data(), m_kvTokens.size() * sizeof(double));
  h = fnv(h, &arrived, sizeof arrived);
  h = fnv(h, &completed, sizeof completed);
  return fnv(h, &outputTokens, sizeof outputTokens);
}

}  // namespace sim::engine
