#pragma once

#include <string>
#include <string_view>

namespace kwb {

// A kernel's name as a user reads it in tables: demangled, without the return type, the
// parameter list and namespace qualifiers, template arguments kept ("packedKernel<4, 1, false,
// unsigned int, Relu, float, float, 1>"). Names that are not mangled C++ come back as they are.
std::string shortKernelName(std::string_view symbol);

}  // namespace kwb
