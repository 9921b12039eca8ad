// Station builders: each turns catalog dimensions into prototypes of the scene. Every
// prototype's frame: origin at the bottom centre of its footprint, +Y up, +X width, +Z front.
// Every length inside the builders is in metres (Dimensions converts the catalog's mm and um);
// short local names (w, d, h, pitch) are metres unless they say otherwise.
#pragma once

#include <string>
#include <vector>

#include "world/builders/dimensions.h"
#include "world/builders/system_layout.h"
#include "world/scene/mesh_primitives.h"
#include "world/scene/scene.h"

namespace world {

/// What every builder needs: the scene it adds to, the primitive meshes, the sizes, and the
/// library the primitives are in (a builder adds the few meshes one prototype shapes, as a top
/// with holes).
struct BuildContext {
  Scene& scene;
  PrimitiveMeshes meshes;
  const Dimensions& dims;
  MeshLibrary& library;
};

// The palette: finishes picked as screen colours (the sRGB values in the comments) and
// stored linear, as the shader lights them. Dark, physical finishes for what things are made
// of; colour only for meaning (the compute green, coolant blue and red, the yellow raceway).
namespace looks {
// 34,35,46: graphite-indigo silicon, a dark mirror
inline constexpr Look SILICON =
    finished({0.0160f, 0.0168f, 0.0273f, 0.00f, 0.70f}, Finish::Silicon);
// 52,55,68: the interposer: silicon a shade lighter
inline constexpr Look SILICON_LIGHT =
    finished({0.0343f, 0.0382f, 0.0578f, 0.00f, 0.55f}, Finish::Silicon);
// 44,48,60: SM logic, slightly lighter than the bare die
inline constexpr Look LOGIC = finished({0.0252f, 0.0296f, 0.0452f, 0.00f, 0.35f}, Finish::Silicon);
// 118,185,0: NVIDIA green #76B900: the accent, glowing when busy
inline constexpr Look TENSOR = finished({0.1812f, 0.4851f, 0.0000f, 0.25f, 0.40f}, Finish::Silicon);
// 58,48,66: register files, a violet-tinted graphite
inline constexpr Look REGISTER =
    finished({0.0423f, 0.0296f, 0.0545f, 0.00f, 0.30f}, Finish::Silicon);
// 32,40,62: SRAM (L1, L2): a deeper blue-graphite
inline constexpr Look SRAM = finished({0.0144f, 0.0212f, 0.0482f, 0.00f, 0.45f}, Finish::Silicon);
// 50,58,54: FP32 lanes, a green-tinted graphite
inline constexpr Look LANE = finished({0.0319f, 0.0423f, 0.0369f, 0.00f, 0.30f}, Finish::Silicon);
// 66,60,46: warp schedulers, a warm graphite
inline constexpr Look SCHEDULER =
    finished({0.0545f, 0.0452f, 0.0273f, 0.00f, 0.30f}, Finish::Silicon);
// 150,118,52: HBM PHY bands: gold
inline constexpr Look PHY = finished({0.3050f, 0.1812f, 0.0343f, 0.00f, 0.60f}, Finish::Copper);
// 72,54,48: NVLink and I/O, a copper-tinted graphite
inline constexpr Look IO = finished({0.0648f, 0.0369f, 0.0296f, 0.00f, 0.40f}, Finish::Silicon);
// 40,42,50: DRAM dies: dark silicon
inline constexpr Look DRAM = finished({0.0212f, 0.0232f, 0.0319f, 0.00f, 0.60f}, Finish::Silicon);
// 92,78,52: the HBM base logic die: bronze, told apart from the DRAM
inline constexpr Look BASE_DIE =
    finished({0.1070f, 0.0762f, 0.0343f, 0.00f, 0.50f}, Finish::Silicon);
// 128,122,110: underfill between stacked dies, bright in a cross-section; no edge lines or
// contact darkening (a layer a few pixels thin would be all edge)
inline constexpr Look UNDERFILL{0.2159f, 0.1946f, 0.1559f, 0.00f, 0.20f, 0,
                                1.0f,    0.0f,    false,   0,     0,     0};
// 215,215,222: microbumps (copper pillar, solder cap) in a cut face: bright beads
inline constexpr Look MICROBUMP =
    finished({0.6795f, 0.6795f, 0.7305f, 0.00f, 0.80f}, Finish::Nickel);
// 194,132,89: copper (linear 0.55/0.23/0.10)
inline constexpr Look COPPER = finished({0.5395f, 0.2307f, 0.0999f, 0.00f, 0.60f}, Finish::Copper);
// 150,96,62: the lifted cold plate's copper base: darker and less glossy than COPPER, so its
// broad faces read as copper and do not wash out under the key light (visual brief "tray")
inline constexpr Look COLD_PLATE_COPPER =
    finished({0.3050f, 0.1170f, 0.0482f, 0.00f, 0.35f}, Finish::Copper);
// 170,170,176: microbumps and solder: bright metal beads
inline constexpr Look SOLDER = finished({0.4020f, 0.4020f, 0.4342f, 0.00f, 0.80f}, Finish::Nickel);
// 22,30,26: package substrate: near-black green
inline constexpr Look SUBSTRATE = finished({0.0080f, 0.0130f, 0.0103f, 0.00f, 0.25f}, Finish::Pcb);
// 16,26,20: boards: near-black green PCB
inline constexpr Look PCB = finished({0.0052f, 0.0103f, 0.0070f, 0.00f, 0.20f}, Finish::Pcb);
// 104,107,112: plain steel
inline constexpr Look STEEL =
    finished({0.1384f, 0.1470f, 0.1620f, 0.00f, 0.40f}, Finish::SheetSteel);
// 26,28,31: black anodised steel: racks, bezels, switches
inline constexpr Look DARK_STEEL =
    finished({0.0103f, 0.0116f, 0.0137f, 0.00f, 0.25f}, Finish::AnodisedBlack);
// 150,153,158: brushed aluminium
inline constexpr Look ALUMINIUM =
    finished({0.3050f, 0.3185f, 0.3419f, 0.00f, 0.45f}, Finish::BrushedAluminium);
// 112,114,118: nickel-plated cold plates
inline constexpr Look NICKEL = finished({0.1620f, 0.1683f, 0.1812f, 0.00f, 0.35f}, Finish::Nickel);
// 40,110,230: coolant supply: blue
inline constexpr Look COOLANT_SUPPLY{0.0212f, 0.1559f, 0.7913f, 0.00f, 0.50f};
// 220,60,40: coolant return: red
inline constexpr Look COOLANT_RETURN{0.7157f, 0.0452f, 0.0212f, 0.00f, 0.50f};
// 30,31,34: NICs and cages' bodies: black
inline constexpr Look NIC =
    finished({0.0130f, 0.0137f, 0.0160f, 0.00f, 0.35f}, Finish::AnodisedBlack);
// 58,60,64: a package's satin nickel stiffener ring (dim, so the silicon stays the accent)
inline constexpr Look STIFFENER =
    finished({0.0423f, 0.0452f, 0.0513f, 0.00f, 0.30f}, Finish::Nickel);
// 92,70,52: multilayer ceramic capacitors' bodies
inline constexpr Look CERAMIC{0.1070f, 0.0612f, 0.0343f, 0.00f, 0.45f};
// 24,24,26: glossy black twinax jackets: the NVLink spine's looms
inline constexpr Look CABLE_JACKET =
    finished({0.0091f, 0.0091f, 0.0103f, 0.00f, 0.50f}, Finish::Rubber);
// 30,30,32: black EPDM coolant hoses (the fittings and quick disconnects carry the blue and red)
inline constexpr Look HOSE = finished({0.0130f, 0.0130f, 0.0144f, 0.00f, 0.40f}, Finish::Rubber);
// 214,176,32: a scale-out fibre cable: yellow single-mode jacket, at least a pixel wide
inline constexpr Look FIBRE_CABLE{0.6724f, 0.4342f, 0.0144f, 0.10f, 0.20f, 0,    1.0f, 0.0f,
                                  false,   0,       0,       0,     false, 0.0f, 1.0f};
// 0,104,181: Intel classic blue #0068B5: the AMX TMUL (NVIDIA green is NVIDIA's parts and busy)
inline constexpr Look INTEL_BLUE =
    finished({0.0000f, 0.1384f, 0.4621f, 0.20f, 0.40f}, Finish::Silicon);
// 0,199,253: Intel energy blue #00C7FD: the TMUL's multiply-accumulate cells, glowing
inline constexpr Look INTEL_ENERGY_BLUE{0.0000f, 0.5711f, 0.9823f, 0.50f, 0.20f};
// 70,120,176: AMX tile register rows: a paler, duller Intel blue than the TMUL they feed
inline constexpr Look AMX_TILE =
    finished({0.0612f, 0.1878f, 0.4342f, 0.05f, 0.35f}, Finish::Silicon);
// 30,52,88: AVX-512 vector units: a deep blue-graphite, Intel's blue darkened
inline constexpr Look AVX512 = finished({0.0130f, 0.0343f, 0.0976f, 0.00f, 0.35f}, Finish::Silicon);
// 168,172,176: insulated pipe: aluminium cladding, satin (the water's colour on its bands)
inline constexpr Look INSULATED_PIPE =
    finished({0.3916f, 0.4125f, 0.4342f, 0.00f, 0.35f}, Finish::InsulatedPipe);
// 118,185,0: status LEDs: the compute green, emitted
inline constexpr Look LED{0.1812f, 0.4851f, 0.0000f, 1.00f, 0.00f};
// 78,78,76: concrete
inline constexpr Look CONCRETE =
    finished({0.0762f, 0.0762f, 0.0723f, 0.00f, 0.10f}, Finish::Concrete);
// 58,60,64: the hall's slab
inline constexpr Look FLOOR = finished({0.0423f, 0.0452f, 0.0513f, 0.00f, 0.20f}, Finish::Concrete);
// 28,36,30: fields at dusk
inline constexpr Look GRASS{0.0116f, 0.0176f, 0.0130f, 0.00f, 0.05f};
// 24,24,27: asphalt
inline constexpr Look ASPHALT =
    finished({0.0091f, 0.0091f, 0.0110f, 0.00f, 0.10f}, Finish::Concrete);
// 196,156,24: the yellow fibre raceway
inline constexpr Look CABLE_TRAY{0.5520f, 0.3325f, 0.0091f, 0.00f, 0.30f};
// 214,176,32: fibre bundles: yellow jackets
inline constexpr Look FIBER{0.6724f, 0.4342f, 0.0144f, 0.10f, 0.20f};
// 58,42,32: dark walnut (the gallery table)
inline constexpr Look WOOD{0.0423f, 0.0232f, 0.0144f, 0.00f, 0.20f};
// 196,199,204: white coated steel: CDUs, facility buildings
inline constexpr Look WHITE{0.5520f, 0.5711f, 0.6038f, 0.00f, 0.30f};
// 118,185,0: a tray's LED line: the compute green, emitted; an overlay lights it in its colour
inline constexpr Look LED_LINE{0.1812f, 0.4851f, 0.0000f, 1.00f, 0.00f, 0,    1.0f, 0.0f,
                               false,   0,       0,       0,     true,  0.0f, 1.0f};
// 205,220,240: ceiling light strips and lamps: cool white, emitted
inline constexpr Look LIGHT_STRIP{0.6105f, 0.7157f, 0.8714f, 1.00f, 0.00f};
// 255,186,104: lit windows at dusk: warm, emitted
inline constexpr Look WINDOW{1.0000f, 0.4910f, 0.1384f, 1.00f, 0.00f};
// 20,21,25: hot-aisle containment panels: black, with a sheen
inline constexpr Look CONTAINMENT{0.0070f, 0.0075f, 0.0097f, 0.00f, 0.50f};
// 230,84,36: the hot aisle's marker line: the return red-orange, emitted faintly
inline constexpr Look HOT_AISLE{0.7913f, 0.0887f, 0.0176f, 0.35f, 0.00f};
// 132,138,142: overhead busways and their tap-off boxes: grey powder-coated steel (busway
// housings are finished in ANSI 49 grey), a shade lighter than the racks so the power runs read
inline constexpr Look BUSWAY =
    finished({0.2307f, 0.2542f, 0.2705f, 0.00f, 0.35f}, Finish::SheetSteel);
// 64,62,58: gravel yards
inline constexpr Look GRAVEL{0.0513f, 0.0482f, 0.0423f, 0.00f, 0.05f};
// 38,40,28: fields around the site at dusk
inline constexpr Look FIELD{0.0194f, 0.0212f, 0.0116f, 0.00f, 0.03f};
// 34,36,42: interior walls and roofs: dark
inline constexpr Look WALL_DARK{0.0160f, 0.0176f, 0.0232f, 0.00f, 0.20f};
// 230,40,30: aviation warning lights on towers, emitted
inline constexpr Look RED_LIGHT{0.7913f, 0.0212f, 0.0130f, 1.00f, 0.00f};
}  // namespace looks

/// Built-in parts an asset override file may replace by a glTF model (Prototype::component):
/// the model is scaled to the part's real size. Hero parts (the open tray, the hero rack) stay
/// built-in: the stations inside them need their detail.
struct ComponentInfo {
  const char* key;
  const char* description;
};
namespace component {
inline constexpr char COMPUTE_TRAY[] = "nvl72.compute_tray";
inline constexpr char SWITCH_TRAY[] = "nvl72.switch_tray";
inline constexpr char POWER_SHELF[] = "nvl72.power_shelf";
inline constexpr char RACK[] = "nvl72.rack";
inline constexpr char LEAF_SWITCH[] = "network.leaf_switch";
inline constexpr char NETWORK_RACK[] = "network.rack";
inline constexpr char CDU[] = "cooling.cdu";
inline constexpr char DRY_COOLER[] = "plant.dry_cooler";
inline constexpr char PUMP[] = "plant.pump";
inline constexpr char COOLING_TOWER[] = "plant.cooling_tower";
inline constexpr char TRANSFORMER[] = "power.transformer";
}  // namespace component
inline constexpr ComponentInfo COMPONENTS[] = {
    {component::COMPUTE_TRAY, "NVL72 compute tray (every tray but the hero's open one)"},
    {component::SWITCH_TRAY, "NVL72 NVLink switch tray"},
    {component::POWER_SHELF, "NVL72 power shelf"},
    {component::RACK, "GB200 NVL72 rack, whole (every rack but the hero rack)"},
    {component::LEAF_SWITCH, "InfiniBand leaf/spine switch (1U)"},
    {component::NETWORK_RACK, "network rack of leaf or spine switches, whole"},
    {component::CDU, "coolant distribution unit of a row"},
    {component::DRY_COOLER, "dry cooler of the cooling plant"},
    {component::PUMP, "facility water pump"},
    {component::COOLING_TOWER, "cooling tower"},
    {component::TRANSFORMER, "substation power transformer"},
};
/// Every key of COMPONENTS, in order.
std::vector<std::string> componentKeys();

/// A cylinder part from `from` to `to` (metres) of `diameter`: pipes, tubes, cables.
Part tubePart(MeshId mesh, const glm::dvec3& from, const glm::dvec3& to, double diameter, Look look,
              std::string name);
/// A rectangle across a prototype's XZ plane (metres): what stands on a box and hides its top.
struct Footprint {
  glm::dvec2 min, max;
};
/// The footprint `size` (x, z) centred at `center` (x, z).
Footprint footprintAt(const glm::dvec2& center, const glm::dvec2& size);
/// A box of `look` whose top is drawn only where none of `covers` stands on it: its sides and its
/// top less those footprints (two parts of one name; no bottom, nothing looks at it from below).
/// A software rasterizer shades every 4x4 block a triangle touches, hidden or not: a substrate's
/// top under its interposer cost a frame's worth of fragments at the hbm station.
void addBoxUnder(BuildContext& ctx, Prototype& p, const glm::dvec3& center, const glm::dvec3& size,
                 Look look, const std::string& name, const std::vector<Footprint>& covers);
/// The LOD record every prototype gets: a proxy box in `look` that opens at `openPixels`.
LodDesc proxyLod(Look look, float openPixels = 40.0f);

// --- chips (builders_chip.cpp) ---
/// One SM of `width` x `depth` metres: 4 sub-partitions (schedulers, register files, FP32
/// lanes, a tensor core each) around L1/shared memory.
PrototypeId buildSm(BuildContext& ctx, double width_m, double depth_m, double thickness_m);
/// A GPU die from the catalog section `chip` ("gh100" or "gb100"): GPCs of SMs, L2, HBM PHYs
/// and NVLink at the edges. `detailed` = SMs as SM prototypes, else one block per GPC.
PrototypeId buildDie(BuildContext& ctx, const std::string& chip, bool detailed);
/// Die width and depth (metres) of a catalog chip, from its area and aspect ratio.
glm::dvec2 dieSize_m(const Dimensions& dims, const std::string& chip);
/// The hbm station's drawing exaggerates the stack's heights this many times (visual brief
/// "hbm": a real stack is 11 x 11 x 0.72 mm, a tile seen edge on), and says so on screen.
inline constexpr double HBM_CUTAWAY_HEIGHT_SCALE = 4.0;
/// An HBM3e stack: base die and DRAM dies at true scale; `cutaway`: the hbm station's drawing
/// of it, heights x HBM_CUTAWAY_HEIGHT_SCALE, one quadrant (+X, +Z) cut away to show bond
/// layers with microbumps and the TSV columns in the two cut faces.
PrototypeId buildHbmStack(BuildContext& ctx, bool cutaway);

struct PackageDesc {
  bool hero = false;  // detailed dies; HBM stack 0 has the cutaway drawing as its stand-in
  // A hero under a liquid cold plate (a GB200 tray; an HGX's GPUs wear air heatsinks): the
  // plate's exploded-view drawing, lifted off it (COLD_PLATE_DRAWING), stands in above it.
  bool coldPlate = true;
};
/// The stand-in drawings of a hero B200 package (ChildInstance::standInDrawing, the child's
/// name too): the hbm station's cut-open stack 0, the package station's lifted cold plate.
inline constexpr const char* HBM_CUTAWAY_DRAWING = "cutaway_hbm0";
inline constexpr const char* COLD_PLATE_DRAWING = "cold_plate_lifted";
/// How far the package station's drawing lifts the cold plate off the dies: a layout choice,
/// high enough that a 3/4 view from above sees the dies between plate and package.
inline constexpr double COLD_PLATE_LIFT_M = 0.04;
/// A B200 cold plate's supply and return fittings stand this share of its width either side of
/// its centre line (a layout choice; the tray's plates and the lifted drawing alike).
inline constexpr double B200_PLATE_FITTING_X = 0.3;
/// A B200 package: substrate, CoWoS-L interposer, 2 GB100 dies, 8 HBM3e stacks.
/// A package's dressing on its substrate (`substrate`: width, thickness, depth in metres): the
/// stiffener ring round its edge and rows of 0402 decoupling capacitors along the interposer's
/// (`interposer`: width, depth) edges, where they fit.
void addPackageDressing(BuildContext& ctx, Prototype& p, const glm::dvec3& substrate,
                        const glm::dvec2& interposer);
PrototypeId buildB200Package(BuildContext& ctx, const PackageDesc& desc);
/// A B200 cold plate drawn on its own, its underside at the origin: the contact pad (`contact`:
/// width, depth in metres, the dies' and HBM stacks' area it seats on), the copper base and
/// nickel cover, the supply and return fittings with tube stubs towards the rear (-Z)
/// (builders_cooling.cpp).
PrototypeId buildLiftedColdPlate(BuildContext& ctx, const glm::dvec2& contact);
/// An H100 package: substrate, interposer, one detailed GH100 die, 6 HBM stacks.
PrototypeId buildH100Package(BuildContext& ctx);
/// A Grace CPU package with its LPDDR5X.
PrototypeId buildGracePackage(BuildContext& ctx);

// --- the compute tray (builders_tray.cpp) ---
/// The projected bounding radius (px) above which a tray or shelf opens: at the row's framing
/// nine racks of open trays cost 150,000 triangles for detail the eye cannot see
/// (docs/performance.md, "Station path").
inline constexpr float TRAY_OPEN_PX = 100.0f;
/// A tray's LED line drawn on a far proxy (a tray from the row, a rack from the hall) stands for
/// its glow: 8 mm, about a pixel at the row's framing; still a fifth of the tray's 44 mm face.
inline constexpr double LED_LINE_FAR_H_M = 0.008;
struct TrayDesc {
  bool hero = false;  // open lid, full interior, detailed first GPU; its fibres unplugged
};
/// A 1U compute tray: its front (E1.S bays, grille, NIC and DPU cages, LED line, scale-out
/// fibres) and, for the hero, the interior: 2 GB200 superchips (Grace + 2 Blackwell) under cold
/// plates with their tubes, drives, NICs, DPUs, the power board and the spine connectors.
PrototypeId buildComputeTray(BuildContext& ctx, const TrayDesc& desc);
/// A compute tray's LED line, `height_m` tall, on the tray front whose foot centre is `foot`.
Part trayLedLine(MeshId mesh, double trayW, double trayH, const glm::dvec3& foot, double height_m);
/// A compute tray's scale-out fibres: a transceiver in each ConnectX-7 cage and its fibre bending
/// down and right to the rack's side, in the tray's frame with its origin on the front face
/// (place it at the tray's slot; the rack's fibre bundle takes them up). Opens only near.
PrototypeId buildScaleOutFibres(BuildContext& ctx);
/// Where a tray's scale-out fibres meet the rack's fibre bundle: x (metres) right of its centre.
double trayFibreSideX_m(double trayW);
/// NVLink spine cartridge `i`'s centre x and width (metres) behind a tray `trayW` wide.
glm::dvec2 spineCartridgeX_m(const Dimensions& dims, double trayW, int i);

// --- systems (builders_system.cpp) ---
/// A steel 1U chassis `w` x `h` x `d`: pan, side walls, front panel in `front`, and a lid.
void addChassis(Prototype& p, const BuildContext& ctx, double w, double h, double d, bool lid,
                Look front);
/// A row of `cages` OSFP cages centred on its origin, facing +Z (a switch's or NIC's front).
PrototypeId buildOsfpCageRow(BuildContext& ctx, int cages);
/// A 1U NVLink switch tray with 2 switch chips.
PrototypeId buildSwitchTray(BuildContext& ctx);
/// A 1U power shelf.
PrototypeId buildPowerShelf(BuildContext& ctx);

struct RackDesc {
  bool hero = false;       // holds the hero tray, pulled out for service
  int heroTrayIndex = 9;   // which compute tray (0 = top)
  double pullOut_m = 0.7;  // how far the hero tray slides out of the front
};
/// A GB200 NVL72 rack: compute trays, NVLink switch trays, power shelves, copper spine at the
/// back, coolant manifolds.
PrototypeId buildNvl72Rack(BuildContext& ctx, const RackDesc& desc);
/// Drawing sizes of a cabinet's frame (not catalog figures: the posts and panels of any 19" rack).
inline constexpr double CABINET_POST_M = 0.04;
inline constexpr double CABINET_PANEL_M = 0.01;
/// A cabinet's frame: four corner posts, side panels, base and top of `cap_m`, in black steel,
/// for a cabinet of `size` (metres) standing on the prototype's origin.
void addCabinetFrame(Prototype& p, MeshId box, const glm::dvec3& size, double cap_m);
/// A row's overhead cable tray (drawing sizes, not catalog figures): its thickness, and where it
/// runs across the row (the row frame's z: over the fronts).
inline constexpr double ROW_TRAY_THICKNESS_M = 0.1;
inline constexpr double ROW_TRAY_Z_M = 0.25;
/// A network rack of leaf switches.
PrototypeId buildNetworkRack(BuildContext& ctx, int switchCount);
/// A network rack holding the switches named `switches` (top down), at 2U pitch while they fit,
/// else 1U; `title` names the rack. Its fibre bundle rises from the stack through a brush
/// grommet in the roof to `riserTop_m` above the floor: the underside of the tray it feeds.
PrototypeId buildNetworkRack(BuildContext& ctx, const std::vector<std::string>& switches,
                             const std::string& title, double riserTop_m);
/// Where a network rack's fibre riser stands in its frame (x, z): its front right corner.
glm::dvec2 networkRiser_m(const Dimensions& dims);
/// The underside of a row's overhead cable tray, above the floor.
double rowTrayUnderside_m(const Dimensions& dims);
/// The fabric's trunk level: one tray level above the rows' trays (the rails' foot).
double fabricTrunkLevel_m(const Dimensions& dims);
/// A ladder cable tray from `from` to `to` (its centre line at the rails' foot, level and along
/// X or Z), `width` wide: two galvanised steel side rails, rungs at the catalog's pitch, the
/// yellow-jacketed fibre laid on them.
/// Its parts are named `name` ("... side rail", "... rung", "... fibre").
void addLadderTray(Prototype& p, const Dimensions& dims, MeshId box, const glm::dvec3& from,
                   const glm::dvec3& to, double width, const std::string& name);
/// Switch racks a stack of `switchCount` switches needs.
int networkRacksFor(const Dimensions& dims, int switchCount);
/// An in-row coolant distribution unit.
PrototypeId buildCdu(BuildContext& ctx);

struct RowDesc {
  int rackCount = 8;  // NVLink domains in the row (NVL72 racks, or HGX systems)
  bool hero = false;  // first rack is the hero rack
  int heroRackIndex = 0;
  SystemLayout system;  // what a rack is, and the fabric and CDU counts
};
/// A row: racks (or cabinets of HGX systems), its leaf rack(s), CDUs, overhead cable tray and
/// coolant pipes.
PrototypeId buildRow(BuildContext& ctx, const RowDesc& desc);
/// Row length along X (metres) for `rackCount` NVLink domains of `system`.
double rowLength_m(const Dimensions& dims, int rackCount, const SystemLayout& system = {});
/// Leaf switch names of a row's leaf racks: "leaf<j>_rail<r>" (the engine's rail of leaf j).
std::vector<std::string> leafSwitchNames(const Dimensions& dims, const SystemLayout& system);

// --- 8-GPU HGX systems (builders_hgx.cpp) ---
/// The HGX baseboard: SXM modules with their packages ("baseboard0_gpu<k>") and air heatsinks,
/// the NVSwitch chips behind them. `hero`: GPU 0's heatsink off (and a detailed B200 package).
PrototypeId buildHgxBaseboard(BuildContext& ctx, const SystemLayout& layout, bool hero);
/// A DGX/HGX chassis of dimensions.<system id>: the GPU tray with the baseboard
/// ("compute_tray0"), the host board, fans, power supplies, OSFP cages, a vented bezel with
/// its LED line. `hero`: the lid off.
PrototypeId buildHgxSystem(BuildContext& ctx, const SystemLayout& layout, bool hero);
/// The systems' bezels stand this far behind their cabinet's front (a drawing size: room for the
/// front door's depth).
inline constexpr double HGX_FRONT_INSET_M = 0.03;
/// The 48U cabinet's frame (the systems are the row's own instances, one NVLink domain each) and
/// blanking panels over the units no system fills.
PrototypeId buildHgxCabinet(BuildContext& ctx, const SystemLayout& layout);
/// Heights (metres) of the cabinet's system slots, the top one first.
std::vector<double> hgxSlotHeights_m(const Dimensions& dims, const SystemLayout& layout);

// --- facility (builders_facility.cpp) ---
struct HallDesc {
  int rackCount = 128;  // NVLink domains in the hall (128 NVL72 racks: 16 scalable units)
  bool hero = false;    // holds the hero row and the gallery table
  int spineRacks = 4;   // fabric without engine counts: spine switch racks at the back
  SystemLayout system;  // what a rack is, the fabric's counts
  // The hall's share of the modelled fabric's spine and core switches (system.fabric): hall 0
  // holds all of them; -1: the catalog default (spineRacks).
  int spineSwitches = -1, coreSwitches = -1;
};
/// The switch racks of a hall's fabric: the names of the switches in each rack, by tier, laid
/// out in lines of `perLine` racks across the hall (depth_m along Z, metres).
struct HallFabric {
  std::vector<std::vector<std::string>> spineRacks, coreRacks;
  int perLine = 1;
  double depth_m = 0;
  int racksTotal() const;
};
/// The fabric racks of a hall whose rows are `rowLen_m` long.
HallFabric hallFabric(const Dimensions& dims, const HallDesc& desc, double rowLen_m);
/// Places `fabric`'s racks ("spine_rack<i>", "core_rack<i>") into `into`, centred on its Z,
/// with a ladder tray over each line of racks taking their risers, and the collecting tray along
/// Z at `trunkX_m` that joins the lines' trays and leaves the racks' +Z edge for the rows.
void placeSwitchRacks(BuildContext& ctx, const HallFabric& fabric, double rowLen_m, double trunkX_m,
                      Prototype& into);
/// Names of the children of a hall, for station paths.
inline constexpr const char* HALL_FABRIC = "fabric";
inline constexpr const char* HALL_GALLERY = "gallery";
/// A data hall: slab, walls, rows of racks (odd rows turned to share hot aisles), fabric racks,
/// overhead cable trunks, and (hero) the gallery table.
PrototypeId buildHall(BuildContext& ctx, const HallDesc& desc);

struct CoolingPlantDesc {
  int dryCoolers = 8;
  int pumps = 4;
  int coolingTowers = 2;
};
/// Cooling yard: dry coolers, pumps, header pipes, cooling towers.
PrototypeId buildCoolingPlant(BuildContext& ctx, const CoolingPlantDesc& desc);
/// A box part turned by `angle_rad` about the X axis through its centre.
Part tiltedBoxPart(MeshId mesh, const glm::dvec3& center, const glm::dvec3& size, double angle_rad,
                   Look look, std::string name);
/// A fence of posts and two rails round a w x d rectangle (metres) centred at `center` (its base).
void addFence(Prototype& p, MeshId box, const glm::dvec3& center, double w, double d,
              double height);
/// Lamp posts every 30 m on the ground from `from` to `to` (metres), their heads at `height`.
void addLampPosts(Prototype& p, MeshId box, const glm::dvec3& from, const glm::dvec3& to,
                  double height);

// --- campus (builders_campus.cpp) ---
/// A substation: the line's dead-end gantry, breakers and busbars, transformers, switchgear,
/// fence and lights.
PrototypeId buildSubstation(BuildContext& ctx);
/// Standby gensets for a hall drawing `hallPower_W` at full load: the load over one genset's
/// standby rating (dimensions generator.standby_rating_W), rounded up, plus the redundant ones.
int standbyGensets(const Dimensions& dims, double hallPower_W);
/// Names of the campus root's children, for station paths and tests (i: the hall's index).
inline constexpr const char* CAMPUS_SUBSTATION = "substation";
inline constexpr const char* CAMPUS_LINE = "transmission";
std::string campusBuildingName(int hall);    // the shell round hall i: roof, facades, parking
std::string campusGensetYardName(int hall);  // hall i's generator yard

struct CampusDesc {
  int hallCount = 4;
  HallDesc hall;
  CoolingPlantDesc cooling;
  /// Racks on the whole campus, e.g. the simulation's count. 0: hallCount x hall.rackCount.
  /// Otherwise halls of hall.rackCount are filled in order (the last one holds the rest) and
  /// hallCount follows from it.
  int totalRacks = 0;
};
/// The campus of `totalRacks` NVLink domains of `system`: halls of 128 cabinets (16 scalable
/// units of racks_per_su), the fabric's counts in the halls.
CampusDesc campusOf(const SystemLayout& system, int totalRacks);
/// Racks in each hall of `desc`, in order (hero first).
std::vector<int> hallRackCounts(const CampusDesc& desc);
/// The campus: ground, roads, halls with their cooling yards, substation. Hall 0 is the hero.
PrototypeId buildCampus(BuildContext& ctx, const CampusDesc& desc);

// --- chapter-5 gallery (builders_gallery.cpp) ---
/// A TPU v5e board: 4 chips; the first chip's die shows its MXUs as 128x128 systolic arrays.
PrototypeId buildTpuBoard(BuildContext& ctx);
/// A Sapphire Rapids Xeon: 4 compute tiles of cores, each core with its AMX tile registers.
PrototypeId buildXeonPackage(BuildContext& ctx);
/// The gallery table holding the TPU board, the Xeon and an H100 package.
PrototypeId buildGalleryTable(BuildContext& ctx);

}  // namespace world
