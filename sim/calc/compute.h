// Compute calculators: FLOPs per token, arithmetic intensity, roofline. Serving times and
// batching are sim/calc/serving.h. Units: FLOP, FLOP/s, bytes, bytes/s, seconds, tokens.
// Sources: Kaplan et al. 2020 and Transformer Math 101 (2N / 6N); JAX scaling book roofline.md and
// gpus.md (intensity, ridge, critical batch); Williams et al. 2009 (roofline).
#pragma once

namespace sim::calc {

/// Forward FLOPs per token: 2 x params (Kaplan et al.; attention term ignored).
double inferenceFlopsPerToken(double params);
/// Training FLOPs: 6 x params x tokens, or 8 x params x tokens with full activation recompute.
double trainingFlops(double params, double tokens, bool fullRecompute);

/// Tensor peak from the microarchitecture: units x FLOP/cycle/unit x clock (FLOP/s).
double peakFromMicroarchitecture(double units, double flopsPerCyclePerUnit, double clock_Hz);

/// Roofline ridge point: peak FLOP/s / memory bytes/s (FLOP/byte).
double ridgePoint(double peak_flops, double bandwidth_Bps);
/// Attainable FLOP/s at arithmetic intensity `ai`: min(peak, ai x bandwidth).
double attainableFlops(double ai_flops_per_byte, double peak_flops, double bandwidth_Bps);
/// Roofline time: max(flops / peak, bytes / bandwidth).
double rooflineTime_s(double flops, double bytes, double peak_flops, double bandwidth_Bps);

/// Arithmetic intensity of a [B,D] x [D,F] matmul: 2BDF / (bytesPerElement (DF + BD + BF)).
double gemmIntensity(double tokens, double d, double f, double bytesPerElement);
/// Tokens in flight at which gemmIntensity equals `ridge`:
/// B* = r b DF / (2DF - r b (D + F)); infinite when the matmul can never reach the ridge.
double criticalTokens(double d, double f, double bytesPerElement, double ridge_flops_per_byte);

}  // namespace sim::calc
