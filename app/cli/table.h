#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace kwb {

struct ResultColumn;
struct RunRecord;

// A result column's text for a table, "-" where the run has no value.
std::string cellText(const ResultColumn& column, const RunRecord& record);

// A plain text table, numbers aligned right. Either filled and printed at once, columns sized to
// their widest cell, or streamed: the header first, then each row as it arrives, columns as wide
// as given (a longer cell widens its own row only).
class Table {
 public:
  explicit Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}
  void addRow(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  bool empty() const { return rows_.empty(); }
  void print(std::ostream& out);

  // Streaming: minWidths and right hold one entry per column.
  void printHeader(std::ostream& out, std::vector<std::size_t> minWidths, std::vector<bool> right);
  void printRow(std::ostream& out, const std::vector<std::string>& cells) const;

  // A value with an optional unit ("12.5 us", "93.1%", "42"); "-" stands for no value.
  static bool looksNumeric(const std::string& cell);

 private:
  void printLine(std::ostream& out, const std::vector<std::string>& cells, bool header) const;

  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::size_t> widths_;
  std::vector<bool> right_;
};

}  // namespace kwb
