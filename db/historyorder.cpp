#include "db/historyorder.h"

#include <algorithm>
#include <array>
#include <utility>

#include "db/database.h"
#include "db/filterterms.h"

namespace kwb {
namespace {

// Each sortable column and the keys its index (migrations.cpp) holds, the run's id implied last.
constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kOrderKeys{{
    {"started_at", "r.started_at"},
    {"kernel", "r.family, r.variant, r.started_at"},
    {"dtype", "r.dtype"},
    {"problem", "r.problem"},
    {"launch", "r.launch"},
    {"status", "r.status"},
    {"time_median_s", "r.time_median"},
    {"bandwidth_Bps", "r.bandwidth"},
    {"ceiling_fraction", "r.bandwidth / r.ceiling_bandwidth"},
    {"tags", "r.tags"},
}};

void appendIds(Statement& s, std::vector<std::int64_t>& out) {
  while (s.step()) out.push_back(s.int64(0));
}

}  // namespace

std::vector<std::int64_t> runsInOrder(Database& db, std::string_view column) {
  std::vector<std::int64_t> ids;
  if (column != "device") {
    auto s = db.prepare(historyOrderQuery(column));
    appendIds(s, ids);
    return ids;
  }
  // By device name, each device's runs in time order (runs_by_device); runs of no device first.
  auto none = db.prepare("SELECT id FROM runs WHERE device_id IS NULL ORDER BY started_at, id");
  appendIds(none, ids);
  auto devices = db.prepare("SELECT id FROM devices ORDER BY name, id");
  auto runs = db.prepare("SELECT id FROM runs WHERE device_id = ? ORDER BY started_at, id");
  while (devices.step()) {
    runs.bind(1, devices.int64(0));
    appendIds(runs, ids);
    runs.reset();
  }
  return ids;
}

std::string historyOrderQuery(std::string_view column) {
  std::string_view keys = kOrderKeys.front().second;
  for (const auto& [name, order] : kOrderKeys)
    if (name == column) keys = order;
  return "SELECT r.id FROM runs r ORDER BY " + std::string(keys) + ", r.id";
}

void keepMatching(Database& db, const HistoryFilter& filter, std::vector<std::int64_t>& ids) {
  const auto terms = filterTerms(filter);
  if (terms.empty()) return;
  // hits[id]: how many terms in a row, from the first, keep the run.
  std::int64_t last = 0;
  for (const std::int64_t id : ids) last = std::max(last, id);
  std::vector<std::uint8_t> hits(static_cast<std::size_t>(last) + 1);
  for (std::size_t t = 0; t < terms.size(); ++t) {
    auto s = db.prepare(terms[t].ids);
    bindValues(s, terms[t].values);
    while (s.step()) {
      const std::int64_t id = s.int64(0);
      if (id < 0 || id > last) continue;
      auto& hit = hits[static_cast<std::size_t>(id)];
      if (hit == t) hit = static_cast<std::uint8_t>(t + 1);
    }
  }
  std::erase_if(ids, [&](std::int64_t id) {
    return id < 0 || hits[static_cast<std::size_t>(id)] != terms.size();
  });
}

std::vector<std::int64_t> orderedRunIds(Database& db, const HistoryFilter& filter,
                                        std::string_view column, bool descending) {
  std::vector<std::int64_t> ids = runsInOrder(db, column);
  keepMatching(db, filter, ids);
  if (descending) std::reverse(ids.begin(), ids.end());
  return ids;
}

}  // namespace kwb
