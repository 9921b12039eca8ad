#include "sim/json_checker.h"

#include <algorithm>

namespace sim {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool JsonChecker::flag(const Pointer& at, const std::string& message) {
  m_error = m_file.where(at) + ": " + message;
  return false;
}

const JsonChecker::Json* JsonChecker::find(const Pointer& at) const {
  return m_file.root.contains(at) ? &m_file.root.at(at) : nullptr;
}

const JsonChecker::Json* JsonChecker::field(const Pointer& at, Json::value_t type,
                                            const char* what) {
  const Json* value = find(at);
  if (!value) {
    flag(at.parent_pointer(), "missing field \"" + at.back() + "\"");
    return nullptr;
  }
  const bool numberOk = type == Json::value_t::number_float && value->is_number();
  if (value->type() != type && !numberOk) {
    flag(at, std::string("must be ") + what);
    return nullptr;
  }
  return value;
}

bool JsonChecker::onlyFields(const Pointer& at, std::initializer_list<const char*> allowed) {
  for (const auto& [name, value] : m_file.root.at(at).items()) {
    bool known = false;
    for (const char* a : allowed) known = known || name == a;
    if (known) continue;
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    return flag(at / name, "unknown field \"" + name + "\" (known: " + list + ")");
  }
  return true;
}

bool JsonChecker::text(const Pointer& at, std::string& out) {
  const Json* value = field(at, Json::value_t::string, "a string");
  if (!value) return false;
  out = value->get<std::string>();
  if (out.empty()) return flag(at, "must not be empty");
  return true;
}

}  // namespace sim
