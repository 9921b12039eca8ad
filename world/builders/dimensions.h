// Physical sizes the world is built from: the "dimensions" section of the catalog
// (assets/catalog/dimensions.json), each figure with its source and basis. Lengths are converted
// to metres here; builders never hold a size of their own.
#pragma once

#include <map>
#include <string>

#include "sim/catalog.h"
#include "sim/result.h"

namespace world {

class Dimensions {
 public:
  /// Reads and checks every figure the builders use (present, known unit, positive); the error
  /// names the missing path or the file:line of the bad figure.
  static sim::Result<Dimensions> fromCatalog(const sim::Catalog& catalog);
  /// Loads the catalog from sim::assetsDir()/catalog and reads it.
  static sim::Result<Dimensions> loadDefault();

  /// A length in metres ("nvl72_rack.width"); the key is relative to "dimensions." and must be
  /// one of the figures checked at load (otherwise 0, which a test would catch).
  double meters(const std::string& key) const;
  /// An area in square metres ("gh100.die_area").
  double squareMeters(const std::string& key) const;
  /// A count, ratio or byte figure as a plain number.
  double number(const std::string& key) const;
  /// A count rounded to an integer.
  int count(const std::string& key) const;
  /// One rack unit in metres.
  double rackUnit_m() const { return meters("rack_unit.height"); }

 private:
  std::map<std::string, double> m_values;  // SI: metres, square metres, or plain numbers
};

}  // namespace world
