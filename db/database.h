#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace kwb {

class Statement;

// One SQLite connection: foreign keys on, a busy timeout so that the GUI and a worker can share
// the file. Opening writes nothing: whoever decides the file is theirs switches it to WAL
// (useWal). Errors throw Error(Database) with SQLite's message.
class Database {
 public:
  explicit Database(const std::string& path);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // The write-ahead log, so that readers never wait for a writer: a change to the file's header.
  void useWal();
  void exec(std::string_view sql);
  Statement prepare(std::string_view sql);
  std::int64_t lastInsertId() const;
  // Changes when another connection commits (PRAGMA data_version): what this one read may be
  // stale.
  std::int64_t dataVersion();
  int changes() const;
  const std::string& path() const { return path_; }

  sqlite3* handle() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

// A prepared statement. Parameters bind by name (":family") and columns read by name ("family",
// or the name after AS), so that a column added to a query cannot shift the others; a name the
// statement lacks throws Error(Internal). The indexed forms take 1-based parameter and 0-based
// column indexes, as SQLite does, for statements built from a list (filters, IN lists).
class Statement {
 public:
  Statement(Database& db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bindNull(int index);
  Statement& bind(int index, std::optional<std::int64_t> value);
  template <typename T>
  Statement& bind(const char* name, T value) {
    return bind(parameter(name), value);
  }

  bool step();  // true while there is a row
  void run();   // steps to the end
  void reset();

  std::int64_t int64(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  bool isNull(int column) const;
  std::int64_t int64(std::string_view name) const { return int64(column(name)); }
  double real(std::string_view name) const { return real(column(name)); }
  std::string text(std::string_view name) const { return text(column(name)); }
  bool isNull(std::string_view name) const { return isNull(column(name)); }

  int parameter(const char* name) const;
  int column(std::string_view name) const;

 private:
  Database* db_;
  sqlite3_stmt* stmt_ = nullptr;
  mutable std::vector<std::string> columns_;  // the result's column names, read once
  mutable std::size_t nextColumn_ = 0;        // where the next lookup by name starts
};

// Commits on commit(), rolls back when left without it (an exception, say).
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  void commit();

 private:
  Database& db_;
  bool nested_;
  bool done_ = false;
};

}  // namespace kwb
