#include "app/cli/table.h"

#include <algorithm>
#include <cctype>

#include "core/resultcolumns.h"

namespace kwb {

std::string cellText(const ResultColumn& column, const RunRecord& record) {
  std::string text = column.text(record);
  return text.empty() ? "-" : text;
}

bool Table::looksNumeric(const std::string& cell) {
  if (cell == "-") return true;
  return !cell.empty() && std::isdigit(static_cast<unsigned char>(cell.front())) &&
         cell.find("..") == std::string::npos && cell.find('=') == std::string::npos;
}

void Table::print(std::ostream& out) {
  std::vector<std::size_t> widths(headers_.size(), 0);
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c)
      widths[c] = std::max(widths[c], row[c].size());
  // Columns of numbers align right; a column with any other text aligns left.
  std::vector<bool> right(headers_.size(), !rows_.empty());
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size() && c < right.size(); ++c)
      right[c] = right[c] && looksNumeric(row[c]);
  printHeader(out, std::move(widths), std::move(right));
  for (const auto& row : rows_) printRow(out, row);
}

void Table::printHeader(std::ostream& out, std::vector<std::size_t> minWidths,
                        std::vector<bool> right) {
  widths_ = std::move(minWidths);
  right_ = std::move(right);
  widths_.resize(headers_.size(), 0);
  right_.resize(headers_.size(), false);
  for (std::size_t c = 0; c < headers_.size(); ++c)
    widths_[c] = std::max(widths_[c], headers_[c].size());
  printLine(out, headers_, true);
  std::vector<std::string> rule;
  for (auto w : widths_) rule.emplace_back(w, '-');
  printLine(out, rule, true);
}

void Table::printRow(std::ostream& out, const std::vector<std::string>& cells) const {
  printLine(out, cells, false);
}

void Table::printLine(std::ostream& out, const std::vector<std::string>& cells, bool header) const {
  std::string text;
  for (std::size_t c = 0; c < widths_.size(); ++c) {
    const std::string cell = c < cells.size() ? cells[c] : "";
    const std::string pad(widths_[c] - std::min(widths_[c], cell.size()), ' ');
    const bool alignRight = !header && right_[c];
    text +=
        (c ? "  " : "") + (alignRight ? pad + cell : cell + (c + 1 < widths_.size() ? pad : ""));
  }
  out << text << '\n' << std::flush;
}

}  // namespace kwb
