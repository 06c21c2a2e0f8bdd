#include "core/cuobjdump.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/error.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;

// A stand-in cuobjdump: prints the recorded outputs, and its arguments to a file.
class FakeCuobjdump {
 public:
  explicit FakeCuobjdump(const std::string& body) {
    dir_ = fs::temp_directory_path() / ("kwb-fake-cuobjdump-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    tool_ = (dir_ / "cuobjdump").string();
    std::ofstream(tool_) << "#!/bin/sh\necho \"$@\" > '" << (dir_ / "args").string() << "'\n"
                         << body;
    fs::permissions(tool_, fs::perms::owner_all);
    ::setenv("KWB_CUOBJDUMP", tool_.c_str(), 1);
  }
  ~FakeCuobjdump() {
    ::unsetenv("KWB_CUOBJDUMP");
    fs::remove_all(dir_);
  }
  const std::string& tool() const { return tool_; }
  std::string args() const {
    std::ifstream in(dir_ / "args");
    std::string line;
    std::getline(in, line);
    return line;
  }

 private:
  fs::path dir_;
  std::string tool_;
};

TEST(Cuobjdump, TheEnvironmentNamesTheTool) {
  FakeCuobjdump fake("exit 0\n");
  EXPECT_EQ(findCuobjdump(), fake.tool());
  ::setenv("KWB_CUOBJDUMP", "/nonexistent/cuobjdump", 1);
  EXPECT_EQ(findCuobjdump(), std::nullopt);
}

TEST(Cuobjdump, DumpsTheNamedFunctionsOfOneArchitecture) {
  FakeCuobjdump fake("cat '" KWB_FIXTURES_DIR
                     "/sass/cuobjdump_sm90.sass'\n"
                     "echo 'cuobjdump warning : Function listed in --function not found' >&2\n");
  const auto functions = dumpSass(fake.tool(), "/bin/kwb", "sm_90", {"a", "b"});
  EXPECT_EQ(fake.args(), "-sass -arch sm_90 -fun a,b /bin/kwb");
  ASSERT_EQ(functions.size(), 2u);
  EXPECT_EQ(summarizeSass(functions[0].listing).instructions, 208u);
  EXPECT_TRUE(dumpSass(fake.tool(), "/bin/kwb", "sm_90", {}).empty());
}

TEST(Cuobjdump, ListsTheArchitectures) {
  FakeCuobjdump fake("cat '" KWB_FIXTURES_DIR "/sass/cuobjdump_lelf.txt'\n");
  EXPECT_EQ(sassArchitectures(fake.tool(), "/bin/kwb"), std::vector<std::string>{"sm_90"});
  EXPECT_EQ(fake.args(), "-lelf /bin/kwb");
}

TEST(Cuobjdump, AFailureSaysWhatTheToolSaid) {
  FakeCuobjdump fake("echo 'cuobjdump fatal   : Could not open input file' >&2\nexit 255\n");
  try {
    sassArchitectures(fake.tool(), "/missing");
    FAIL() << "expected Error(Tool)";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::Tool);
    EXPECT_NE(std::string(error.what()).find("Could not open input file"), std::string::npos);
  }
}

TEST(Cuobjdump, FingerprintsFollowTheContents) {
  const fs::path dir =
      fs::temp_directory_path() / ("kwb-fingerprint-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto write = [&](const char* name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const std::string a = write("a", std::string(100000, 'x') + "1");
  const std::string b = write("b", std::string(100000, 'x') + "1");
  const std::string c = write("c", std::string(100000, 'x') + "2");
  EXPECT_EQ(fileFingerprint(a), fileFingerprint(b));
  EXPECT_NE(fileFingerprint(a), fileFingerprint(c));
  EXPECT_EQ(fileFingerprint(a).rfind("100001-", 0), 0u);
  EXPECT_THROW(fileFingerprint((dir / "none").string()), Error);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace kwb
