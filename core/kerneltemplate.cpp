#include "core/kerneltemplate.h"

#include <utility>

#include "core/error.h"

namespace kwb {

const std::vector<std::pair<std::string_view, std::string_view>>& embeddedKernelTemplates();

std::vector<std::string> kernelTemplateNames() {
  std::vector<std::string> names;
  for (const auto& [name, text] : embeddedKernelTemplates()) names.emplace_back(name);
  return names;
}

std::string kernelTemplate(std::string_view name) {
  std::string allowed;
  for (const auto& [known, text] : embeddedKernelTemplates()) {
    if (known == name) return std::string(text);
    allowed += (allowed.empty() ? "" : ", ") + std::string(known);
  }
  throw paramError("implements",
                   "'" + std::string(name) + "' has no starting file; allowed: " + allowed);
}

}  // namespace kwb
