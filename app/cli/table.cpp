#include "app/cli/table.h"

#include <algorithm>
#include <cctype>

namespace kwb {
namespace {
// A value with an optional unit ("12.5 us", "93.1%", "42"); "-" stands for no value.
bool looksNumeric(const std::string& cell) {
  if (cell == "-") return true;
  return !cell.empty() && std::isdigit(static_cast<unsigned char>(cell.front())) &&
         cell.find("..") == std::string::npos && cell.find('=') == std::string::npos;
}
}  // namespace

void Table::print(std::ostream& out) const {
  std::vector<std::size_t> widths(headers_.size());
  for (std::size_t c = 0; c < headers_.size(); ++c) widths[c] = headers_[c].size();
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c)
      widths[c] = std::max(widths[c], row[c].size());

  // Columns of numbers align right; a column with any other text aligns left.
  std::vector<bool> right(headers_.size(), !rows_.empty());
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size() && c < right.size(); ++c)
      right[c] = right[c] && looksNumeric(row[c]);

  auto line = [&](const std::vector<std::string>& cells, bool header) {
    std::string text;
    for (std::size_t c = 0; c < widths.size(); ++c) {
      const std::string cell = c < cells.size() ? cells[c] : "";
      const std::string pad(widths[c] - cell.size(), ' ');
      const bool alignRight = !header && right[c];
      text +=
          (c ? "  " : "") + (alignRight ? pad + cell : cell + (c + 1 < widths.size() ? pad : ""));
    }
    out << text << '\n';
  };
  line(headers_, true);
  std::vector<std::string> rule;
  for (auto w : widths) rule.emplace_back(w, '-');
  line(rule, true);
  for (const auto& row : rows_) line(row, false);
}

}  // namespace kwb
