// Runs the built `dcwalk` executable (DCWALK_EXE) the way a user would, for CLI end-to-end tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace testcli {

struct CliRun {
  int status = -1;  // exit status, -1 when it did not exit normally
  std::string out;
};

/// Runs `command` through /bin/sh; its stdout, and its exit status.
inline CliRun shell(const std::string& command) {
  CliRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) run.out.append(buffer, n);
  const int raw = pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return run;
}

/// A `shot --out` for runs refused before they write, or whose picture nobody looks at: a PNG in
/// the temp folder (/dev/null is refused: it is no regular file).
inline std::string scratchPng() {
  return (std::filesystem::temp_directory_path() /
          ("dcwalk-scratch-" + std::to_string(::getpid()) + ".png"))
      .string();
}

/// Runs `dcwalk <args>` through the shell; stderr joins stdout when `withStderr`, else is dropped.
/// `prefix` goes before the executable (environment assignments, `timeout 60`).
inline CliRun dcwalk(const std::string& args, bool withStderr = true,
                     const std::string& prefix = "") {
  return shell(prefix + " '" + DCWALK_EXE + "' " + args + (withStderr ? " 2>&1" : " 2>/dev/null"));
}

}  // namespace testcli
