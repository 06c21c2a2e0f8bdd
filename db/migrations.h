#pragma once

namespace kwb {

class Database;

// The schema version this build writes (PRAGMA user_version).
int latestSchemaVersion();

// Brings the database to latestSchemaVersion(), one migration per transaction. Refuses, with
// Error(Database), a database written by a newer build: nothing in it is touched.
void migrate(Database& db);

int schemaVersion(Database& db);

}  // namespace kwb
