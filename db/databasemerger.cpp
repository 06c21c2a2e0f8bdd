#include "db/databasemerger.h"

#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "db/database.h"
#include "db/runstore.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;

// A temporary copy of the source, with its write-ahead log (runs written since the last
// checkpoint live there), removed however the merge ends.
class SourceCopy {
 public:
  explicit SourceCopy(const std::string& source) {
    std::error_code error;
    if (!fs::is_regular_file(source, error))
      throw Error(ErrorKind::Database, source + ": no such history database");
    if (fs::file_size(source, error) == 0)
      throw Error(ErrorKind::Database, source + " is empty: not a history database");
    path_ = fs::temp_directory_path() /
            ("kwb-merge-" + std::to_string(std::random_device{}()) + ".sqlite");
    copy(source, path_.string());
    if (fs::exists(source + "-wal", error)) copy(source + "-wal", path_.string() + "-wal");
  }
  ~SourceCopy() {
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path_.string() + suffix, ignored);
  }
  SourceCopy(const SourceCopy&) = delete;
  SourceCopy& operator=(const SourceCopy&) = delete;
  std::string path() const { return path_.string(); }

 private:
  static void copy(const std::string& from, const std::string& to) {
    std::error_code error;
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, error);
    if (error) throw Error(ErrorKind::Database, from + ": cannot be read: " + error.message());
  }

  fs::path path_;
};

// The source as a history; errors name the user's file, not the copy.
std::unique_ptr<RunStore> openSource(const SourceCopy& copy, const std::string& sourcePath) {
  try {
    return std::make_unique<RunStore>(copy.path());
  } catch (const Error& e) {
    std::string message = e.what();
    for (std::size_t at; (at = message.find(copy.path())) != std::string::npos;)
      message.replace(at, copy.path().size(), sourcePath);
    throw Error(e.kind(), message);
  }
}

}  // namespace

std::string runIdentity(const RunResult& r) {
  return r.deviceUuid + '\n' + std::to_string(r.startedAt) + '\n' + r.family + '\n' + r.variant +
         '\n' + r.problem.toText() + '\n' + r.launch.toText() + '\n' +
         std::string(toString(r.mode));
}

MergeOutcome mergeDatabase(RunStore& target, const std::string& sourcePath,
                           std::optional<std::int64_t> intoSweep) {
  const SourceCopy copy(sourcePath);
  const std::unique_ptr<RunStore> store = openSource(copy, sourcePath);
  RunStore& source = *store;
  MergeOutcome outcome;

  for (const DeviceInfo& device : source.devices()) {
    target.upsertDevice(device);
    ++outcome.devices;
    const auto ceiling = source.latestCeiling(device.uuid);
    const auto known = target.latestCeiling(device.uuid);
    if (ceiling && (!known || known->measuredAt != ceiling->measuredAt))
      target.saveCeiling(device.uuid, *ceiling);
  }

  std::set<std::string> present;
  target.forEach({}, [&](RunRecord&& r) { present.insert(runIdentity(r.result)); });

  // Source sweeps become target sweeps the first time one of their runs is added.
  std::map<std::int64_t, std::int64_t> sweeps;
  const auto sweepFor = [&](std::int64_t sourceId) {
    if (intoSweep) return *intoSweep;
    if (const auto found = sweeps.find(sourceId); found != sweeps.end()) return found->second;
    auto s =
        source.database().prepare("SELECT family, variant, base, axes FROM sweeps WHERE id = ?");
    s.bind(1, sourceId);
    if (!s.step()) throw Error(ErrorKind::Database, sourcePath + ": a run's sweep is missing");
    const std::int64_t id = target.createSweep(
        s.text(0), s.text(1), nlohmann::json::parse(s.text(2)), nlohmann::json::parse(s.text(3)));
    sweeps.emplace(sourceId, id);
    return id;
  };

  std::vector<std::int64_t> ids;
  HistoryFilter oldestFirst;
  oldestFirst.newestFirst = false;
  source.forEach(oldestFirst, [&](RunRecord&& r) { ids.push_back(r.id); });
  for (std::int64_t id : ids) {
    const std::optional<RunRecord> record = source.run(id);
    if (!record) continue;
    if (!present.insert(runIdentity(record->result)).second) {
      ++outcome.duplicates;
      continue;
    }
    const std::optional<std::int64_t> sweep =
        record->sweepId ? std::optional<std::int64_t>(sweepFor(*record->sweepId)) : std::nullopt;
    const std::int64_t added = target.insertRun(record->result, sweep);
    for (const auto& tag : record->tags) target.addTag(added, tag);
    for (const auto& note : source.notes(id)) target.addNote(added, note.text);
    ++outcome.runs;
  }
  return outcome;
}

}  // namespace kwb
