#include "kernels/user/nvrtccompiler.h"

#include <gtest/gtest.h>

namespace kwb {
namespace {

const char* kScale = R"(/* kwb ... */
template <int UNROLL>
__global__ void scale(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= FACTOR * UNROLL;
}
)";

// NVRTC needs no GPU: these run in CI.
TEST(NvrtcCompiler, CompilesATemplateKernelWithItsDefines) {
  const CompiledModule m =
      compileKernel({kScale, "scale.cu", 90, {{"FACTOR", "2.0f"}}, {"scale<4>"}});
  ASSERT_TRUE(m.ok) << m.log;
  ASSERT_GT(m.cubin.size(), 4u);
  EXPECT_EQ(std::string(m.cubin.data() + 1, 3), "ELF");
  ASSERT_EQ(m.loweredNames.count("scale<4>"), 1u);
  EXPECT_EQ(m.loweredNames.at("scale<4>").rfind("_Z", 0), 0u);
  EXPECT_TRUE(m.diagnostics.empty()) << m.log;
  EXPECT_FALSE(nvrtcVersion().empty());
}

TEST(NvrtcCompiler, ErrorsComeBackAsDiagnosticsOfTheFilesLines) {
  // No FACTOR defined: the kernel's line 5 does not compile.
  const CompiledModule m = compileKernel({kScale, "scale.cu", 90, {}, {"scale<4>"}});
  EXPECT_FALSE(m.ok);
  EXPECT_TRUE(m.cubin.empty());
  ASSERT_FALSE(m.diagnostics.empty()) << m.log;
  const Diagnostic& d = m.diagnostics.front();
  EXPECT_EQ(d.file, "scale.cu");
  EXPECT_EQ(d.line, 5);
  EXPECT_EQ(d.severity, "error");
  EXPECT_NE(d.message.find("FACTOR"), std::string::npos) << d.message;
  EXPECT_EQ(d.column, 22) << m.log;
  EXPECT_EQ(d.text().rfind("scale.cu:5:22: error: ", 0), 0u) << d.text();
}

// A template argument the kernel does not take: said against the spec's launch and its line,
// not NVRTC's name map.
TEST(NvrtcCompiler, ANameExpressionOfNoKernelNamesTheLaunch) {
  const CompiledModule m = compileKernel({kScale,
                                          "scale.cu",
                                          90,
                                          {{"FACTOR", "2.0f"}},
                                          {"scale<4>", "scale<4, 2>"},
                                          {{"launch[0].kernel", 30}, {"launch[1].kernel", 36}}});
  EXPECT_FALSE(m.ok);
  ASSERT_EQ(m.diagnostics.size(), 1u) << m.log;
  EXPECT_EQ(m.diagnostics[0].text().rfind("scale.cu:36:0: error: launch[1].kernel: 'scale<4, 2>' "
                                          "is no kernel of the file",
                                          0),
            0u)
      << m.diagnostics[0].text();
}

}  // namespace
}  // namespace kwb
