// The meaning colours stay distinguishable to colour-blind visitors (issue 17): each pair that a
// picture asks you to tell apart keeps a CIEDE2000 difference of at least 20 after simulated
// protanopia, deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, severity 1, on
// linear RGB). CIEDE2000 follows Sharma, Wu and Dalal 2005 and is checked against their test
// pairs first.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "world/builders/builders.h"
#include "world/live/traffic.h"

namespace {

using Rgb = std::array<double, 3>;  // linear sRGB
using Lab = std::array<double, 3>;
using Matrix = std::array<Rgb, 3>;

constexpr double PI = 3.14159265358979323846;
double rad(double deg) {
  return deg * PI / 180.0;
}
double deg(double r) {
  return r * 180.0 / PI;
}

// Machado et al. 2009, table of simulation matrices at severity 1.0.
constexpr Matrix PROTAN{{{0.152286, 1.052583, -0.204868},
                         {0.114503, 0.786281, 0.099216},
                         {-0.003882, -0.048116, 1.051998}}};
constexpr Matrix DEUTAN{{{0.367322, 0.860646, -0.227968},
                         {0.280085, 0.672501, 0.047413},
                         {-0.011820, 0.042940, 0.968881}}};
constexpr Matrix TRITAN{{{1.255528, -0.076749, -0.178779},
                         {-0.078411, 0.930809, 0.147602},
                         {0.004733, 0.691367, 0.303900}}};
constexpr Matrix NORMAL{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};

Rgb simulate(const Matrix& m, const Rgb& c) {
  Rgb out{};
  for (int i = 0; i < 3; ++i)
    out[i] = std::clamp(m[i][0] * c[0] + m[i][1] * c[1] + m[i][2] * c[2], 0.0, 1.0);
  return out;
}

// Linear sRGB -> CIE XYZ (D65) -> CIELAB.
Lab lab(const Rgb& c) {
  const double x = 0.4124564 * c[0] + 0.3575761 * c[1] + 0.1804375 * c[2];
  const double y = 0.2126729 * c[0] + 0.7151522 * c[1] + 0.0721750 * c[2];
  const double z = 0.0193339 * c[0] + 0.1191920 * c[1] + 0.9503041 * c[2];
  auto f = [](double t) {
    return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0;
  };
  const double fx = f(x / 0.95047), fy = f(y), fz = f(z / 1.08883);
  return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

double ciede2000(const Lab& p, const Lab& q) {
  const double c1 = std::hypot(p[1], p[2]), c2 = std::hypot(q[1], q[2]);
  const double cb7 = std::pow((c1 + c2) / 2, 7);
  const double g = 0.5 * (1 - std::sqrt(cb7 / (cb7 + std::pow(25.0, 7))));
  const double a1 = (1 + g) * p[1], a2 = (1 + g) * q[1];
  const double c1p = std::hypot(a1, p[2]), c2p = std::hypot(a2, q[2]);
  auto hue = [](double b, double a) {
    const double h = deg(std::atan2(b, a));
    return h < 0 ? h + 360 : h;
  };
  const double h1 = hue(p[2], a1), h2 = hue(q[2], a2);
  double dh = 0;
  if (c1p * c2p != 0) {
    dh = h2 - h1;
    if (dh > 180) dh -= 360;
    if (dh < -180) dh += 360;
  }
  const double dL = q[0] - p[0], dC = c2p - c1p;
  const double dH = 2 * std::sqrt(c1p * c2p) * std::sin(rad(dh / 2));
  const double lb = (p[0] + q[0]) / 2, cbp = (c1p + c2p) / 2;
  double hb = h1 + h2;
  if (c1p * c2p != 0) {
    if (std::abs(h1 - h2) <= 180)
      hb = (h1 + h2) / 2;
    else
      hb = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
  }
  const double t = 1 - 0.17 * std::cos(rad(hb - 30)) + 0.24 * std::cos(rad(2 * hb)) +
                   0.32 * std::cos(rad(3 * hb + 6)) - 0.20 * std::cos(rad(4 * hb - 63));
  const double dTheta = 30 * std::exp(-std::pow((hb - 275) / 25, 2));
  const double cbp7 = std::pow(cbp, 7);
  const double rc = 2 * std::sqrt(cbp7 / (cbp7 + std::pow(25.0, 7)));
  const double sl = 1 + 0.015 * std::pow(lb - 50, 2) / std::sqrt(20 + std::pow(lb - 50, 2));
  const double sc = 1 + 0.045 * cbp, sh = 1 + 0.015 * cbp * t;
  const double rt = -std::sin(rad(2 * dTheta)) * rc;
  return std::sqrt(std::pow(dL / sl, 2) + std::pow(dC / sc, 2) + std::pow(dH / sh, 2) +
                   rt * (dC / sc) * (dH / sh));
}

Rgb rgb(const world::Look& l) {
  return {l.r, l.g, l.b};
}

}  // namespace

// Sharma, Wu and Dalal 2005, table 1: pairs 1, 7 and 17.
TEST(Palette, Ciede2000MatchesSharmasTestData) {
  EXPECT_NEAR(ciede2000({50, 2.6772, -79.7751}, {50, 0, -82.7485}), 2.0425, 1e-4);
  EXPECT_NEAR(ciede2000({50, 0, 0}, {50, -1, 2}), 2.3669, 1e-4);
  EXPECT_NEAR(ciede2000({50, 2.5, 0}, {73, 25, -18}), 27.1492, 1e-4);
}

// The classic confusion the simulation must reproduce: pure red and pure green nearly merge for
// a deuteranope, so a palette that passes is not passing by a broken simulation.
TEST(Palette, DeuteranopiaMergesPureRedAndGreen) {
  const Rgb red{1, 0, 0}, green{0, 0.45, 0};
  EXPECT_GT(ciede2000(lab(red), lab(green)), 60);
  EXPECT_LT(ciede2000(lab(simulate(DEUTAN, red)), lab(simulate(DEUTAN, green))), 15);
}

TEST(Palette, MeaningColoursStayApartUnderColourBlindness) {
  struct Pair {
    const char* what;
    world::Look a, b;
  };
  const Pair pairs[] = {
      {"compute vs PFC pause", world::looks::TENSOR, world::traffic_looks::PAUSED},
      {"fabric traffic vs PFC pause", world::traffic_looks::FABRIC, world::traffic_looks::PAUSED},
      {"NVLink vs fabric traffic", world::traffic_looks::NVLINK, world::traffic_looks::FABRIC},
      {"NVLink traffic vs PFC pause", world::traffic_looks::NVLINK, world::traffic_looks::PAUSED},
      {"NVLink traffic vs compute", world::traffic_looks::NVLINK, world::looks::TENSOR},
      {"coolant supply vs return", world::looks::COOLANT_SUPPLY, world::looks::COOLANT_RETURN},
      {"compute vs coolant supply", world::looks::TENSOR, world::looks::COOLANT_SUPPLY},
  };
  const std::pair<const char*, Matrix> visions[] = {
      {"normal", NORMAL}, {"protanopia", PROTAN}, {"deuteranopia", DEUTAN}, {"tritanopia", TRITAN}};
  for (const Pair& p : pairs) {
    for (const auto& [name, m] : visions) {
      const double d = ciede2000(lab(simulate(m, rgb(p.a))), lab(simulate(m, rgb(p.b))));
      EXPECT_GE(d, 20.0) << p.what << " under " << name;
    }
  }
}
