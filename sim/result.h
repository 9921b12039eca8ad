// Recoverable failures (bad catalog, bad scenario, bad asset) return a Result carrying a message
// that names the file and the place; no exception leaves sim/. A defect (an output the model
// should never produce, e.g. a NaN) is a failure of its own kind: the input was fine, the code
// is wrong, and the command line says so rather than blaming the input.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace sim {

template <class T>
class Result {
 public:
  Result(T value) : m_value(std::move(value)) {}
  static Result failure(std::string message) {
    Result r;
    r.m_error = std::move(message);
    return r;
  }
  /// A failure caused by the code, not by the input (see above).
  static Result defect(std::string message) {
    Result r = failure(std::move(message));
    r.m_defect = true;
    return r;
  }
  bool ok() const { return m_value.has_value(); }
  bool isDefect() const { return m_defect; }
  explicit operator bool() const { return ok(); }
  T& value() { return *m_value; }
  const T& value() const { return *m_value; }
  T* operator->() { return &*m_value; }
  const T* operator->() const { return &*m_value; }
  T& operator*() { return *m_value; }
  const T& operator*() const { return *m_value; }
  const std::string& error() const { return m_error; }

 private:
  Result() = default;
  std::optional<T> m_value;
  std::string m_error;
  bool m_defect = false;
};

}  // namespace sim
