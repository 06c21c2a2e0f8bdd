#include "db/database.h"

#include <sqlite3.h>
#include <unistd.h>

#include <utility>

#include "core/error.h"

namespace kwb {
namespace {
[[noreturn]] void fail(sqlite3* db, const std::string& what) {
  throw Error(ErrorKind::Database, what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}
}  // namespace

Database::Database(const std::string& path) : path_(path) {
  // A file we may not write is opened read-only: reading it then leaves nothing beside it.
  const bool writable = ::access(path.c_str(), F_OK) != 0 || ::access(path.c_str(), W_OK) == 0;
  const int flags = writable ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    std::string message =
        "cannot open database " + path + ": " + (db_ ? sqlite3_errmsg(db_) : "out of memory");
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error(ErrorKind::Database, message);
  }
  sqlite3_busy_timeout(db_, 5000);
  exec("PRAGMA foreign_keys = ON");
  // Pages read through a mapping, not a system call each: walking an index of a million runs
  // (the history page's order) takes a fifth of the time.
  exec("PRAGMA mmap_size = 1073741824");
}

void Database::useWal() {
  if (sqlite3_db_readonly(db_, "main") == 1) return;  // the file keeps the mode it has
  exec("PRAGMA journal_mode = WAL");
  exec("PRAGMA synchronous = NORMAL");
}

Database::~Database() {
  sqlite3_close(db_);
}

void Database::exec(std::string_view sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, std::string(sql).c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    throw Error(ErrorKind::Database, "SQL failed in " + path_ + ": " + text);
  }
}

Statement Database::prepare(std::string_view sql) {
  return Statement(*this, sql);
}

std::int64_t Database::dataVersion() {
  auto s = prepare("PRAGMA data_version");
  s.step();
  return s.int64(0);
}

std::int64_t Database::lastInsertId() const {
  return sqlite3_last_insert_rowid(db_);
}

int Database::changes() const {
  return sqlite3_changes(db_);
}

Statement::Statement(Database& db, std::string_view sql) : db_(&db) {
  if (sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
      SQLITE_OK)
    fail(db.handle(), "cannot prepare '" + std::string(sql.substr(0, 60)) + "'");
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_),
      stmt_(std::exchange(other.stmt_, nullptr)),
      columns_(std::move(other.columns_)),
      nextColumn_(other.nextColumn_) {}

Statement& Statement::bind(int index, std::int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) fail(db_->handle(), "bind");
  return *this;
}

Statement& Statement::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) fail(db_->handle(), "bind");
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  if (sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK)
    fail(db_->handle(), "bind");
  return *this;
}

Statement& Statement::bindNull(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) fail(db_->handle(), "bind");
  return *this;
}

Statement& Statement::bind(int index, std::optional<std::int64_t> value) {
  return value ? bind(index, *value) : bindNull(index);
}

int Statement::parameter(const char* name) const {
  const int index = sqlite3_bind_parameter_index(stmt_, name);
  if (index == 0)
    throw Error(ErrorKind::Internal, "the statement has no parameter " + std::string(name));
  return index;
}

int Statement::column(std::string_view name) const {
  if (columns_.empty())
    for (int c = 0; c < sqlite3_column_count(stmt_); ++c)
      columns_.emplace_back(sqlite3_column_name(stmt_, c));
  // Rows are read the same way each time: look where the last lookup ended first.
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const std::size_t c = (nextColumn_ + k) % columns_.size();
    if (columns_[c] == name) {
      nextColumn_ = c + 1;
      return static_cast<int>(c);
    }
  }
  throw Error(ErrorKind::Internal, "the statement has no column " + std::string(name));
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_->handle(), "step");
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}
double Statement::real(int column) const {
  return sqlite3_column_double(stmt_, column);
}
bool Statement::isNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}
std::string Statement::text(int column) const {
  const auto* p = sqlite3_column_text(stmt_, column);
  return p ? reinterpret_cast<const char*>(p) : "";
}

// Inside another transaction a savepoint stands in, so that writes compose: a batch of inserts
// can run as one transaction while each insert keeps its own all-or-nothing guarantee.
Transaction::Transaction(Database& db)
    : db_(db), nested_(sqlite3_get_autocommit(db.handle()) == 0) {
  db_.exec(nested_ ? "SAVEPOINT kwb_nested" : "BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
  if (!done_) {
    try {
      db_.exec(nested_ ? "ROLLBACK TO kwb_nested; RELEASE kwb_nested" : "ROLLBACK");
    } catch (...) {  // a failed rollback leaves SQLite to roll back on close
    }
  }
}

void Transaction::commit() {
  db_.exec(nested_ ? "RELEASE kwb_nested" : "COMMIT");
  done_ = true;
}

}  // namespace kwb
