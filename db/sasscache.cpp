#include "db/sasscache.h"

#include "core/timeformat.h"
#include "db/database.h"

namespace kwb {

std::optional<std::string> SassCache::find(const std::string& binary, const std::string& arch,
                                           const std::string& symbol) {
  auto s =
      db_.prepare("SELECT listing FROM sass_listings WHERE binary = ? AND arch = ? AND symbol = ?");
  s.bind(1, binary).bind(2, arch).bind(3, symbol);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

void SassCache::store(const std::string& binary, const std::string& arch, const std::string& symbol,
                      const std::string& listing) {
  Transaction transaction(db_);
  db_.prepare(
         "INSERT OR REPLACE INTO sass_listings (binary, arch, symbol, listing, stored_at) "
         "VALUES (?, ?, ?, ?, ?)")
      .bind(1, binary)
      .bind(2, arch)
      .bind(3, symbol)
      .bind(4, listing)
      .bind(5, nowUnixMs())
      .run();
  db_.prepare(
         "DELETE FROM sass_listings WHERE binary NOT IN (SELECT binary FROM sass_listings "
         "GROUP BY binary ORDER BY max(stored_at) DESC, binary LIMIT ?)")
      .bind(1, static_cast<std::int64_t>(kKeptBinaries))
      .run();
  transaction.commit();
}

}  // namespace kwb
