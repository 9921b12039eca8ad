// What a part is made of, as the shader lights it: a small set of finishes (material classes)
// that every built-in part takes from what it is (world/builders/builders.h's palette), each a
// roughness and a metalness (and for silicon a thin-film tint), packed into gpu::Instance's
// params.y. The base colour stays the Look's: for a metal it is the reflectance at normal
// incidence, for the rest the diffuse albedo. A finish that pays for a tiling detail map takes it
// from world/scene/procedural_textures.h where the builder lays it on (perforation, SRAM, PCB).
#pragma once

#include <cstdint>

namespace world {

enum class Finish : uint8_t {
  Plain,          // a dielectric whose gloss follows Look::specular (overlays, imported models)
  AnodisedBlack,  // racks, bezels, switch and NIC bodies: satin black
  SheetSteel,     // bare or powder-coated sheet steel; perforated where a builder lays the map on
  BrushedAluminium,  // heatsinks, cladding, cold-plate covers
  Copper,            // copper and gold: bars, cold-plate bases, PHY bands (polished coloured metal)
  Nickel,            // nickel plating, solder and microbumps, stiffeners: satin grey metal
  Silicon,           // dies: a dark mirror with a thin-film tint that shifts with the view angle
  Pcb,               // boards and substrates under solder mask (with the PCB map)
  Concrete,          // slabs, raised-floor tiles, pads, roads: rough and dull
  InsulatedPipe,     // aluminium-clad pipe insulation: satin, rougher than bare aluminium
  Rubber,            // hoses and cable jackets: black, soft sheen
};

struct FinishSpec {
  float roughness;  // perceptual roughness 0..1 (GGX alpha = roughness^2)
  float metalness;  // 0 dielectric, 1 metal; quarters only (the packing's resolution)
  bool thinFilm;    // an interference tint on the reflection (silicon's oxide and passivation)
};

/// The table: roughness and metalness per finish (Plain's come from the look's specular).
FinishSpec finishSpec(Finish finish, float specular);

/// gpu::Instance params.y: 0 for no specular at all (a pure Lambert surface); otherwise
/// metalness in quarters (0..4) + 8 for a thin film, plus the roughness (0.02..0.99) as the
/// fraction. shaders/scene.frag unpacks it.
float packSurface(const FinishSpec& spec);

}  // namespace world
