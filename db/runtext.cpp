#include "db/runtext.h"

#include "core/jsoncodec.h"
#include "core/valueparse.h"
#include "db/database.h"

namespace kwb {
namespace {

std::string searchText(const std::string& family, const std::string& variant,
                       const ParamSet& problem, const ParamSet& launch, const std::string& file,
                       const std::string& error) {
  std::string text = family + "/" + variant + " " + problem.toText() + " " + launch.toText();
  // A value the table shows as a power of two is found by its digits too.
  for (const ParamSet* params : {&problem, &launch})
    for (const auto& [name, value] : params->values())
      if (const auto number = parseInteger(value); number && formatInteger(*number) != value)
        text += " " + name + "=" + value;
  if (!file.empty()) text += " " + file;
  if (!error.empty()) text += " " + error;
  return text;
}

}  // namespace

std::string runSearchText(const RunResult& r) {
  return searchText(r.family, r.variant, r.problem, r.launch, r.code ? r.code->file : "", r.error);
}

void indexRunText(Database& db, std::int64_t runId, const std::string& text) {
  auto s = db.prepare("INSERT INTO run_text (rowid, text) VALUES (?, ?)");
  s.bind(1, runId).bind(2, std::string_view(text)).run();
}

void indexStoredRunTexts(Database& db) {
  auto runs =
      db.prepare("SELECT id, family, variant, problem, launch, kernel_file, error FROM runs");
  auto insert = db.prepare("INSERT INTO run_text (rowid, text) VALUES (?, ?)");
  while (runs.step()) {
    const auto params = [&](int column) {
      return paramSetFromJson(nlohmann::json::parse(runs.text(column)));
    };
    const std::string text =
        searchText(runs.text(1), runs.text(2), params(3), params(4), runs.text(5), runs.text(6));
    insert.bind(1, runs.int64(0)).bind(2, std::string_view(text)).run();
    insert.reset();
  }
}

}  // namespace kwb
