#pragma once

#include <cstdint>
#include <string>

#include "core/runresult.h"

namespace kwb {

class Database;

// The words the history's free-text filter finds a run by: its kernel, its problem and launch as
// the table shows them (n=2^20) and as typed (n=1048576), its kernel file and its error. Tags and
// notes are searched where they are stored.
std::string runSearchText(const RunResult& run);

// Puts a run's words in the trigram index (run_text) that the text filter reads.
void indexRunText(Database& db, std::int64_t runId, const std::string& text);

// Indexes every stored run's words: the migration that made the index, for runs stored before it.
void indexStoredRunTexts(Database& db);

}  // namespace kwb
