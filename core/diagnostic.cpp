#include "core/diagnostic.h"

#include <regex>
#include <string>

namespace kwb {

std::string Diagnostic::text() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + severity + ": " +
         message;
}

std::vector<Diagnostic> parseDiagnostics(std::string_view text) {
  static const std::regex kLine(
      R"(^(.+):(\d{1,9}):(\d{1,9}): (catastrophic error|error|warning): (.*)$)");
  std::vector<Diagnostic> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(start, end - start));
    std::smatch m;
    if (std::regex_match(line, m, kLine))
      out.push_back({m[1], std::stoi(m[2]), std::stoi(m[3]), m[4], m[5]});
    start = end + 1;
  }
  return out;
}

}  // namespace kwb
