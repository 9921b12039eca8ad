#include "sim/pixel_race.h"

namespace sim {

Result<PixelRaceFigures> pixelRace(const Catalog& catalog, const std::string& cpuId,
                                   const std::string& gpuId, double width_px, double height_px) {
  std::string error;
  auto figure = [&](const std::string& path) {
    const Quantity* q = catalog.find(path);
    if ((!q || !(q->value > 0)) && error.empty())
      error = "the pixel race needs the catalog figure " + path;
    return q;
  };
  const std::string cpu = "cpus." + cpuId + ".", gpu = "gpus." + gpuId + ".";
  const Quantity* cores = figure(cpu + "cores");
  const Quantity* cpuLanes = figure(cpu + "avx512_fp32_lanes_per_core");
  const Quantity* cpuClock = figure(cpu + "base_clock_Hz");
  const Quantity* sms = figure(gpu + "sm_count");
  const Quantity* gpuLanes = figure(gpu + "fp32_lanes_per_sm");
  const Quantity* gpuClock = figure(gpu + "max_clock_Hz");
  if (!error.empty()) return Result<PixelRaceFigures>::failure(error);
  if (!(width_px > 0) || !(height_px > 0))
    return Result<PixelRaceFigures>::failure("the pixel race needs a frame of at least one pixel");
  PixelRaceFigures out;
  auto& v = out.values;
  v["pixels"] = width_px * height_px;
  v["cpu_lanes"] = cores->value * cpuLanes->value;
  v["cpu_clock_Hz"] = cpuClock->value;
  v["cpu_pixels_per_s"] = v["cpu_lanes"] * cpuClock->value;
  v["cpu_frame_s"] = v["pixels"] / v["cpu_pixels_per_s"];
  v["gpu_lanes"] = sms->value * gpuLanes->value;
  v["gpu_clock_Hz"] = gpuClock->value;
  v["gpu_pixels_per_s"] = v["gpu_lanes"] * gpuClock->value;
  v["gpu_frame_s"] = v["pixels"] / v["gpu_pixels_per_s"];
  v["gpu_speedup"] = v["cpu_frame_s"] / v["gpu_frame_s"];
  const std::string cpuSources = cores->source + "; " + cpuLanes->source + "; " + cpuClock->source;
  const std::string gpuSources = sms->source + "; " + gpuLanes->source + "; " + gpuClock->source;
  auto& p = out.provenance;
  for (const char* key : {"cpu_lanes", "cpu_pixels_per_s", "cpu_frame_s"})
    p[key] = {Basis::Derived, cpuSources};
  for (const char* key : {"gpu_lanes", "gpu_pixels_per_s", "gpu_frame_s"})
    p[key] = {Basis::Derived, gpuSources};
  p["gpu_speedup"] = {Basis::Derived, cpuSources + "; " + gpuSources};
  p["cpu_clock_Hz"] = {cpuClock->basis, cpuClock->source};
  p["gpu_clock_Hz"] = {gpuClock->basis, gpuClock->source};
  return out;
}

}  // namespace sim
