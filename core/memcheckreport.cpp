#include "core/memcheckreport.h"

#include <regex>
#include <string>

namespace kwb {

MemcheckReport parseMemcheck(std::string_view text) {
  static const std::regex kAt(R"(^at (\S+)(?: in (.+):(\d+))?.*$)");
  static const std::regex kSummary(R"(^ERROR SUMMARY: (\d+) errors?.*$)");
  constexpr std::string_view kPrefix = "========= ";
  MemcheckReport report;
  MemcheckFinding* current = nullptr;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (!line.starts_with(kPrefix)) continue;
    line.remove_prefix(kPrefix.size());
    const bool detail = line.starts_with(" ");
    const std::string body(line.substr(line.find_first_not_of(' ') == std::string_view::npos
                                           ? line.size()
                                           : line.find_first_not_of(' ')));
    std::smatch m;
    if (!detail) {
      current = nullptr;
      if (std::regex_match(body, m, kSummary)) {
        report.complete = true;
        report.errors = std::stoul(m[1]);
      } else if (!body.empty() && !body.starts_with("COMPUTE-SANITIZER") &&
                 !body.starts_with("Target application")) {
        current = &report.findings.emplace_back();
        current->what = body;
      }
      continue;
    }
    if (!current) continue;
    if (std::regex_match(body, m, kAt)) {
      current->kernel = m[1];
      if (m[2].matched) {
        current->file = m[2];
        current->line = std::stoi(m[3]);
      }
    } else if (body.starts_with("by thread ")) {
      current->thread = body.substr(3);
    } else if (body.starts_with("Address ") || body.starts_with("Access to ")) {
      current->address = body;
    } else if (body.starts_with("and is ") && !current->address.empty()) {
      current->address += ", " + body.substr(4);
    }
  }
  return report;
}

}  // namespace kwb
