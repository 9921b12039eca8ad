// Coolant flow (world/live/coolant.h): loops along the hero rack's real pipes in the direction of
// flow, colours on the viridis scale over a range from catalog figures, temperatures equal to the
// engine's and to an independent heat / (m_dot x c_p) calculation from catalog figures, and a pump
// trip that slows the dashes and warms the return.
#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "tests/common/shipped_catalog.h"
#include "tests/world/world_test_fixture.h"
#include "world/live/coolant.h"

namespace {

using world::CoolantLoop;
using world::CoolantTemp;
using worldtest::engineFor;

const sim::Catalog& catalog() {
  return testcatalog::shipped();
}

double figure(const std::string& path) {
  const sim::Quantity* q = catalog().find(path);
  EXPECT_NE(q, nullptr) << path;
  return q ? q->value : 0.0;
}

bool inside(const world::Aabb& box, const glm::dvec3& p, double slack_m) {
  for (int k = 0; k < 3; ++k) {
    if (p[k] < box.min[k] - slack_m || p[k] > box.max[k] + slack_m) return false;
  }
  return true;
}

world::Aabb part(const std::string& path, const std::string& name) {
  const world::Scene& scene = worldtest::defaultWorld().scene();
  const auto resolved = scene.resolve(path);
  EXPECT_TRUE(resolved) << path;
  if (!resolved) return {};
  for (const world::Part& p : scene.prototype(resolved->second).parts) {
    if (p.name == name) return world::transformAabb(resolved->first, p.bounds);
  }
  ADD_FAILURE() << "no part " << name << " in " << path;
  return {};
}

const world::CoolantPath& loopOf(const world::Coolant& c, CoolantLoop loop) {
  for (const world::CoolantPath& p : c.paths())
    if (p.loop == loop) return p;
  ADD_FAILURE() << "no such loop";
  return c.paths().front();
}

// Index of the first point of `path` inside `box` whose temperature is `temp` throughout.
size_t firstPointIn(const world::CoolantPath& path, const world::Aabb& box, CoolantTemp temp) {
  for (size_t i = 0; i < path.points.size(); ++i) {
    const world::CoolantPoint& p = path.points[i];
    if (p.from == temp && p.to == temp && inside(box, p.position_m, 1e-6)) return i;
  }
  return path.points.size();
}

TEST(Coolant, SecondaryLoopRunsSupplyFirstThroughTheColdPlatesAndBackOnTheReturnPipes) {
  const world::Coolant& c = worldtest::defaultWorld().layer<world::CoolantLayer>().coolant();
  ASSERT_EQ(c.paths().size(), 2u);
  const world::CoolantPath& s = loopOf(c, CoolantLoop::Secondary);
  ASSERT_EQ(s.along_m.size(), s.points.size() + 1);
  const std::string rack = "hall0/row0/rack0", row = "hall0/row0";
  const std::string tray = rack + "/compute_tray9";
  const size_t cduSupply =
      firstPointIn(s, part(row + "/cdu", "secondary supply"), CoolantTemp::Supply);
  const size_t rowSupply = firstPointIn(s, part(row, "row coolant supply"), CoolantTemp::Supply);
  const size_t manifoldS =
      firstPointIn(s, part(rack, "coolant supply manifold"), CoolantTemp::Supply);
  const size_t manifoldR =
      firstPointIn(s, part(rack, "coolant return manifold"), CoolantTemp::RackOutlet);
  const size_t rowReturn =
      firstPointIn(s, part(row, "row coolant return"), CoolantTemp::LoopReturn);
  const size_t cduReturn =
      firstPointIn(s, part(row + "/cdu", "secondary return"), CoolantTemp::LoopReturn);
  size_t plate = s.points.size();
  for (size_t i = 0; i < s.points.size(); ++i) {
    const world::CoolantPoint& p = s.points[i];
    if (p.from == CoolantTemp::Supply && p.to == CoolantTemp::RackOutlet && p.mix > 0) {
      plate = std::min(plate, i);
      EXPECT_TRUE(inside(*worldtest::defaultWorld().scene().worldBounds(tray), p.position_m, 1e-6));
    }
  }
  // In the order the water flows.
  EXPECT_EQ(cduSupply, 0u);
  EXPECT_LT(cduSupply, rowSupply);
  EXPECT_LT(rowSupply, manifoldS);
  EXPECT_LT(manifoldS, plate);
  EXPECT_LT(plate, manifoldR);
  EXPECT_LT(manifoldR, rowReturn);
  EXPECT_LT(rowReturn, cduReturn);
  EXPECT_LT(cduReturn, s.points.size());
  // The last plate has taken all of the rack's heat.
  EXPECT_DOUBLE_EQ(s.points[manifoldR - 1].mix, 0.0);  // the return tube starts at RackOutlet
}

TEST(Coolant, FacilityLoopGoesFromTheCduToTheDryCoolerOnTheReturnHeaderAndBackOnTheSupply) {
  const world::Coolant& c = worldtest::defaultWorld().layer<world::CoolantLayer>().coolant();
  const world::CoolantPath& f = loopOf(c, CoolantLoop::Facility);
  const world::Scene& scene = worldtest::defaultWorld().scene();
  EXPECT_TRUE(inside(part("hall0/row0/cdu", "CDU cabinet"), f.points.front().position_m, 1e-6));
  const size_t ret = firstPointIn(f, part("cooling0", "facility water return header"),
                                  CoolantTemp::FacilityReturn);
  const size_t sup =
      firstPointIn(f, part("cooling0", "facility water supply header"), CoolantTemp::Supply);
  const auto cooler = scene.worldBounds("cooling0/dry_cooler0");
  ASSERT_TRUE(cooler);
  size_t overCooler = f.points.size();
  for (size_t i = 0; i < f.points.size(); ++i) {
    const glm::dvec3& p = f.points[i].position_m;
    if (p.x >= cooler->min.x && p.x <= cooler->max.x && p.z >= cooler->min.z &&
        p.z <= cooler->max.z && p.y > cooler->max.y) {
      overCooler = std::min(overCooler, i);
    }
  }
  EXPECT_LT(ret, overCooler);
  EXPECT_LT(overCooler, sup);
  EXPECT_LT(sup, f.points.size());
  // Hundreds of metres from the hall to the yard.
  EXPECT_GT(f.length_m(), 100.0);
}

TEST(Coolant, SupplyIsTheScalesColourOfTheSupplyTemperatureAndTheReturnWarmerByHeatOverFlow) {
  auto engine = engineFor("training_405b");
  world::Coolant c = world::Coolant::build(worldtest::defaultWorld().scene());
  c.update(engine->snapshot());
  const world::CoolantState& st = c.state();

  const double supply_C = figure("facility.default.coolant_supply_C");
  const double cp = figure("facility.default.coolant_specific_heat_J_per_kg_K");
  const double deltaT_K = figure("facility.default.coolant_delta_T_K");
  const double rackMax_W = figure("systems.gb200_nvl72.max_power_W");
  EXPECT_DOUBLE_EQ(st.at_C(CoolantTemp::Supply), supply_C);
  // The scale: one design rise below supply to the pump-trip equilibrium at full rack power.
  const double tripFlow = figure("engine.thermal.pump_trip_remaining_flow_fraction");
  EXPECT_DOUBLE_EQ(c.range().min, supply_C - deltaT_K);
  EXPECT_DOUBLE_EQ(c.range().max, supply_C + deltaT_K / tripFlow);

  // The first dash sits at the start of the loop (phase 0), on the CDU's supply riser: the
  // scale's colour of the supply temperature.
  std::vector<gpu::Instance> out;
  c.emit(glm::dvec3(0.0), out);
  ASSERT_EQ(out.size(), c.dashes());
  const world::CoolantPath& s = c.paths()[0];
  ASSERT_EQ(s.loop, CoolantLoop::Secondary);
  EXPECT_NEAR(out[0].row0.w, s.points[0].position_m.x, 1e-3);
  EXPECT_NEAR(out[0].row1.w, s.points[0].position_m.y, 1e-3);
  EXPECT_NEAR(out[0].row2.w, s.points[0].position_m.z, 1e-3);
  const double tSupply = deltaT_K / (deltaT_K + deltaT_K / tripFlow);
  const world::Rgb expected = world::srgbToLinear(world::viridis(tSupply));
  EXPECT_NEAR(out[0].color.x, expected.r, 1e-6);
  EXPECT_NEAR(out[0].color.y, expected.g, 1e-6);
  EXPECT_NEAR(out[0].color.z, expected.b, 1e-6);

  // The rack's design flow carries its maximum power at the design rise; at the engine's start
  // (its loops at equilibrium) the hero rack's return is warmer by its heat / (flow x c_p).
  const sim::engine::Snapshot snap = engine->snapshot();
  const double rackFlow_kg_per_s = rackMax_W / (cp * deltaT_K);
  const double rackRise_K = double(snap.rackPower_W[0]) / (rackFlow_kg_per_s * cp);
  EXPECT_GT(rackRise_K, 1.0);
  EXPECT_NEAR(st.at_C(CoolantTemp::RackOutlet), supply_C + rackRise_K, 1e-3);
  const size_t manifoldR =
      firstPointIn(s, part("hall0/row0/rack0", "coolant return manifold"), CoolantTemp::RackOutlet);
  ASSERT_LT(manifoldR, s.points.size());
  EXPECT_NEAR(s.temperature_C(s.along_m[manifoldR], st), supply_C + rackRise_K, 1e-3);
  // The mixed return: all racks of CDU 0 (racks_per_cdu of them) over their CDU's flow.
  const uint32_t perCdu = uint32_t(figure("engine.thermal.racks_per_cdu"));
  double cduHeat_W = 0;
  for (uint32_t r = 0; r < perCdu; ++r) cduHeat_W += snap.rackPower_W[r];
  EXPECT_NEAR(st.at_C(CoolantTemp::LoopReturn),
              supply_C + cduHeat_W / (perCdu * rackFlow_kg_per_s * cp), 1e-3);
  // The facility water carries the same heat at the same design flow.
  EXPECT_NEAR(st.at_C(CoolantTemp::FacilityReturn), st.at_C(CoolantTemp::LoopReturn), 1e-9);
  // A warmer point is further up the scale.
  const world::Look cold = world::coolantLook(supply_C, c.range());
  const world::Look warm = world::coolantLook(supply_C + rackRise_K, c.range());
  EXPECT_GT(warm.g, cold.g);
}

TEST(Coolant, PumpTripSlowsTheDashesAndWarmsTheReturnAsTheEngineSays) {
  auto engine = engineFor("pump_trip");  // CDU 0 trips at 10 s
  world::Coolant c = world::Coolant::build(worldtest::defaultWorld().scene());
  engine->advanceTo(5.0);
  c.update(engine->snapshot());
  const double speedBefore = c.speed_mps(CoolantLoop::Secondary);
  const double returnBefore = c.state().at_C(CoolantTemp::LoopReturn);
  EXPECT_DOUBLE_EQ(speedBefore, world::CoolantDesc{}.secondary.speedAtDesignFlow_mps);

  engine->advanceTo(60.0);
  c.update(engine->snapshot());
  const sim::engine::Snapshot snap = engine->snapshot();
  const double left = figure("engine.thermal.pump_trip_remaining_flow_fraction");
  const double speedAfter = c.speed_mps(CoolantLoop::Secondary);
  EXPECT_NEAR(speedAfter, speedBefore * left, 1e-6);
  EXPECT_NEAR(speedAfter, speedBefore * snap.cduFlowFraction[0], 1e-9);
  EXPECT_LT(speedAfter, speedBefore);
  // The facility pumps do not trip.
  EXPECT_DOUBLE_EQ(c.speed_mps(CoolantLoop::Facility),
                   world::CoolantDesc{}.facility.speedAtDesignFlow_mps);

  const double returnAfter = c.state().at_C(CoolantTemp::LoopReturn);
  EXPECT_GT(returnAfter, returnBefore + 1.0);
  EXPECT_DOUBLE_EQ(returnAfter, double(snap.cduLoop_C[0]));
  const world::CoolantPath& s = c.paths()[0];
  const size_t rowReturn =
      firstPointIn(s, part("hall0/row0", "row coolant return"), CoolantTemp::LoopReturn);
  ASSERT_LT(rowReturn, s.points.size());
  EXPECT_DOUBLE_EQ(s.temperature_C(s.along_m[rowReturn], c.state()), double(snap.cduLoop_C[0]));
  EXPECT_GT(world::coolantLook(returnAfter, c.range()).g,
            world::coolantLook(returnBefore, c.range()).g);
}

TEST(Coolant, DashesMoveBySpeedTimesSimulatedTimeCappedPerUpdate) {
  auto engine = engineFor("training_405b");
  world::Coolant c = world::Coolant::build(worldtest::defaultWorld().scene());
  c.update(engine->snapshot());
  EXPECT_DOUBLE_EQ(c.phase_m(0), 0.0);  // a first look does not move them
  const double t0 = engine->time_s();
  engine->advanceTo(t0 + 0.05);
  c.update(engine->snapshot());
  const double moved = c.phase_m(0);
  EXPECT_NEAR(moved, c.speed_mps(CoolantLoop::Secondary) * (engine->time_s() - t0), 1e-9);
  engine->advanceTo(engine->time_s() + 5.0);
  c.update(engine->snapshot());
  EXPECT_NEAR(c.phase_m(0) - moved, c.speed_mps(CoolantLoop::Secondary) * 0.1, 1e-9);
}

TEST(Coolant, DashesOnAPipeAreBandsRoundIt) {
  world::Coolant c = world::Coolant::build(worldtest::defaultWorld().scene());
  c.update(engineFor("training_405b")->snapshot());
  const world::CoolantPath& s = c.paths()[0];
  const world::Aabb pipe = part("hall0/row0", "row coolant return");
  const size_t i = firstPointIn(s, pipe, CoolantTemp::LoopReturn);
  ASSERT_LT(i + 1, s.points.size());
  const double mid = 0.5 * (s.along_m[i] + s.along_m[i + 1]);
  const double pipeDiameter = std::min(pipe.size().y, pipe.size().z);  // it runs along X
  EXPECT_NEAR(s.pipe_m(mid), pipeDiameter, 1e-9);
  EXPECT_GT(s.pipe_m(mid), world::CoolantDesc{}.secondary.size_m);
  // In the open (between the row pipe and the manifold) there is no pipe.
  EXPECT_EQ(s.pipe_m(s.along_m[i - 1] + 1e-6), 0.0);
}

TEST(Coolant, WorldDrawsTheDashesOnlyWhenTheFrameAsks) {
  world::World& w = worldtest::defaultWorld();
  const world::Station* rack = w.station("rack");
  ASSERT_NE(rack, nullptr);
  const world::Camera camera = worldtest::cameraAt(*rack);
  world::RenderList off, on;
  world::FrameDesc frame;
  w.buildRenderList(camera, frame, off);
  frame.layers.set(world::LayerId::Coolant, true);
  w.buildRenderList(camera, frame, on);
  EXPECT_GT(w.layer<world::CoolantLayer>().coolant().dashes(), 100u);
  EXPECT_EQ(on.instances.size(),
            off.instances.size() + w.layer<world::CoolantLayer>().coolant().dashes());
}

}  // namespace

