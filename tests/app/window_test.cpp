// Real windows under Xvfb, driven by xdotool: the tour window survives 20 resizes and a
// minimise/restore and quits on Esc; booth mode cycles attract -> tour -> idle warning -> attract
// and quits only on the operator's chord; a click on a panel selects nothing behind it. All exit 0
// with zero validation errors.
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/common/paths.h"

namespace {

// Runs tests/app/<script> against the built dcwalk; returns its exit status and dcwalk's log.
int runSession(const std::string& script, std::string& log) {
  const std::string path = (testpaths::sourceDir() / "tests/app" / script).string();
  const std::string logFile = std::string(DCWALK_BINARY_DIR) + "/" + script + ".log";
  const int status = std::system((path + " '" + DCWALK_EXE + "' '" + logFile + "'").c_str());
  std::ifstream in(logFile);
  std::stringstream output;
  output << in.rdbuf();
  log = output.str();
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST(Window, SurvivesResizesMinimiseAndQuitsOnEsc) {
  std::string log;
  EXPECT_EQ(runSession("window_session.sh", log), 0) << "dcwalk's output:\n" << log;
}

TEST(Window, KioskCyclesAndOnlyTheOperatorChordQuits) {
  std::string log;
  EXPECT_EQ(runSession("kiosk_session.sh", log), 0) << "dcwalk's output:\n" << log;
}

TEST(Window, AClickOnAPanelSelectsNothingBehindIt) {
  std::string log;
  EXPECT_EQ(runSession("window_clicks.sh", log), 0) << "dcwalk's output:\n" << log;
}
