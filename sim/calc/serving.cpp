#include "sim/calc/serving.h"

#include <algorithm>
#include <cmath>

namespace sim::calc {
namespace {

// Tokens, logits and KV context of one steady-state iteration at `concurrency`, with the prefill
// of `prefilling` requests (per OSL iterations) mixed in.
IterationCost steadyIteration(const ServingDesc& d, double isl, double osl, double concurrency,
                              double prefilling) {
  const double prefillTokens = prefilling * isl / osl;
  const double tokens = concurrency + prefillTokens;
  const double logits = concurrency + prefilling / osl;
  const double kvTokens = concurrency * (isl + osl / 2.0);
  const double prefillAttention = prefilling / osl * causalAttentionFlops(d.model, isl);
  return iterationCost(d, tokens, logits, kvTokens, prefillAttention);
}

// A lone prompt's prefill in chunks of at most maxNumTokens (each chunk attends to the earlier).
IterationCost lonePrefill(const ServingDesc& d, double isl) {
  IterationCost sum;
  const double chunk = std::max(1.0, std::min(isl, d.maxNumTokens));
  for (double done = 0; done < isl; done += chunk) {
    const double tokens = std::min(chunk, isl - done);
    const IterationCost c = iterationCost(d, tokens, done + tokens >= isl ? 1.0 : 0.0, 0.0,
                                          attentionFlops(d.model, tokens, done));
    sum.matmul_s += c.matmul_s;
    sum.attention_s += c.attention_s;
    sum.elementwise_s += c.elementwise_s;
    sum.tpComm_s += c.tpComm_s;
    sum.fixed_s += c.fixed_s;
    sum.total_s += c.total_s;
  }
  return sum;
}

}  // namespace

double servingWeightsPerGpu(const ServingDesc& d) {
  return d.model.params * d.weightBytes / (double(d.tp) * d.pp);
}

IterationCost iterationCost(const ServingDesc& d, double tokens, double logitTokens,
                            double kvTokens, double prefillAttentionFlops) {
  const TransformerShape& m = d.model;
  IterationCost c;
  // Every weight a layer holds is streamed once per iteration (all experts of an MoE layer: at
  // serving batch sizes every expert is hit); the embedding lookup reads only its rows.
  const double flops =
      2.0 * (m.layers * m.layerMatmulParams * tokens + m.hidden * m.vocab * logitTokens);
  const double head = m.headParams > 0 ? m.headParams : m.vocab * m.hidden;
  const double weights = (m.layers * m.layerParams + head) * d.weightBytes / d.tp;
  c.matmul_s = std::max(flops / d.tp / d.gemm_flops, weights / d.hbm_Bps);
  const double kvReads =
      d.kvReadPerQueryHead ? (m.heads / d.tp) / std::max(1.0, m.kvHeads / d.tp) : 1.0;
  c.attention_s = kvReads * kvTokens * kvBytesPerTokenPerGpu(m, d.tp, d.kvBytes) / d.hbm_Bps +
                  prefillAttentionFlops / d.tp / d.attention_flops;
  c.elementwise_s = tokens * m.layers * elementwiseBytesPerToken(m, d.tp, false) *
                    (d.activationBytes / 2.0) / d.hbm_Bps;
  if (d.tp > 1) {
    const double bytes = tokens * m.hidden * d.activationBytes;
    c.tpComm_s = 2.0 * m.layers *
                 ncclCollective(Collective::AllReduce, bytes, d.tpTopology, d.collectives).time_s;
  }
  c.fixed_s = m.layers * d.kernelsPerLayer * d.kernelLaunch_s;
  c.total_s = c.matmul_s + c.attention_s + c.elementwise_s + c.tpComm_s + c.fixed_s;
  return c;
}

double kvCapacityTokens(const ServingDesc& d) {
  const double free = d.usable_bytes * d.memoryFraction - d.reserve_bytes - servingWeightsPerGpu(d);
  if (free <= 0) return 0.0;
  return std::floor(free * d.pp / kvBytesPerTokenPerGpu(d.model, d.tp, d.kvBytes));
}

ServingResult continuousBatching(const ServingDesc& d, double isl, double osl, double concurrency,
                                 double requestRate_per_s) {
  ServingResult r;
  r.maxConcurrency = std::floor(kvCapacityTokens(d) / (isl + osl));
  if (r.maxConcurrency < 1) return r;
  r.prefill = lonePrefill(d, isl);
  auto latencyAt = [&](double c) {
    const double tpot = steadyIteration(d, isl, osl, c, c - 1.0).total_s;
    return r.prefill.total_s + (osl - 1.0) * tpot;
  };
  double c = concurrency > 0 ? std::min(concurrency, r.maxConcurrency) : r.maxConcurrency;
  if (requestRate_per_s > 0) {
    // Little's law: requests in flight = arrival rate x time in flight (a fixed point; the
    // latency grows with the load, so the iteration climbs to it or to the KV limit).
    c = 1.0;
    for (int i = 0; i < 64; ++i) {
      const double next = std::clamp(requestRate_per_s * latencyAt(c), 1.0, r.maxConcurrency);
      if (std::abs(next - c) < 1e-6 * c) break;
      c = next;
    }
  }
  r.concurrency = c;
  r.iteration = steadyIteration(d, isl, osl, c, c);
  r.tpot_s = steadyIteration(d, isl, osl, c, c - 1.0).total_s;
  // A request admitted at this load prefills in chunks of the token budget the decoders leave,
  // each chunk sharing an iteration with one decode token of every other request.
  if (c <= 1.0) {
    r.ttft_s = r.prefill.total_s;
  } else {
    const double chunk = std::clamp(d.maxNumTokens - (c - 1.0), 1.0, isl);
    const double chunks = std::ceil(isl / chunk);
    const double kv = (c - 1.0) * (isl + osl / 2.0);
    r.ttft_s =
        chunks *
        iterationCost(d, c - 1.0 + chunk, c, kv, attentionFlops(d.model, chunk, isl / 2.0)).total_s;
  }
  r.latency_s = r.ttft_s + (osl - 1.0) * r.tpot_s;
  r.outputTokensPerSecond = c / r.iteration.total_s;
  if (requestRate_per_s > 0) {
    r.outputTokensPerSecond = std::min(r.outputTokensPerSecond, requestRate_per_s * osl);
  }
  r.requestsPerSecond = r.outputTokensPerSecond / osl;
  return r;
}

ServingResult staticBatching(const ServingDesc& d, double isl, double osl, double batch) {
  ServingResult r;
  r.maxConcurrency = std::floor(kvCapacityTokens(d) / (isl + osl));
  r.concurrency = batch;
  if (r.maxConcurrency < batch) return r;
  r.prefill = iterationCost(d, batch * isl, batch, 0.0, batch * causalAttentionFlops(d.model, isl));
  r.iteration = iterationCost(d, batch, batch, batch * (isl + osl / 2.0), 0.0);
  r.ttft_s = r.prefill.total_s;
  r.tpot_s = r.iteration.total_s;
  r.latency_s = r.ttft_s + (osl - 1.0) * r.tpot_s;
  r.outputTokensPerSecond = batch * osl / r.latency_s;
  r.requestsPerSecond = batch / r.latency_s;
  return r;
}

}  // namespace sim::calc