TEST(Coolant, TheCduLabelSaysTheEnginesTemperaturesAndFlow) {
  auto built = worldtest::freshWorld();
  ASSERT_TRUE(built);
  world::World& w = *built;
  auto engine = worldtest::engineFor("pump_trip");
  engine->advanceTo(60.0);
  w.layer<world::CoolantLayer>().coolant().update(engine->snapshot());
  const world::Station* row = w.station("row");
  ASSERT_NE(row, nullptr);
  world::FrameDesc frame;
  frame.layers.set(world::LayerId::Coolant, true);
  world::RenderList list;
  w.buildRenderList(worldtest::cameraAt(*row), frame, list);
  // Expected text from the engine directly: the CDU's loop temperature and pump flow, and the
  // catalog supply temperature.
  const sim::engine::Snapshot s = engine->snapshot();
  const uint32_t cdu = engine->cluster().rackCdu[0];
  char expected[128];
  std::snprintf(expected, sizeof expected,
                "CDU  supply %.0f °C  return %.0f °C  flow %.0f %% (derived)",
                engine->cluster().specs.facility.coolantSupply_C, double(s.cduLoop_C[cdu]),
                100.0 * s.cduFlowFraction[cdu]);
  bool found = false;
  for (const world::Label& label : list.labels) found = found || label.text == expected;
  EXPECT_TRUE(found) << expected;
  EXPECT_LT(s.cduFlowFraction[cdu], 1.0f);  // the trip shows in the label
  // Without the coolant view, no CDU label.
  frame.layers.set(world::LayerId::Coolant, false);
  w.buildRenderList(worldtest::cameraAt(*row), frame, list);
  for (const world::Label& label : list.labels) EXPECT_NE(label.text.rfind("CDU", 0), 0u);
}
