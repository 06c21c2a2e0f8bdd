#pragma once

#include <optional>
#include <string>

namespace kwb {

class Database;

// Kernels' SASS listings kept in the history database, per binary version (fileFingerprint) and
// architecture: cuobjdump takes seconds on a large binary and may be missing where the database
// is read. Only the newest binaries are kept; a rebuild makes the old listings useless.
class SassCache {
 public:
  static constexpr int kKeptBinaries = 4;

  explicit SassCache(Database& db) : db_(db) {}

  std::optional<std::string> find(const std::string& binary, const std::string& arch,
                                  const std::string& symbol);
  // Stores a listing, then drops those of binaries older than the kKeptBinaries newest.
  void store(const std::string& binary, const std::string& arch, const std::string& symbol,
             const std::string& listing);

 private:
  Database& db_;
};

}  // namespace kwb
