// main() of every GPU test: without a CUDA device the whole executable reports itself skipped
// (ctest's SKIP_RETURN_CODE), never passed.
#include <cstdio>

#include <gtest/gtest.h>

#include "core/error.h"
#include "measure/devicequery.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  try {
    if (kwb::deviceCount() == 0) {
      std::printf("SKIPPED: %s\n", kwb::noDeviceReason().c_str());
      return KWB_SKIP_CODE;
    }
  } catch (const kwb::Error& e) {
    std::printf("cannot tell whether there is a CUDA device: %s\n", e.what());
    return 1;
  }
  return RUN_ALL_TESTS();
}
