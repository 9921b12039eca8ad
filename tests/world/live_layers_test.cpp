// The live layers (world/live/layer.h): every id names one layer, a tour's names find their ids,
// and a frame draws a layer exactly when it switches it on.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "tests/world/world_test_fixture.h"
#include "world/live/layer_id.h"

namespace {

TEST(LiveLayers, EveryIdHasOneNameThatFindsItAgain) {
  std::set<std::string_view> names;
  for (size_t i = 0; i < world::LAYER_COUNT; ++i) {
    const std::string_view name = world::LAYER_NAMES[i];
    EXPECT_FALSE(name.empty()) << i;
    EXPECT_TRUE(names.insert(name).second) << name << " names two layers";
    const auto id = world::layerByName(name);
    ASSERT_TRUE(id) << name;
    EXPECT_EQ(size_t(*id), i) << name;
  }
  EXPECT_FALSE(world::layerByName("sparkles"));
  EXPECT_FALSE(world::layerByName(""));
}

// Each layer that needs nothing from a panel, switched on alone over a synced training job,
// adds instances to the frame; none of them draws while it is off. With culling off the view
// does not decide what is drawn, so the difference is the layer's alone.
TEST(LiveLayers, AFrameDrawsALayerWhenItSwitchesItOnById) {
  auto built = worldtest::freshWorld();
  ASSERT_TRUE(built);
  world::World& w = *built;
  auto engine = worldtest::engineFor("training_405b");
  engine->advanceTo(5.0);
  w.sync(engine->snapshot(), world::OverlayMetric::None, 1);
  const world::Camera camera = worldtest::cameraAt(worldtest::station("row"));
  world::FrameDesc frame;
  frame.cull = false;
  frame.triangleBudget = UINT64_MAX;
  frame.inputs.eventTime_s = 7.0;  // the NVLink domain has grown past one tray
  world::RenderList list;
  w.buildRenderList(camera, frame, list);
  const size_t none = list.instances.size();
  for (const world::LayerId id :
       {world::LayerId::Traffic, world::LayerId::Coolant, world::LayerId::Ring,
        world::LayerId::Firehose, world::LayerId::PowerFlow, world::LayerId::NvlinkDomain,
        world::LayerId::Goodput, world::LayerId::StageBands}) {
    world::FrameDesc one = frame;
    one.layers.set(id);
    w.buildRenderList(camera, one, list);
    EXPECT_GT(list.instances.size(), none) << world::LAYER_NAMES[size_t(id)];
  }
  // The panel-fed layers draw only what their inputs give them.
  world::FrameDesc fed = frame;
  fed.layers.set(world::LayerId::HbmFill)
      .set(world::LayerId::ValueBars)
      .set(world::LayerId::Phases);
  w.buildRenderList(camera, fed, list);
  EXPECT_EQ(list.instances.size(), none);
  world::HbmFill fill;
  fill.segments_bytes = {40e9, 20e9};
  fill.capacity_bytes = 192e9;
  fed.inputs.hbmFill = &fill;
  w.buildRenderList(camera, fed, list);
  EXPECT_GT(list.instances.size(), none);
  // Prefill and decode on the package's two dies: a slab each, and decode's stacks streaming.
  world::FrameDesc phases = frame;
  phases.layers.set(world::LayerId::Phases);
  phases.inputs.phases = {{"prefill", {1.0, 0.1}}, {"decode", {0.05, 1.0}}};
  w.buildRenderList(camera, phases, list);
  EXPECT_GT(list.instances.size(), none + 2);
}

}  // namespace
