// The GPUDirect RDMA and TCP journeys in the hero compute tray (world/live/journeys.h): both from
// the hero GPU package to a ConnectX-7 cage of the scene, RDMA in one hop through the PCIe switch,
// TCP through four copies (three buffers in the Grace's LPDDR5X, then the NIC) where particles
// wait, and longer.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "tests/world/world_test_fixture.h"
#include "world/live/journeys.h"
#include "world/live/traffic.h"

namespace {

const std::string TRAY = "hall0/row0/rack0/compute_tray9";

bool inside(const world::Aabb& box, const glm::dvec3& p, double slack_m) {
  for (int k = 0; k < 3; ++k) {
    if (p[k] < box.min[k] - slack_m || p[k] > box.max[k] + slack_m) return false;
  }
  return true;
}

// World boxes of the parts of the instance at `path` whose names start with `prefix`.
std::vector<world::Aabb> parts(const world::Scene& scene, const std::string& path,
                               const std::string& prefix) {
  std::vector<world::Aabb> out;
  const auto resolved = scene.resolve(path);
  EXPECT_TRUE(resolved) << path;
  if (!resolved) return out;
  for (const world::Part& part : scene.prototype(resolved->second).parts) {
    if (part.name.rfind(prefix, 0) == 0) {
      out.push_back(world::transformAabb(resolved->first, part.bounds));
    }
  }
  return out;
}

bool insideAny(const std::vector<world::Aabb>& boxes, const glm::dvec3& p, double slack_m) {
  for (const world::Aabb& b : boxes)
    if (inside(b, p, slack_m)) return true;
  return false;
}

double distanceToRoute(const world::Journey& j, const gpu::Instance& inst) {
  const glm::dvec3 p(inst.row0.w, inst.row1.w, inst.row2.w);
  double best = 1e300;
  for (size_t i = 1; i < j.points.size(); ++i) {
    const glm::dvec3 a = j.points[i - 1], ab = j.points[i] - a;
    const double t = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0, 1.0);
    best = std::min(best, glm::length(p - (a + t * ab)));
  }
  return best;
}

TEST(Journeys, BothRunFromTheHeroGpuToANicAndTcpStopsFourTimes) {
  const world::Scene& scene = worldtest::defaultWorld().scene();
  const auto journeys = world::buildTrayJourneys(scene, TRAY);
  ASSERT_TRUE(journeys);
  const auto gpu = scene.worldBounds(TRAY + "/superchip0_gpu0");
  ASSERT_TRUE(gpu);
  const std::vector<world::Aabb> nics = parts(scene, TRAY, "ConnectX-7 400G OSFP ");
  const std::vector<world::Aabb> lpddr = parts(scene, TRAY + "/superchip0_grace", "LPDDR5X ");
  ASSERT_FALSE(nics.empty());
  ASSERT_FALSE(lpddr.empty());
  const double slack = world::JourneyStyle{}.size_m;  // particles ride on top of the parts

  for (const world::Journey* j : {&journeys->rdma, &journeys->tcp}) {
    ASSERT_GE(j->points.size(), 2u);
    EXPECT_TRUE(inside(*gpu, j->points.front(), slack));
    EXPECT_TRUE(insideAny(nics, j->points.back(), 0.0));
    EXPECT_TRUE(inside(journeys->nic, j->points.back(), 0.0));
    EXPECT_NEAR(j->along_m.back(), j->length_m(), 1e-15);
  }
  // RDMA: no copy, one pass through the PCIe switch on the board.
  EXPECT_TRUE(journeys->rdma.stops.empty());
  ASSERT_EQ(journeys->rdma.passes.size(), 1u);
  // TCP: pinned buffer, application buffer, socket buffer (each on an LPDDR5X), then the NIC.
  const world::Journey& tcp = journeys->tcp;
  ASSERT_EQ(tcp.stops.size(), 4u);
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_TRUE(insideAny(lpddr, tcp.at(tcp.stops[k].along_m), slack)) << tcp.stops[k].what;
  }
  EXPECT_TRUE(insideAny(nics, tcp.at(tcp.stops[3].along_m), 0.0));
  for (size_t k = 1; k < 4; ++k) EXPECT_GT(tcp.stops[k].along_m, tcp.stops[k - 1].along_m);
  EXPECT_GT(tcp.length_m(), journeys->rdma.length_m());
}

