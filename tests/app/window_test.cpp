// The window under Xvfb, driven by xdotool: survives 20 resizes and a minimise/restore, reacts
// to keys, quits cleanly on Esc with exit 0 and zero validation errors.
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/common/paths.h"

TEST(Window, SurvivesResizesMinimiseAndQuitsOnEsc) {
  const std::string script = (testpaths::sourceDir() / "tests/app/window_session.sh").string();
  const std::string log = std::string(DCWALK_BINARY_DIR) + "/window_session.log";
  const std::string command = script + " '" + DCWALK_EXE + "' '" + log + "'";
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream output;
  output << in.rdbuf();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "dcwalk's output:\n" << output.str();
}
