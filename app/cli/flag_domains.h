// The domain of every numeric command-line flag, in one table: finite always, a minimum and a
// maximum, whole numbers or not, and the unit. A value is checked against it while the command
// line is parsed, before CLI11 converts it, so "nan", "inf", "1e400", "-1" or "4294967312" are
// refused with "--FLAG: why" and exit status 2, and nothing downstream ever sees them.
// tests/app/flag_domain_test.cpp checks that every numeric option of every subcommand is here.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace app {

struct NumberDomain {
  double min = 0;
  double max = 0;
  bool integer = false;   // whole numbers only
  const char* unit = "";  // "s", "minutes", "frames", ... ("" for a plain count or factor)
};

struct FlagDomain {
  const char* command;  // the subcommand's path: "tour", "bench"
  const char* flag;     // "--ui-scale"
  NumberDomain domain;
};

/// Every numeric flag of every subcommand.
const std::vector<FlagDomain>& flagDomains();

/// The domain of `flag` of `command`; nullptr when the table has none.
const NumberDomain* findFlagDomain(std::string_view command, std::string_view flag);

/// Why `text` is not a value of `domain` ("" when it is). An accepted value is written back to
/// `text` in the form CLI11 converts exactly (whole numbers as plain digits: "1e3" -> "1000").
std::string checkNumber(std::string& text, const NumberDomain& domain);

/// Adds numeric option `flag` to `sub` (whose path is `command`), checked against its domain in
/// the table; a flag missing from the table is a programming error (std::logic_error).
template <class T>
CLI::Option* addNumberOption(CLI::App& sub, const std::string& command, const std::string& flag,
                             T& target, const std::string& help);

/// The CLI11 validator of `domain` (named "INT in [1 - 10]" or "FLOAT in [0.5 - 4]").
CLI::Validator domainValidator(const NumberDomain& domain);

template <class T>
CLI::Option* addNumberOption(CLI::App& sub, const std::string& command, const std::string& flag,
                             T& target, const std::string& help) {
  const NumberDomain* domain = findFlagDomain(command, flag);
  if (!domain) throw std::logic_error("no domain for " + command + " " + flag);
  return sub.add_option(flag, target, help)->transform(domainValidator(*domain));
}

}  // namespace app
