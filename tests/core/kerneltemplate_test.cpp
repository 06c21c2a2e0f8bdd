#include "core/kerneltemplate.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/kernelspec.h"

namespace kwb {
namespace {

// Each starting file's spec reads; `kwb check` compiles them in the CLI tests.
TEST(KernelTemplate, EveryStartingFileHasASpecThatReads) {
  const auto names = kernelTemplateNames();
  EXPECT_EQ(names, (std::vector<std::string>{"copy", "elementwise", "giou", "permute", "user"}));
  for (const auto& name : names) {
    const std::string text = kernelTemplate(name);
    const KernelSpec spec = parseKernelSpec(specText(text, name + ".cu"), name + ".cu");
    EXPECT_EQ(spec.implements, name == "user" ? "" : name);
  }
}

TEST(KernelTemplate, AnUnknownOneNamesTheAllowed) {
  try {
    kernelTemplate("giou2");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.param(), "implements");
    EXPECT_NE(std::string(e.what()).find("allowed: copy, elementwise, giou, permute"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace kwb
