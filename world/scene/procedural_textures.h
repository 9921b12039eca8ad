// Procedural textures for detail that geometry would make too costly: perforated bezels, SRAM
// arrays on dies, PCB traces. Generated on the CPU at startup (deterministic, no files), tileable,
// and registered first in every world's TextureLibrary, so their layers are fixed.
//
// Each is a modulation of the part's own colour, not a colour: the shader doubles the sampled
// value, and every channel's mean is MODULATION_MEAN (linear), so a part's average colour is its
// Look's. Every feature is a power-of-two number of texels across and aligned to that grid, so
// the mip level at which a feature is one texel wide is flat: with the shader's gradients doubled,
// a pattern fades to the part's own colour once its period is below two pixels (no moiré).
#pragma once

#include <cstdint>

#include "world/scene/render_list.h"
#include "world/scene/scene.h"

namespace world {

/// The procedural patterns; the value is the TextureLibrary layer each one takes.
enum class Pattern : uint32_t {
  Perforation = 1,  // staggered round holes in dark sheet steel (bezels, PSU fronts)
  SramArray = 2,    // 2x2 SRAM macros: bit-cell rows, row decoders, sense-amp stripes
  Pcb = 3,          // near-black board: traces under the solder mask, vias
};
inline constexpr uint32_t PATTERN_COUNT = 3;
/// Side of each image (pixels): small, the layer size of a world without imported models.
inline constexpr uint32_t PATTERN_SIZE_PX = 256;
/// Every channel's mean in linear light: the shader doubles the sample, so the mean is 1.
inline constexpr float MODULATION_MEAN = 0.5f;

/// Draws the pattern's image: RGBA8, sRGB-encoded modulation, alpha 255, PATTERN_SIZE_PX square.
TextureImage generatePattern(Pattern pattern);
/// The same, drawn once per process (every world and every rebuild registers them).
TextureImage patternImage(Pattern pattern);

/// How many periods of the pattern's defining feature one image holds along each side: holes
/// per row for Perforation, macros for SramArray, trace pitches for Pcb.
uint32_t periodsPerTile(Pattern pattern);

/// Adds every pattern to `library`, which must be empty (so that each takes its enum's layer);
/// returns false, leaving it unchanged, if it is not.
bool registerPatterns(TextureLibrary& library);

/// `look` with `pattern` laid on the part's faces, the feature repeating every `period_m`
/// metres (a hole pitch, an SRAM macro, a trace pitch). Only for meshes of flat axis-aligned
/// faces (the unit box): the texture coordinates come from the face's own plane.
Look withPattern(Look look, Pattern pattern, double period_m);

}  // namespace world
