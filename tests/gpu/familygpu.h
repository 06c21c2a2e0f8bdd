#pragma once

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "kernels/registry.h"
#include "measure/runner.h"

namespace kwb::testing {

// A suite that runs one family's variants on device 0: one Runner for the whole suite, and a new
// input seed for every run.
class FamilyGpu : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { runner = new Runner(0); }
  static void TearDownTestSuite() {
    delete runner;
    runner = nullptr;
  }

  RunResult runVariant(const std::string& family, const std::string& variant,
                       const RawParams& params, bool verifyOnly, double budgetSeconds = 0.02) {
    RunRequest request;
    request.family = family;
    request.variant = variant;
    request.params = Registry::instance().resolve(family, variant, params);
    request.seed = ++seed;
    request.verifyOnly = verifyOnly;
    request.timing.budgetSeconds = budgetSeconds;
    return runner->run(request);
  }

  static inline Runner* runner = nullptr;
  std::uint64_t seed = 0;
};

}  // namespace kwb::testing
