// The dense compute tray (visual brief, "tray"): its front and interior from the catalog, its
// coolant plumbing closed from every cold plate to the quick disconnects, the rack's fibre
// waterfall, and light lines kept at least a pixel wide on screen.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/world/world_test_fixture.h"
#include "world/builders/builders.h"

namespace {

using glm::dvec3;
using world::Aabb;

constexpr double RACK_UNIT_M = 0.04445;  // EIA-310-D: 1U = 1.75 in
// MLCommons Inference v6.1, Crusoe GB200-NVL72 system description: 4 local NVMe drives per
// 4-GPU node; 4 ConnectX-7 and 2 BlueField-3 per tray (DGX GB200 user guide, reference A.4).
constexpr int DRIVES = 4, NICS = 4;
constexpr double E1S_WIDTH_M = 0.0315;  // SNIA SFF-TA-1006: an E1.S module is 31.5 mm wide

using worldtest::Built;

std::vector<Aabb> named(const world::Prototype& p, const std::string& name) {
  std::vector<Aabb> out;
  for (const world::Part& part : p.parts)
    if (part.name == name) out.push_back(part.bounds);
  return out;
}

std::vector<Aabb> prefixed(const world::Prototype& p, const std::string& prefix) {
  std::vector<Aabb> out;
  for (const world::Part& part : p.parts)
    if (part.name.rfind(prefix, 0) == 0) out.push_back(part.bounds);
  return out;
}

TEST(ComputeTray, FrontHoldsTheCatalogDrivesUprightBesideTheCages) {
  Built b;
  auto ctx = b.ctx();
  const world::Prototype& tray = b.scene.prototype(world::buildComputeTray(ctx, {}));
  const std::vector<Aabb> carriers = prefixed(tray, "E1.S drive carrier ");
  ASSERT_EQ(int(carriers.size()), DRIVES);
  const world::ChildInstance* cages = nullptr;
  for (const auto& child : tray.children)
    if (child.name == "nic_cages") cages = &child;
  ASSERT_NE(cages, nullptr);
  const Aabb cageRow =
      world::transformAabb(cages->local, b.scene.prototype(cages->prototype).bounds);
  for (const Aabb& c : carriers) {
    EXPECT_NEAR(c.size().y, E1S_WIDTH_M, 1e-6);  // standing upright
    EXPECT_GE(c.min.y, 0.0);
    EXPECT_LE(c.max.y, RACK_UNIT_M);  // inside the 1U face
    EXPECT_LT(c.max.x, cageRow.min.x) << "the drives sit left of the NIC cages";
  }
}

TEST(ComputeTray, EveryColdPlateIsPlumbedToTheHeadersAndQuickDisconnects) {
  Built b;
  auto ctx = b.ctx();
  const world::Prototype& tray =
      b.scene.prototype(world::buildComputeTray(ctx, world::TrayDesc{.hero = true}));
  // 3 of the 4 GPUs have their plate on (the hero's is off to show its dies), and both Graces.
  const size_t plates =
      named(tray, "B200 cold plate").size() + named(tray, "Grace cold plate").size();
  EXPECT_EQ(plates, 5u);
  EXPECT_EQ(named(tray, "B200 plate fitting").size() + named(tray, "Grace plate fitting").size(),
            2 * plates);
  const std::vector<Aabb> qds = named(tray, "quick-disconnect");
  ASSERT_EQ(qds.size(), 2u);
  for (const bool supply : {true, false}) {
    const std::string which = supply ? "supply" : "return";
    const std::vector<Aabb> headers = named(tray, "coolant " + which + " header");
    ASSERT_EQ(headers.size(), 1u);
    const Aabb& header = headers[0];
    std::vector<Aabb> runs = named(tray, "coolant " + which + " tube");
    for (const Aabb& r : named(tray, "Grace coolant " + which + " tube")) runs.push_back(r);
    ASSERT_EQ(runs.size(), plates);
    for (const Aabb& run : runs) {
      // Each run ends over the header (its rear end at the header's z, its x on the header).
      EXPECT_NEAR(run.min.z, header.center().z, 1e-9);
      EXPECT_GE(run.center().x, header.min.x);
      EXPECT_LE(run.center().x, header.max.x);
    }
    // The header starts at its quick disconnect's x (supply left, return right).
    const Aabb& qd = qds[supply ? 0 : 1];
    EXPECT_TRUE(qd.center().x >= header.min.x && qd.center().x <= header.max.x) << which;
  }
}

TEST(ComputeTray, RackFibresFallIntoOneBundleThatHoldsThemAll) {
  Built b;
  auto ctx = b.ctx();
  const world::PrototypeId rackId = world::buildNvl72Rack(ctx, world::RackDesc{});
  const world::Prototype& rack = b.scene.prototype(rackId);
  const std::vector<Aabb> bundles = named(rack, "scale-out fibre bundle");
  ASSERT_EQ(bundles.size(), 1u);
  const Aabb& bundle = bundles[0];
  const double fibreD = worldtest::dims().meters("osfp.fibre_diameter");
  int trays = 0;
  double lowestTray = 1e9;
  for (const auto& child : rack.children) {
    if (child.name.rfind("compute_tray", 0) != 0) continue;
    ++trays;
    lowestTray = std::min(lowestTray, dvec3(child.local[3]).y);
    // Every tray's fibres at its slot (the rack's RackDesc{} has no hero tray pulled out).
    const world::ChildInstance* fibresOf = nullptr;
    for (const auto& other : rack.children)
      if (other.name == "scale_out_fibres" + child.name.substr(12)) fibresOf = &other;
    ASSERT_NE(fibresOf, nullptr) << child.name;
    EXPECT_NEAR(dvec3(fibresOf->local[3]).y, dvec3(child.local[3]).y, 1e-12);
    const world::Prototype& f = b.scene.prototype(fibresOf->prototype);
    int fibres = 0;
    for (const Aabb& fibre : named(f, "scale-out fibre")) {
      ++fibres;
      // Its far end (the right) reaches the bundle, in the rack's frame.
      const double endX = dvec3(fibresOf->local[3]).x + fibre.max.x;
      EXPECT_GE(endX, bundle.min.x);
      EXPECT_LE(endX, bundle.max.x + fibreD);
    }
    EXPECT_EQ(fibres, NICS) << child.name;
  }
  EXPECT_EQ(trays, 18);
  // The bundle climbs from the lowest compute tray to the rack's top...
  EXPECT_LE(bundle.min.y, lowestTray + 1e-9);
  EXPECT_NEAR(bundle.max.y, b.scene.prototype(rackId).bounds.max.y, 0.01);
  // ...and its section holds every fibre's: n x d^2 <= D^2 (circles, any packing).
  const double n = trays * NICS;
  EXPECT_GE(bundle.size().x * bundle.size().x, n * fibreD * fibreD);
}

// A light line thinner than a pixel is drawn a pixel wide; its length and every thick part keep
// their true size.
TEST(ComputeTray, LightLinesStayAPixelWideFarAway) {
  world::MeshLibrary meshes;
  world::Scene scene;
  const world::PrimitiveMeshes prims = world::registerPrimitives(meshes);
  world::Prototype p;
  p.name = "front";
  world::Look line = world::looks::LED_LINE;
  p.parts.push_back(world::boxPart(prims.box, dvec3(0), dvec3(0.3, 0.0025, 0.001), line, "line"));
  p.parts.push_back(world::boxPart(prims.box, dvec3(0, 0.1, 0), dvec3(0.3, 0.0025, 0.001),
                                   world::looks::LED, "dot row"));
  p.lod.hasProxy = false;
  scene.setRoot(scene.add(std::move(p)));
  scene.countTriangles(meshes);

  world::CullView view;
  const double distance_m = 20.0;
  view.eye = dvec3(0, 0, distance_m);
  view.verticalFov_rad = 0.6;
  view.viewportHeight_px = 720;
  std::vector<std::vector<gpu::Instance>> perMesh;
  scene.collect(view, {prims.box, prims.frontFace}, perMesh);
  ASSERT_GT(perMesh.size(), prims.box.index);
  const auto& boxes = perMesh[prims.box.index];
  ASSERT_EQ(boxes.size(), 2u);
  // One pixel at 20 m: 2 d tan(fov / 2) / 720 px (about 17 mm; the 2.5 mm pipe is 0.15 px).
  const double pixel_m = 2 * distance_m * std::tan(0.3) / 720;
  auto height = [](const gpu::Instance& i) { return std::hypot(i.row0.y, i.row1.y, i.row2.y); };
  auto width = [](const gpu::Instance& i) { return std::hypot(i.row0.x, i.row1.x, i.row2.x); };
  // The line first (parts in order).
  EXPECT_NEAR(height(boxes[0]), line.minWidth_px * pixel_m, 1e-3 * pixel_m);
  EXPECT_NEAR(width(boxes[0]), 0.3, 1e-6);
  EXPECT_NEAR(height(boxes[1]), 0.0025, 1e-7);  // a plain look keeps its true size
}

}  // namespace
