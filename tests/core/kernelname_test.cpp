#include "core/kernelname.h"

#include <gtest/gtest.h>

namespace kwb {
namespace {

TEST(KernelName, DemangledWithoutReturnTypeParametersOrNamespaces) {
  EXPECT_EQ(shortKernelName("_ZN3kwb11elementwise12packedKernelILi4ELi1ELb0ENS0_4ReluEffLi1EEEvT2_"
                            "PT3_NS0_6InputsIT4_XT5_EEEl"),
            "packedKernel<4, 1, false, Relu, float, float, 1>");
  EXPECT_EQ(shortKernelName("_Z6vecAddPfS_S_i"), "vecAdd");
  EXPECT_EQ(shortKernelName("void ns::(anonymous namespace)::copyKernel<16, 4>(void*, int)"),
            "copyKernel<16, 4>");
  EXPECT_EQ(shortKernelName("cutlass_kernel"), "cutlass_kernel");
}

}  // namespace
}  // namespace kwb
