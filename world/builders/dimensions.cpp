#include "world/builders/dimensions.h"

#include <cmath>
#include <vector>

namespace world {
namespace {

enum class Kind { Length, Area, Number };

struct Required {
  const char* key;
  Kind kind;
};

// Every figure a builder reads. A key missing here and used by a builder reads as 0.
const std::vector<Required>& requiredFigures() {
  static const std::vector<Required> figures = {
      {"rack_unit.height", Kind::Length},
      {"gh100.die_area", Kind::Area},
      {"gh100.die_aspect_w_over_h", Kind::Number},
      {"gh100.die_thickness", Kind::Length},
      {"gh100.gpc_count", Kind::Number},
      {"gh100.tpc_per_gpc", Kind::Number},
      {"gh100.sm_per_tpc", Kind::Number},
      {"gh100.hbm_phy_count", Kind::Number},
      {"gh100.nvlink_port_count", Kind::Number},
      {"gh100.phy_band_fraction", Kind::Number},
      {"gh100.io_band_fraction", Kind::Number},
      {"gh100.l2_band_fraction", Kind::Number},
      {"gb100.die_area", Kind::Area},
      {"gb100.die_aspect_w_over_h", Kind::Number},
      {"gb100.die_thickness", Kind::Length},
      {"gb100.gpc_count", Kind::Number},
      {"gb100.tpc_per_gpc", Kind::Number},
      {"gb100.sm_per_tpc", Kind::Number},
      {"gb100.hbm_phy_count", Kind::Number},
      {"gb100.nvlink_port_count", Kind::Number},
      {"gb100.phy_band_fraction", Kind::Number},
      {"gb100.io_band_fraction", Kind::Number},
      {"gb100.l2_band_fraction", Kind::Number},
      {"gb100.nv_hbi_gap", Kind::Length},
      {"sm.sub_partitions", Kind::Number},
      {"sm.fp32_lanes_per_sub_partition", Kind::Number},
      {"sm.tensor_cores_per_sub_partition", Kind::Number},
      {"sm.register_file_per_sm", Kind::Number},
      {"sm.l1_shared_per_sm", Kind::Number},
      {"sm.l1_height_fraction", Kind::Number},
      {"hbm3e_stack.width", Kind::Length},
      {"hbm3e_stack.depth", Kind::Length},
      {"hbm3e_stack.height", Kind::Length},
      {"hbm3e_stack.dram_die_count", Kind::Number},
      {"hbm3e_stack.base_die_thickness", Kind::Length},
      {"hbm3e_stack.bond_gap", Kind::Length},
      {"hbm3e_stack.microbump_pitch", Kind::Length},
      {"hbm3e_stack.tsv_diameter", Kind::Length},
      {"b200_package.interposer_width", Kind::Length},
      {"b200_package.interposer_depth", Kind::Length},
      {"b200_package.interposer_thickness", Kind::Length},
      {"b200_package.substrate_width", Kind::Length},
      {"b200_package.substrate_depth", Kind::Length},
      {"b200_package.substrate_thickness", Kind::Length},
      {"b200_package.dies", Kind::Number},
      {"b200_package.hbm_stacks", Kind::Number},
      {"b200_cold_plate.width", Kind::Length},
      {"b200_cold_plate.depth", Kind::Length},
      {"b200_cold_plate.cover_thickness", Kind::Length},
      {"b200_cold_plate.contact_pad_height", Kind::Length},
      {"b200_cold_plate.fitting_diameter", Kind::Length},
      {"b200_cold_plate.fitting_height", Kind::Length},
      {"b200_cold_plate.tube_diameter", Kind::Length},
      {"package_dressing.decap_length", Kind::Length},
      {"package_dressing.decap_width", Kind::Length},
      {"package_dressing.decap_pitch", Kind::Length},
      {"package_dressing.decap_rows", Kind::Number},
      {"package_dressing.stiffener_width", Kind::Length},
      {"package_dressing.stiffener_height", Kind::Length},
      {"h100_package.interposer_width", Kind::Length},
      {"h100_package.interposer_depth", Kind::Length},
      {"h100_package.substrate_width", Kind::Length},
      {"h100_package.substrate_depth", Kind::Length},
      {"h100_package.substrate_thickness", Kind::Length},
      {"grace_cpu.package_width", Kind::Length},
      {"grace_cpu.package_depth", Kind::Length},
      {"grace_cpu.lpddr_modules", Kind::Number},
      {"compute_tray.width", Kind::Length},
      {"compute_tray.depth", Kind::Length},
      {"compute_tray.height_u", Kind::Number},
      {"compute_tray.superchips", Kind::Number},
      {"compute_tray.gpus_per_superchip", Kind::Number},
      {"compute_tray.nics", Kind::Number},
      {"compute_tray.dpus", Kind::Number},
      {"compute_tray.board_thickness", Kind::Length},
      {"compute_tray.cold_plate_thickness", Kind::Length},
      {"compute_tray.e1s_drives", Kind::Number},
      {"compute_tray.nic_asic_size", Kind::Length},
      {"compute_tray.power_bricks", Kind::Number},
      {"compute_tray.fans", Kind::Number},
      {"compute_tray.fan_size", Kind::Length},
      {"e1s.width", Kind::Length},
      {"e1s.length", Kind::Length},
      {"e1s.thickness", Kind::Length},
      {"dc_dc_brick.length", Kind::Length},
      {"dc_dc_brick.width", Kind::Length},
      {"dc_dc_brick.height", Kind::Length},
      {"switch_tray.height_u", Kind::Number},
      {"switch_tray.switch_chips", Kind::Number},
      {"switch_tray.management_ports", Kind::Number},
      {"switch_tray.management_port_width", Kind::Length},
      {"switch_tray.management_port_height", Kind::Length},
      {"osfp.cage_width", Kind::Length},
      {"osfp.cage_height", Kind::Length},
      {"osfp.cage_pitch", Kind::Length},
      {"osfp.module_protrusion", Kind::Length},
      {"osfp.fibre_diameter", Kind::Length},
      {"nvl72_rack.width", Kind::Length},
      {"nvl72_rack.depth", Kind::Length},
      {"nvl72_rack.height", Kind::Length},
      {"nvl72_rack.compute_trays", Kind::Number},
      {"nvl72_rack.switch_trays", Kind::Number},
      {"nvl72_rack.power_shelves", Kind::Number},
      {"nvl72_rack.power_shelf_height_u", Kind::Number},
      {"nvl72_rack.psus_per_shelf", Kind::Number},
      {"nvl72_rack.spine_depth", Kind::Length},
      {"nvl72_rack.spine_cartridges", Kind::Number},
      {"nvl72_rack.busbar_width", Kind::Length},
      {"nvl72_rack.manifold_diameter", Kind::Length},
      {"network_rack.width", Kind::Length},
      {"network_rack.depth", Kind::Length},
      {"network_rack.height", Kind::Length},
      {"network_rack.switch_height_u", Kind::Number},
      {"network_rack.switches", Kind::Number},
      {"row.racks_per_su", Kind::Number},
      {"row.cold_aisle", Kind::Length},
      {"row.hot_aisle", Kind::Length},
      {"row.cable_tray_height", Kind::Length},
      {"row.cable_tray_width", Kind::Length},
      {"cdu.width", Kind::Length},
      {"cdu.depth", Kind::Length},
      {"cdu.height", Kind::Length},
      {"hall.wall_height", Kind::Length},
      {"hall.wall_thickness", Kind::Length},
      {"hall.margin", Kind::Length},
      {"hall.slab_thickness", Kind::Length},
      {"fabric_switch.width", Kind::Length},
      {"fabric_switch.depth", Kind::Length},
      {"fabric_switch.osfp_cages", Kind::Number},
      {"fabric_switch.cage_rows", Kind::Number},
      {"dry_cooler.length", Kind::Length},
      {"dry_cooler.width", Kind::Length},
      {"dry_cooler.height", Kind::Length},
      {"dry_cooler.fans", Kind::Number},
      {"dry_cooler.fan_diameter", Kind::Length},
      {"cooling_tower.diameter", Kind::Length},
      {"cooling_tower.height", Kind::Length},
      {"pump.diameter", Kind::Length},
      {"pump.length", Kind::Length},
      {"pump.header_diameter", Kind::Length},
      {"pump.branch_diameter", Kind::Length},
      {"substation.transformer_width", Kind::Length},
      {"substation.transformer_depth", Kind::Length},
      {"substation.transformer_height", Kind::Length},
      {"substation.transformers", Kind::Number},
      {"substation.gantry_height", Kind::Length},
      {"campus.hall_spacing", Kind::Length},
      {"campus.ground_size", Kind::Length},
      {"tpu_v5e.board_width", Kind::Length},
      {"tpu_v5e.board_depth", Kind::Length},
      {"tpu_v5e.package_size", Kind::Length},
      {"tpu_v5e.die_size", Kind::Length},
      {"tpu_v5e.board_thickness", Kind::Length},
      {"tpu_v5e.die_thickness", Kind::Length},
      {"tpu_v5e.chips_per_board", Kind::Number},
      {"tpu_v5e.mxu_count", Kind::Number},
      {"tpu_v5e.mxu_dim", Kind::Number},
      {"tpu_v5e.mxu_edge", Kind::Length},
      {"tpu_v5e.hbm_stacks", Kind::Number},
      {"tpu_v5e.hbm_stack_width", Kind::Length},
      {"tpu_v5e.hbm_stack_depth", Kind::Length},
      {"tpu_v5e.hbm_stack_height", Kind::Length},
      {"ladder_tray.rung_pitch", Kind::Length},
      {"ladder_tray.rail_height", Kind::Length},
      {"ladder_tray.level_spacing", Kind::Length},
      {"xeon_spr.package_width", Kind::Length},
      {"xeon_spr.package_depth", Kind::Length},
      {"xeon_spr.compute_tiles", Kind::Number},
      {"xeon_spr.tile_width", Kind::Length},
      {"xeon_spr.substrate_thickness", Kind::Length},
      {"xeon_spr.die_thickness", Kind::Length},
      {"xeon_spr.amx_tile_row_bytes", Kind::Number},
      {"xeon_spr.cores_per_tile", Kind::Number},
      {"xeon_spr.amx_tile_registers", Kind::Number},
      {"xeon_spr.amx_tile_rows", Kind::Number},
      {"xeon_spr.l1i_bytes", Kind::Number},
      {"xeon_spr.l1d_bytes", Kind::Number},
      {"xeon_spr.l2_bytes", Kind::Number},
      {"xeon_spr.llc_slice_bytes", Kind::Number},
      {"xeon_spr.avx512_fma_units", Kind::Number},
      {"xeon_spr.core_l2_width_fraction", Kind::Number},
      {"xeon_spr.core_mesh_depth_fraction", Kind::Number},
      {"xeon_spr.core_amx_depth_fraction", Kind::Number},
      {"gallery.table_width", Kind::Length},
      {"gallery.table_depth", Kind::Length},
      {"gallery.table_height", Kind::Length},
      {"hall.column_pitch", Kind::Length},
      {"hall.roof_truss_depth", Kind::Length},
      {"cooling_tower.cells", Kind::Number},
      {"cooling_tower.fan_diameter", Kind::Length},
      {"generator.length", Kind::Length},
      {"generator.width", Kind::Length},
      {"generator.height", Kind::Length},
      {"generator.standby_rating_W", Kind::Number},
      {"generator.redundant", Kind::Number},
      {"hall.provisioned_power_W", Kind::Number},
      {"parking.bay_width", Kind::Length},
      {"parking.bay_depth", Kind::Length},
      {"parking.bays_per_hall", Kind::Number},
      {"parking.car_length", Kind::Length},
      {"parking.car_width", Kind::Length},
      {"parking.car_height", Kind::Length},
      {"busway.width", Kind::Length},
      {"busway.height", Kind::Length},
      {"busway.tap_off_width", Kind::Length},
      {"busway.tap_off_height", Kind::Length},
      {"busway.tap_off_depth", Kind::Length},
      {"busway.drop_diameter", Kind::Length},
      {"raceway.waterfall_width", Kind::Length},
      {"raceway.drop_diameter", Kind::Length},
      {"transmission.tower_height", Kind::Length},
      {"transmission.span", Kind::Length},
      // 8-GPU HGX systems, by catalog system id (world/builders/builders_hgx.cpp).
      {"dgx_h100.height_u", Kind::Number},
      {"dgx_h100.height", Kind::Length},
      {"dgx_h100.width", Kind::Length},
      {"dgx_h100.depth", Kind::Length},
      {"dgx_h100.systems_per_rack", Kind::Number},
      {"dgx_h100.heatsink_height", Kind::Length},
      {"hgx_h200.height_u", Kind::Number},
      {"hgx_h200.height", Kind::Length},
      {"hgx_h200.width", Kind::Length},
      {"hgx_h200.depth", Kind::Length},
      {"hgx_h200.systems_per_rack", Kind::Number},
      {"hgx_h200.heatsink_height", Kind::Length},
      {"dgx_b200.height_u", Kind::Number},
      {"dgx_b200.height", Kind::Length},
      {"dgx_b200.width", Kind::Length},
      {"dgx_b200.depth", Kind::Length},
      {"dgx_b200.systems_per_rack", Kind::Number},
      {"dgx_b200.heatsink_height", Kind::Length},
      {"surface_detail.bezel_hole_pitch", Kind::Length},
      {"surface_detail.pcb_trace_pitch", Kind::Length},
      {"surface_detail.sram_macro_pitch", Kind::Length},
      {"hgx_baseboard.width", Kind::Length},
      {"hgx_baseboard.depth", Kind::Length},
      {"hgx_baseboard.thickness", Kind::Length},
      {"sxm_module.width", Kind::Length},
      {"sxm_module.depth", Kind::Length},
      {"nvswitch_package.size", Kind::Length},
      {"hgx_rack.width", Kind::Length},
      {"hgx_rack.depth", Kind::Length},
      {"hgx_rack.height", Kind::Length},
  };
  return figures;
}

// Metres per unit for the length units a vendor quotes; 0 when unknown.
double lengthScale(const std::string& unit) {
  if (unit == "m") return 1.0;
  if (unit == "mm") return 1e-3;
  if (unit == "um") return 1e-6;
  if (unit == "in") return 0.0254;
  return 0.0;
}

double areaScale(const std::string& unit) {
  if (unit == "m2") return 1.0;
  if (unit == "mm2") return 1e-6;
  return 0.0;
}

}  // namespace

sim::Result<Dimensions> Dimensions::fromCatalog(const sim::Catalog& catalog) {
  Dimensions dims;
  for (const Required& figure : requiredFigures()) {
    const std::string path = std::string("dimensions.") + figure.key;
    const sim::Quantity* q = catalog.find(path);
    if (!q) {
      return sim::Result<Dimensions>::failure("catalog: missing figure \"" + path +
                                              "\" (expected in assets/catalog/dimensions.json)");
    }
    double scale = 1.0;
    if (figure.kind == Kind::Length) scale = lengthScale(q->unit);
    if (figure.kind == Kind::Area) scale = areaScale(q->unit);
    if (scale == 0.0) {
      return sim::Result<Dimensions>::failure(
          q->where + ": unit \"" + q->unit + "\" of \"" + path + "\" is not a " +
          (figure.kind == Kind::Area ? "area" : "length") + " unit (m, mm, um, in / m2, mm2)");
    }
    if (!(q->value > 0)) {
      return sim::Result<Dimensions>::failure(q->where + ": \"" + path + "\" must be positive");
    }
    dims.m_values[figure.key] = q->value * scale;
  }
  return dims;
}

sim::Result<Dimensions> Dimensions::loadDefault() {
  auto catalog = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
  if (!catalog) return sim::Result<Dimensions>::failure(catalog.error());
  return fromCatalog(*catalog);
}

double Dimensions::meters(const std::string& key) const {
  auto it = m_values.find(key);
  return it == m_values.end() ? 0.0 : it->second;
}

double Dimensions::squareMeters(const std::string& key) const {
  return meters(key);
}

double Dimensions::number(const std::string& key) const {
  return meters(key);
}

int Dimensions::count(const std::string& key) const {
  return static_cast<int>(std::lround(number(key)));
}

}  // namespace world
