#include "core/linediff.h"

#include <algorithm>
#include <vector>

namespace kwb {
namespace {

std::vector<std::string_view> linesOf(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

struct Edit {
  char kind;  // ' ', '-' or '+'
  std::string_view line;
};

// The edit script from the LCS table, computed from the ends so it reads front to back.
std::vector<Edit> editsOf(const std::vector<std::string_view>& a,
                          const std::vector<std::string_view>& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::uint32_t>> lcs(n + 1, std::vector<std::uint32_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<Edit> edits;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      edits.push_back({' ', a[i++]});
      ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      edits.push_back({'-', a[i++]});  // removals before additions, as diff prints them
    } else {
      edits.push_back({'+', b[j++]});
    }
  }
  return edits;
}

}  // namespace

std::string unifiedDiff(std::string_view before, std::string_view after,
                        const std::string& beforeName, const std::string& afterName,
                        std::size_t context) {
  const auto a = linesOf(before), b = linesOf(after);
  const std::vector<Edit> edits = editsOf(a, b);
  std::string out;
  std::size_t k = 0;
  std::size_t lineA = 1, lineB = 1;  // numbers of edits[k]'s lines
  while (k < edits.size()) {
    if (edits[k].kind == ' ') {
      ++k, ++lineA, ++lineB;
      continue;
    }
    // A hunk: back up over its leading context, run until `2 * context` unchanged lines follow.
    const std::size_t lead = std::min(context, k);
    const std::size_t start = k - lead;
    std::size_t end = k, quiet = 0;
    for (; end < edits.size(); ++end) {
      quiet = edits[end].kind == ' ' ? quiet + 1 : 0;
      if (quiet > 2 * context) break;
    }
    // Keep `context` of the unchanged lines that end the hunk.
    if (end < edits.size()) ++end;
    if (quiet > context) end -= quiet - context;
    std::size_t countA = 0, countB = 0;
    for (std::size_t e = start; e < end; ++e) {
      countA += edits[e].kind != '+';
      countB += edits[e].kind != '-';
    }
    if (out.empty()) out = "--- " + beforeName + "\n+++ " + afterName + "\n";
    out += "@@ -" + std::to_string(countA ? lineA - lead : lineA - lead - 1) + "," +
           std::to_string(countA) + " +" +
           std::to_string(countB ? lineB - lead : lineB - lead - 1) + "," + std::to_string(countB) +
           " @@\n";
    for (std::size_t e = start; e < end; ++e) {
      out += edits[e].kind;
      out += edits[e].line;
      out += '\n';
    }
    for (std::size_t e = k; e < end; ++e) {
      lineA += edits[e].kind != '+';
      lineB += edits[e].kind != '-';
    }
    k = end;
  }
  return out;
}

}  // namespace kwb
