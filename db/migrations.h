#pragma once

namespace kwb {

class Database;

// The schema version this build writes (PRAGMA user_version).
int latestSchemaVersion();

// Ours in the file's header (PRAGMA application_id): "KWB1".
inline constexpr int kApplicationId = 0x4B574231;

// Refuses, with Error(Database) naming the file, what is not a history this build may open: a
// damaged file or one that is no SQLite database, another application's database, a history
// written by a newer build. Reads the header only: a refused file is left as it was. An empty
// file, or none, is a new history.
void checkHistoryFile(Database& db);

// Brings the database to latestSchemaVersion(), one migration per transaction, and marks it as
// ours. Call checkHistoryFile first.
void migrate(Database& db);

int schemaVersion(Database& db);

}  // namespace kwb
