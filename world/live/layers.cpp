// The live layers, in draw order: a new visual is one line here (and its id in layer_id.h).
#include "world/live/compute_glow.h"
#include "world/live/coolant.h"
#include "world/live/events/firehose.h"
#include "world/live/events/goodput.h"
#include "world/live/events/nvlink.h"
#include "world/live/events/phases.h"
#include "world/live/events/pixel_race.h"
#include "world/live/events/power_flow.h"
#include "world/live/events/ring.h"
#include "world/live/events/stages.h"
#include "world/live/events/value_bars.h"
#include "world/live/hbm_fill.h"
#include "world/live/layer.h"
#include "world/live/systolic.h"
#include "world/live/traffic.h"

namespace world {

LiveLayers LiveLayers::build(const LayerSources& sources) {
  constexpr std::optional<LayerId> ALWAYS;  // drawn wherever its parts are in view
  const std::pair<std::optional<LayerId>, LayerMaker> kinds[] = {
      {LayerId::Traffic, TrafficLayer::make},
      {LayerId::Coolant, CoolantLayer::make},
      {LayerId::HbmFill, HbmFillLayer::make},
      {ALWAYS, SystolicLayer::make},
      {ALWAYS, ComputeGlowLayer::make},
      {LayerId::Ring, RingLayer::make},
      {LayerId::Firehose, FirehoseLayer::make},
      {LayerId::PowerFlow, PowerFlowLayer::make},
      {LayerId::NvlinkDomain, NvlinkLayer::make},
      {LayerId::Goodput, GoodputLayer::make},
      {LayerId::StageBands, StageBandsLayer::make},
      {LayerId::ValueBars, ValueBarsLayer::make},
      {LayerId::PixelRace, PixelRaceLayer::make},
      {LayerId::Phases, PhasesLayer::make},
  };
  LiveLayers layers;
  for (const auto& [id, make] : kinds) layers.m_layers.push_back({id, make(sources)});
  return layers;
}

}  // namespace world
