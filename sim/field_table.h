// Settable fields by dotted path: one mechanism for every description a file, `--set` or a panel
// names fields of (the analytic scenario, sim/scenario.cpp; the time engine's description,
// sim/engine/request.cpp). A field is its path, its kind, its declared domain (sim/domain.h, which
// carries the unit) or choices, and a reader and a writer reached through member pointers. The
// loaders keep their own wording of errors (a file's "file:line (pointer): ...", --set's "--set
// path: ..."); the table says what a field is and how to reach it.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/domain.h"
#include "sim/format.h"

namespace sim {

enum class FieldKind { Integer, Number, Text };

/// The member reached from `obj` through the chain of member pointers `First, Rest...`.
template <auto First, auto... Rest, class T>
constexpr auto& memberAt(T& obj) {
  if constexpr (sizeof...(Rest) == 0) {
    return obj.*First;
  } else {
    return memberAt<Rest...>(obj.*First);
  }
}

/// One settable field of a `Desc`.
template <class Desc>
struct FieldDef {
  const char* path;
  FieldKind kind;
  Domain domain{};                          // numbers: range, integrality and unit
  std::vector<std::string_view> choices{};  // text: the values it takes (empty = any text)
  // 0 or "" stands for a value taken elsewhere (the catalog, the rules), which the evaluation
  // shows; the field itself then does not say what runs.
  bool fromCatalog = false;
  double (*number)(const Desc&) = nullptr;             // Integer, Number
  void (*setNumber)(Desc&, double) = nullptr;          // Integer, Number (value in the domain)
  std::string (*text)(const Desc&) = nullptr;          // Text
  bool (*setText)(Desc&, std::string_view) = nullptr;  // Text; false: not a value it takes
  const char* choiceNoun = nullptr;  // what the choices are, for messages ("precision")
};

/// A number field at the member chain `Path...`: Integer when the member is integral.
template <class Desc, auto... Path>
FieldDef<Desc> numberField(const char* path, Domain domain) {
  using T = std::remove_cvref_t<decltype(memberAt<Path...>(std::declval<Desc&>()))>;
  FieldDef<Desc> f{path, std::is_integral_v<T> ? FieldKind::Integer : FieldKind::Number, domain};
  f.fromCatalog = domain.zeroIsDefault;
  f.number = [](const Desc& d) { return static_cast<double>(memberAt<Path...>(d)); };
  f.setNumber = [](Desc& d, double v) { memberAt<Path...>(d) = static_cast<T>(v); };
  return f;
}

/// A string field at the member chain `Path...`, any text or one of `choices`.
template <class Desc, auto... Path>
FieldDef<Desc> textField(const char* path, std::vector<std::string_view> choices = {}) {
  FieldDef<Desc> f{path, FieldKind::Text, {}, std::move(choices)};
  f.text = [](const Desc& d) { return std::string(memberAt<Path...>(d)); };
  f.setText = [](Desc& d, std::string_view v) {
    memberAt<Path...>(d) = std::string(v);
    return true;
  };
  return f;
}

/// The field at `path` in `table`, or nullptr.
template <class Desc>
const FieldDef<Desc>* findField(const std::vector<FieldDef<Desc>>& table, std::string_view path) {
  for (const FieldDef<Desc>& f : table) {
    if (path == f.path) return &f;
  }
  return nullptr;
}

/// The value of `f` in `d` as the text an override takes ("8", "12.5", "bf16").
template <class Desc>
std::string fieldText(const FieldDef<Desc>& f, const Desc& d) {
  if (f.kind == FieldKind::Text) return f.text(d);
  const double v = f.number(d);
  return f.kind == FieldKind::Integer ? std::to_string(static_cast<long long>(v)) : shortestText(v);
}

/// Every path of `table`, in table order.
template <class Desc>
std::vector<std::string> fieldPaths(const std::vector<FieldDef<Desc>>& table) {
  std::vector<std::string> paths;
  for (const FieldDef<Desc>& f : table) paths.emplace_back(f.path);
  return paths;
}

/// `choices` joined by `separator` ("fp32, bf16", "true or false").
inline std::string joinChoices(const std::vector<std::string_view>& choices,
                               std::string_view separator) {
  std::string out;
  for (std::string_view c : choices) {
    if (!out.empty()) out += separator;
    out += c;
  }
  return out;
}

}  // namespace sim
