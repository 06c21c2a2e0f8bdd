#include "db/filterterms.h"

#include "db/database.h"

namespace kwb {
namespace {

std::string likePattern(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '%' || c == '_' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return "%" + escaped + "%";
}

std::string lowerAscii(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

// A condition on a column of runs that an index of the column answers.
FilterTerm columnTerm(std::string condition, std::vector<SqlValue> values) {
  return {condition, "SELECT r.id FROM runs r WHERE " + condition, std::move(values)};
}

// Runs whose words (runtext.h), tags or notes hold the text, case aside. The trigram index
// answers LIKE without ESCAPE only, where % and _ match more than themselves: instr() then keeps
// the runs that hold the text as typed.
FilterTerm textTerm(const std::string& text) {
  const bool wildcards = text.find_first_of("%_") != std::string::npos;
  std::string words = "SELECT rowid FROM run_text WHERE text LIKE ?";
  std::vector<SqlValue> values{"%" + text + "%"};
  if (wildcards) {
    words += " AND instr(lower(text), ?) > 0";
    values.emplace_back(lowerAscii(text));
  }
  const std::string labels =
      "SELECT run_id FROM tags WHERE tag LIKE ? ESCAPE '\\' UNION SELECT run_id FROM notes "
      "WHERE text LIKE ? ESCAPE '\\'";
  values.emplace_back(likePattern(text));
  values.emplace_back(likePattern(text));
  return {"r.id IN (" + words + " UNION " + labels + ")", words + " UNION " + labels,
          std::move(values)};
}

}  // namespace

std::vector<FilterTerm> filterTerms(const HistoryFilter& f) {
  std::vector<FilterTerm> terms;
  // Family and variant together, as their index holds them.
  if (!f.family.empty() && !f.variant.empty())
    terms.push_back(columnTerm("r.family = ? AND r.variant = ?", {f.family, f.variant}));
  else if (!f.family.empty())
    terms.push_back(columnTerm("r.family = ?", {f.family}));
  else if (!f.variant.empty())
    terms.push_back(columnTerm("r.variant = ?", {f.variant}));
  if (!f.dtype.empty()) terms.push_back(columnTerm("r.dtype = ?", {f.dtype}));
  if (!f.status.empty()) terms.push_back(columnTerm("r.status = ?", {f.status}));
  if (!f.device.empty())
    terms.push_back(columnTerm(
        "r.device_id IN (SELECT id FROM devices WHERE uuid = ? OR name LIKE ? ESCAPE '\\')",
        {f.device, likePattern(f.device)}));
  if (!f.tag.empty())
    terms.push_back({"r.id IN (SELECT run_id FROM tags WHERE tag = ?)",
                     "SELECT run_id FROM tags WHERE tag = ?",
                     {f.tag}});
  if (!f.text.empty()) terms.push_back(textTerm(f.text));
  if (f.since) terms.push_back(columnTerm("r.started_at >= ?", {*f.since}));
  if (f.until) terms.push_back(columnTerm("r.started_at < ?", {*f.until}));
  if (f.sweepId) terms.push_back(columnTerm("r.sweep_id = ?", {*f.sweepId}));
  return terms;
}

std::string whereClause(const std::vector<FilterTerm>& terms) {
  std::string sql;
  for (const auto& term : terms) sql += (sql.empty() ? " WHERE (" : " AND (") + term.where + ")";
  return sql;
}

std::vector<SqlValue> whereValues(const std::vector<FilterTerm>& terms) {
  std::vector<SqlValue> values;
  for (const auto& term : terms)
    values.insert(values.end(), term.values.begin(), term.values.end());
  return values;
}

void bindValues(Statement& statement, const std::vector<SqlValue>& values) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const int index = static_cast<int>(i + 1);
    if (const auto* text = std::get_if<std::string>(&values[i]))
      statement.bind(index, std::string_view(*text));
    else
      statement.bind(index, std::get<std::int64_t>(values[i]));
  }
}

}  // namespace kwb
