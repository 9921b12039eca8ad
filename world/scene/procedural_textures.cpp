#include "world/scene/procedural_textures.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <vector>

namespace world {
namespace {

constexpr int N = int(PATTERN_SIZE_PX);
// Samples per pixel along each axis: edges of holes and vias are area-weighted, not stair-cased.
constexpr int SUPERSAMPLE = 4;

// Linear RGB modulation of one point of the image (1: the part's own colour).
using Modulation = std::array<float, 3>;
using Shader = std::function<Modulation(double x_px, double y_px)>;

// Integer hash (a fixed mix of multiplies and shifts): the same layout on every platform, unlike
// the standard library's distributions.
uint32_t hash(uint32_t a, uint32_t b) {
  uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  h *= 0x297A2D39u;
  h ^= h >> 15;
  return h;
}

double wrap(double v) {
  return v - N * std::floor(v / N);
}

uint8_t linearToSrgb8(double c) {
  c = std::clamp(c, 0.0, 1.0);
  const double s = c <= 0.0031308 ? c * 12.92 : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
  return uint8_t(std::lround(s * 255.0));
}

// Staggered round holes (every other row shifted half a pitch: the hexagonal look of punched
// sheet) in a 16-pixel pitch; the rim of each hole is a little darker (the sheet's edge). Any
// 16x16 block holds one hole's worth (the blocks tile the plane under the holes' lattice), so
// mip 4 is flat; the holes sit a quarter pitch off the 8-pixel grid, so mip 3 still shows them
// and the fade runs from four pixels a pitch to two.
Modulation perforation(double x, double y) {
  constexpr double PITCH = 16.0, RADIUS = 5.5, RIM = 1.25, OFFSET_X = PITCH / 4;
  const int row = int(std::floor(y / PITCH));
  const double shift = OFFSET_X + ((row & 1) ? PITCH / 2 : 0.0);
  const double u = x - shift - PITCH * std::floor((x - shift) / PITCH);
  const double v = y - PITCH * row - PITCH / 2;
  const double du = std::min(u, PITCH - u);  // to the nearest hole centre along the row
  const double r = std::sqrt(du * du + v * v);
  const float m = r < RADIUS ? 0.03f : (r < RADIUS + RIM ? 0.7f : 1.0f);
  return {m, m, m};
}

// One SRAM macro of 128 pixels: a row-decoder column at its left, a sense-amplifier stripe at
// its foot, and the bit-cell array (word lines every 4 pixels, bit lines every 4) within a
// guard ring; the image holds 2x2 of them.
Modulation sramArray(double x, double y) {
  constexpr int MACRO = 128, DECODER = 16, SENSE = 16, GUARD = 2;
  const int mx = int(x) % MACRO, my = int(y) % MACRO;
  float m;
  if (mx < GUARD || my < GUARD) {
    m = 0.2f;  // the gap between macros
  } else if (mx < DECODER) {
    m = (my % 4 == 0) ? 0.8f : 1.6f;  // word-line drivers, one per row
  } else if (my >= MACRO - SENSE) {
    m = (mx % 8 < 2) ? 0.9f : 1.9f;  // sense amplifiers and column multiplexers
  } else {
    const bool wordLine = my % 4 == 0, bitLine = mx % 4 == 0;
    m = wordLine ? 0.35f : (bitLine ? 0.6f : 1.1f);
  }
  return {m, m, m};
}

// A board under green solder mask: buses of traces (lighter, copper under the mask) running
// along both axes on a 4-pixel pitch, and vias (a warm copper ring round a dark drill) at the
// ends of the short runs and scattered over the board.
struct PcbLayout {
  struct Bus {
    bool horizontal;
    int at, traces;  // first trace's centre line (px) and how many, 4 px apart
    int from, to;    // extent along the bus (px, wrapped); from == to: the whole tile
  };
  std::vector<Bus> buses;
  std::vector<std::array<double, 2>> vias;
  // The vias that reach into each CELL-pixel square (a via is tested only where it can be).
  static constexpr int CELL = 8;
  std::vector<std::vector<uint32_t>> viasInCell;
  // Pixels under a trace: traces are two pixels wide on whole pixels, so no sampling is needed.
  std::vector<uint8_t> trace;
};

const PcbLayout& pcbLayout() {
  static const PcbLayout layout = [] {
    PcbLayout l;
    constexpr int BUSES = 10;
    for (int i = 0; i < BUSES; ++i) {
      PcbLayout::Bus bus;
      bus.horizontal = i % 2 == 0;
      bus.at = int(hash(1, i) % 64u) * 4 + 2;
      bus.traces = 2 + int(hash(2, i) % 5u);
      const bool whole = hash(3, i) % 3u == 0;
      bus.from = int(hash(4, i) % 64u) * 4;
      bus.to = whole ? bus.from : int(wrap(bus.from + 64 + int(hash(5, i) % 24u) * 4));
      l.buses.push_back(bus);
      if (!whole) {
        for (int t = 0; t < bus.traces; ++t) {
          const double across = bus.at + 4.0 * t;
          for (int end : {bus.from, bus.to}) {
            l.vias.push_back(bus.horizontal ? std::array<double, 2>{double(end), across}
                                            : std::array<double, 2>{across, double(end)});
          }
        }
      }
    }
    constexpr int SCATTERED = 24;
    for (int i = 0; i < SCATTERED; ++i) {
      l.vias.push_back({double(hash(6, i) % 64u) * 4 + 2, double(hash(7, i) % 64u) * 4 + 2});
    }
    l.trace.assign(size_t(N) * N, 0);
    for (const PcbLayout::Bus& bus : l.buses) {
      const int length = bus.from == bus.to ? N : int(wrap(bus.to - bus.from)) + 1;
      for (int t = 0; t < bus.traces; ++t) {
        for (int side : {-1, 0}) {  // the two pixels either side of the centre line
          const int across = int(wrap(bus.at + 4 * t + side));
          for (int k = 0; k < length; ++k) {
            const int along = int(wrap(bus.from + k));
            const int x = bus.horizontal ? along : across, y = bus.horizontal ? across : along;
            l.trace[size_t(y) * N + size_t(x)] = 1;
          }
        }
      }
    }
    constexpr int CELLS = N / PcbLayout::CELL;
    l.viasInCell.resize(size_t(CELLS) * CELLS);
    for (uint32_t i = 0; i < l.vias.size(); ++i) {
      // A via's ring (radius 3 px) spans at most the cells within 3 px of its centre.
      for (int dy = -3; dy <= 3; dy += 3) {
        for (int dx = -3; dx <= 3; dx += 3) {
          const int cx = int(wrap(l.vias[i][0] + dx)) / PcbLayout::CELL;
          const int cy = int(wrap(l.vias[i][1] + dy)) / PcbLayout::CELL;
          auto& cell = l.viasInCell[size_t(cy) * CELLS + cx];
          if (std::find(cell.begin(), cell.end(), i) == cell.end()) cell.push_back(i);
        }
      }
    }
    return l;
  }();
  return layout;
}

Modulation pcb(double x, double y) {
  const PcbLayout& l = pcbLayout();
  constexpr double VIA_RING = 3.0, VIA_DRILL = 1.25;
  const int cell = int(y) / PcbLayout::CELL * (N / PcbLayout::CELL) + int(x) / PcbLayout::CELL;
  for (uint32_t i : l.viasInCell[size_t(cell)]) {
    const auto& v = l.vias[i];
    const double dx = std::remainder(x - v[0], double(N)), dy = std::remainder(y - v[1], double(N));
    const double r = std::sqrt(dx * dx + dy * dy);
    if (r < VIA_DRILL) return {0.15f, 0.15f, 0.15f};
    if (r < VIA_RING) return {2.3f, 1.7f, 1.2f};
  }
  if (l.trace[size_t(y) * N + size_t(x)]) return {1.5f, 1.5f, 1.5f};
  return {0.85f, 0.85f, 0.85f};
}

TextureImage render(const char* name, const Shader& shade) {
  std::vector<double> linear(size_t(N) * N * 3);
  std::array<double, 3> sum{0, 0, 0};
  for (int y = 0; y < N; ++y) {
    for (int x = 0; x < N; ++x) {
      std::array<double, 3> acc{0, 0, 0};
      for (int sy = 0; sy < SUPERSAMPLE; ++sy) {
        for (int sx = 0; sx < SUPERSAMPLE; ++sx) {
          const Modulation m = shade(x + (sx + 0.5) / SUPERSAMPLE, y + (sy + 0.5) / SUPERSAMPLE);
          for (int c = 0; c < 3; ++c) acc[size_t(c)] += m[size_t(c)];
        }
      }
      for (int c = 0; c < 3; ++c) {
        const double v = acc[size_t(c)] / (SUPERSAMPLE * SUPERSAMPLE);
        linear[(size_t(y) * N + x) * 3 + size_t(c)] = v;
        sum[size_t(c)] += v;
      }
    }
  }
  TextureImage image;
  image.name = name;
  image.width = image.height = PATTERN_SIZE_PX;
  image.rgba8.resize(size_t(N) * N * 4);
  for (size_t i = 0; i < size_t(N) * N; ++i) {
    for (size_t c = 0; c < 3; ++c) {
      // Scaled so that the channel's mean is MODULATION_MEAN: the part keeps its average colour.
      const double scale = MODULATION_MEAN * double(N) * N / sum[c];
      image.rgba8[i * 4 + c] = linearToSrgb8(linear[i * 3 + c] * scale);
    }
    image.rgba8[i * 4 + 3] = 255;
  }
  return image;
}

}  // namespace

TextureImage generatePattern(Pattern pattern) {
  switch (pattern) {
    case Pattern::Perforation:
      return render("procedural perforation", perforation);
    case Pattern::SramArray:
      return render("procedural SRAM array", sramArray);
    case Pattern::Pcb:
      return render("procedural PCB", pcb);
  }
  return {};
}

TextureImage patternImage(Pattern pattern) {
  static const std::array<TextureImage, PATTERN_COUNT> images = {
      generatePattern(Pattern::Perforation), generatePattern(Pattern::SramArray),
      generatePattern(Pattern::Pcb)};
  const uint32_t layer = uint32_t(pattern);
  return layer >= 1 && layer <= PATTERN_COUNT ? images[layer - 1] : TextureImage{};
}

uint32_t periodsPerTile(Pattern pattern) {
  switch (pattern) {
    case Pattern::Perforation:
      return 16;  // 16-pixel hole pitch
    case Pattern::SramArray:
      return 2;  // 128-pixel macros
    case Pattern::Pcb:
      return 64;  // 4-pixel trace pitch
  }
  return 1;
}

bool registerPatterns(TextureLibrary& library) {
  if (!library.images().empty()) return false;
  for (uint32_t layer = 1; layer <= PATTERN_COUNT; ++layer) {
    library.add(patternImage(Pattern(layer)));
  }
  return true;
}

Look withPattern(Look look, Pattern pattern, double period_m) {
  look.texture = uint32_t(pattern);
  look.textureTile_m = float(period_m * periodsPerTile(pattern));
  return look;
}

}  // namespace world
