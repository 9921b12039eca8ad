// Liquid cooling on the silicon: the hero package's cold plate, drawn lifted straight up off it
// (the package station's exploded view). Sizes from the catalog's "dimensions" section
// (b200_cold_plate, estimates read from GB200 compute tray photographs).
#include <array>

#include "world/builders/builders.h"

namespace world {
namespace {

using glm::dvec3;

// How far the supply and return stubs run towards the tray's rear manifold (-Z) before the
// drawing ends them: long enough to read as the loop's tubes, short of the package's studio.
constexpr double TUBE_STUB_M = 0.03;
// The fittings' inset from the plate's rear edge: a layout choice (their spacing across it is the
// tray's plates', B200_PLATE_FITTING_X).
constexpr double FITTING_INSET_M = 0.012;

}  // namespace

PrototypeId buildLiftedColdPlate(BuildContext& ctx, const glm::dvec2& contact) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box, cylinder = ctx.meshes.cylinder;
  const double w = dims.meters("b200_cold_plate.width");
  const double d = dims.meters("b200_cold_plate.depth");
  const double t = dims.meters("compute_tray.cold_plate_thickness");
  const double cover = dims.meters("b200_cold_plate.cover_thickness");
  const double padH = dims.meters("b200_cold_plate.contact_pad_height");
  const double fitD = dims.meters("b200_cold_plate.fitting_diameter");
  const double fitH = dims.meters("b200_cold_plate.fitting_height");
  const double tubeD = dims.meters("b200_cold_plate.tube_diameter");

  Prototype p;
  p.name = "B200 cold plate (lifted)";
  p.lod = proxyLod(looks::COLD_PLATE_COPPER, 30.0f);
  // Underside first: the machined contact pad that seats on the dies and HBM stacks, then the
  // copper base over the micro-fin channels and the nickel-plated cover with the fittings.
  p.parts.push_back(boxPart(box, dvec3(0, padH / 2, 0), dvec3(contact.x, padH, contact.y),
                            looks::NICKEL, "cold plate contact pad"));
  const double base = t - cover;
  p.parts.push_back(boxPart(box, dvec3(0, padH + base / 2, 0), dvec3(w, base, d),
                            looks::COLD_PLATE_COPPER, "cold plate copper base"));
  const double top = padH + t;
  p.parts.push_back(boxPart(box, dvec3(0, top - cover / 2, 0), dvec3(w, cover, d), looks::NICKEL,
                            "cold plate cover"));
  // The supply (blue) and return (red) elbow fittings near the rear edge, each with its tube
  // stub leaving it flat towards the rear manifold (-Z), as the tray's tubes run.
  const double fz = -d / 2 + FITTING_INSET_M;
  const std::array<Look, 2> coolant = {looks::COOLANT_SUPPLY, looks::COOLANT_RETURN};
  for (int k = 0; k < 2; ++k) {
    const double x = (k == 0 ? -1 : 1) * B200_PLATE_FITTING_X * w;
    const std::string which = k == 0 ? "supply" : "return";
    p.parts.push_back(tubePart(cylinder, dvec3(x, top, fz), dvec3(x, top + fitH, fz), fitD,
                               looks::NICKEL, "cold plate " + which + " fitting"));
    const double y = top + fitH - tubeD / 2;  // the tube's axis, in the elbow's head
    p.parts.push_back(tubePart(cylinder, dvec3(x, y, fz), dvec3(x, y, -d / 2 - TUBE_STUB_M), tubeD,
                               coolant[k], "coolant " + which + " tube"));
  }
  return ctx.scene.add(std::move(p));
}

}  // namespace world
