#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kwb {

// The commented starting files `kwb new` and File > New kernel write: "user" (a kernel with its
// own reference) or a built-in family the new kernel implements.
std::vector<std::string> kernelTemplateNames();
// Throws Error(Param) on "implements" naming the allowed ones.
std::string kernelTemplate(std::string_view name);

}  // namespace kwb