TEST(Journeys, ParticlesWaitAtEveryCopyStop) {
  const auto journeys = world::buildTrayJourneys(worldtest::defaultWorld().scene(), TRAY);
  ASSERT_TRUE(journeys);
  const world::JourneyStyle style{0.1, 0.5, 0.25, 0.004};
  const world::Journey& tcp = journeys->tcp;
  EXPECT_DOUBLE_EQ(world::journeyDuration_s(tcp, style), tcp.length_m() / 0.1 + 4 * 0.5);
  EXPECT_DOUBLE_EQ(world::journeyDuration_s(journeys->rdma, style),
                   journeys->rdma.length_m() / 0.1);
  // Arriving at stop k after travelling its arc length and waiting at the k stops before it.
  for (size_t k = 0; k < tcp.stops.size(); ++k) {
    const double arrive_s = tcp.stops[k].along_m / 0.1 + double(k) * 0.5;
    EXPECT_NEAR(world::journeyAlong_m(tcp, style, arrive_s + 0.01), tcp.stops[k].along_m, 1e-12);
    EXPECT_NEAR(world::journeyAlong_m(tcp, style, arrive_s + 0.49), tcp.stops[k].along_m, 1e-12);
    if (k + 1 < tcp.stops.size()) {  // then on, half-way to the next stop
      const double gap_m = tcp.stops[k + 1].along_m - tcp.stops[k].along_m;
      EXPECT_NEAR(world::journeyAlong_m(tcp, style, arrive_s + 0.5 + 0.5 * gap_m / 0.1),
                  tcp.stops[k].along_m + 0.5 * gap_m, 1e-12);
    }
  }
  // RDMA never waits: distance = speed x time.
  EXPECT_NEAR(world::journeyAlong_m(journeys->rdma, style, 1.0), 0.1, 1e-12);
  EXPECT_EQ(world::journeyAlong_m(tcp, style, 1e6), tcp.length_m());
}

TEST(Journeys, EmitDrawsEveryParticleAndStopInItsColour) {
  const auto journeys = world::buildTrayJourneys(worldtest::defaultWorld().scene(), TRAY);
  ASSERT_TRUE(journeys);
  const world::JourneyStyle style;
  const uint32_t rdma = world::journeyParticles(journeys->rdma, style);
  const uint32_t tcp = world::journeyParticles(journeys->tcp, style);
  EXPECT_EQ(rdma, uint32_t(std::ceil(world::journeyDuration_s(journeys->rdma, style) /
                                     style.launchEvery_s)));
  EXPECT_GT(tcp, rdma) << "the copies hold the TCP particles back";
  std::vector<gpu::Instance> out;
  world::emitJourneys(*journeys, style, 3.7, glm::dvec3(0.0), out);
  EXPECT_EQ(out.size(), world::journeyInstances(*journeys, style));
  EXPECT_EQ(out.size(), rdma + tcp + 4 + 1);  // particles, TCP's four stops, RDMA's PCIe switch
  // Two colours: the RDMA particles differ from the TCP ones.
  const gpu::Instance& firstRdma = out[1];  // after RDMA's one marker
  const gpu::Instance& firstTcp = out[1 + rdma + 4];
  EXPECT_NE(firstRdma.color.x, firstTcp.color.x);
  // Every particle lies on its own route (float positions: micrometres at the tray's distance
  // from the origin).
  for (uint32_t k = 0; k < rdma; ++k) {
    EXPECT_LT(distanceToRoute(journeys->rdma, out[1 + k]), 1e-4);
  }
  for (uint32_t k = 0; k < tcp; ++k) {
    EXPECT_LT(distanceToRoute(journeys->tcp, out[1 + rdma + 4 + k]), 1e-4);
  }
  // The default world's traffic carries them.
  ASSERT_NE(worldtest::defaultWorld().layer<world::TrafficLayer>().traffic().journeys(), nullptr);
}

}  // namespace
