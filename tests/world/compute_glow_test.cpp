// The hero GPU's tensor cores and HBM glow with what the engine says it does: the emissive of
// every tensor-core part follows its tensor-core utilisation, that of every HBM PHY and TSV its
// HBM bytes/s over the catalog HBM bandwidth (read here from the engine's snapshot and specs).
#include <gtest/gtest.h>

#include "tests/world/world_test_fixture.h"
#include "world/live/compute_glow.h"

namespace {

// The stations' hero GPU is hall0/row0/rack0/compute_tray9/superchip0_gpu0: tray 9, first GPU.
uint32_t heroGpuId(const sim::engine::Engine& engine) {
  const sim::engine::Cluster& c = engine.cluster();
  return c.firstGpuOfRack({0}).index + 9 * c.gpusPerTray;
}

// The emissive of the first part called `name` (or starting with it) in the world's scene.
float emissiveOf(const world::World& w, const std::string& name) {
  for (uint32_t p = 0; p < w.scene().prototypeCount(); ++p) {
    for (const world::Part& part : w.scene().prototype({p}).parts) {
      if (part.name.rfind(name, 0) == 0) return part.look.emissive;
    }
  }
  ADD_FAILURE() << "no part " << name;
  return -1;
}

}  // namespace

TEST(ComputeGlow, TensorCoresFollowTheHeroGpusUtilisation) {
  auto built = worldtest::freshWorld();
  ASSERT_TRUE(built);
  world::World& w = *built;
  auto engine = worldtest::engineFor("training_405b");
  ASSERT_GT(w.layer<world::ComputeGlowLayer>().glow().tensorParts(), 0u);
  ASSERT_GT(w.layer<world::ComputeGlowLayer>().glow().memoryParts(), 0u);
  float busiest = -1, idlest = 2;
  // Twice in the pipeline phase, then twice in the DP all-reduce (found by the engine's phase,
  // wherever the step model puts it).
  for (int sample = 0; sample < 4; ++sample) {
    if (sample < 2) {
      engine->advanceTo(1.0 + sample);
    } else {
      while (engine->phase() != sim::engine::TrainingPhase::DataParallel && engine->time_s() < 60)
        engine->step();
      if (sample == 3) engine->step();
    }
    const double t_s = engine->time_s();
    w.sync(engine->snapshot(), world::OverlayMetric::None, 1);
    const double utilisation = engine->snapshot().gpuUtilisation[heroGpuId(*engine)];
    const float emissive = emissiveOf(w, "tensor core");
    EXPECT_FLOAT_EQ(emissive, world::glowEmissive(utilisation)) << t_s;
    EXPECT_DOUBLE_EQ(w.layer<world::ComputeGlowLayer>().glow().tensorShare(), utilisation);
    busiest = std::max(busiest, emissive);
    idlest = std::min(idlest, emissive);
  }
  EXPECT_GT(busiest, idlest + 0.3f);  // it visibly pulses between compute and communication
}

TEST(ComputeGlow, HbmFollowsTheHeroGpusMemoryTraffic) {
  auto built = worldtest::freshWorld();
  ASSERT_TRUE(built);
  world::World& w = *built;
  auto engine = worldtest::engineFor("inference_70b");  // decode reads the weights and KV cache
  // From 10 s of simulated time, to the first step the hero GPU's replica decodes (a prefill
  // moves no HBM traffic of this kind): within 10 s more.
  engine->advanceTo(10.0);
  const auto shareNow = [&] {
    return engine->snapshot().gpuHbm_Bps[heroGpuId(*engine)] /
           engine->cluster().specs.gpu.hbmBandwidth_Bps;
  };
  while (shareNow() <= 0.5 && engine->time_s() < 20.0) engine->step();
  w.sync(engine->snapshot(), world::OverlayMetric::None, 1);
  const double share = shareNow();
  ASSERT_GT(share, 0.5) << "no decode step within 10 s";
  EXPECT_FLOAT_EQ(emissiveOf(w, "HBM PHY"), world::glowEmissive(share));
  EXPECT_FLOAT_EQ(emissiveOf(w, "TSV"), world::glowEmissive(share));
}

TEST(ComputeGlow, EmissiveIsClampedToTheStyle) {
  const world::GlowStyle style;
  EXPECT_FLOAT_EQ(world::glowEmissive(-1), style.minEmissive);
  EXPECT_FLOAT_EQ(world::glowEmissive(0.5), style.minEmissive + 0.5f * style.emissiveRange);
  EXPECT_FLOAT_EQ(world::glowEmissive(7), style.minEmissive + style.emissiveRange);
}
