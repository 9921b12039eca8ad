// The pixel race of chapter 1: how long one CPU and one GPU take to shade a frame when each
// lane does one FP32 operation per pixel per clock (pixels / (lanes x clock) on both chips).
// Every figure comes from the catalog (cores, AVX-512 FP32 lanes per core and base clock of the
// CPU; SMs, FP32 lanes per SM and boost clock of the GPU); docs/sim.md "The pixel race".
#pragma once

#include <map>
#include <string>
#include <utility>

#include "sim/basis.h"
#include "sim/catalog.h"
#include "sim/result.h"

namespace sim {

/// The race's figures by key (pixels, cpu_lanes, cpu_clock_Hz, cpu_pixels_per_s, cpu_frame_s,
/// gpu_lanes, gpu_clock_Hz, gpu_pixels_per_s, gpu_frame_s, gpu_speedup), each derived one with
/// its basis and the sources it was derived from (catalog figures keep their own).
struct PixelRaceFigures {
  std::map<std::string, double> values;
  std::map<std::string, std::pair<Basis, std::string>> provenance;
};

/// The race of CPU catalog id `cpuId` against GPU id `gpuId` on a width x height frame; a
/// failure names the first catalog figure missing or not positive.
Result<PixelRaceFigures> pixelRace(const Catalog& catalog, const std::string& cpuId,
                                   const std::string& gpuId, double width_px, double height_px);

}  // namespace sim
