#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ceilings.h"
#include "core/deviceinfo.h"
#include "core/paramset.h"
#include "core/runrecord.h"
#include "core/runresult.h"
#include "db/historyfilter.h"

namespace kwb {

class Database;

// A sweep's or a tuning's row: what it ran over, as given.
struct SweepRecord {
  std::int64_t id = 0;
  std::string family;
  std::string variant;
  nlohmann::json base;
  nlohmann::json axes;
};

// A run as a plot of many runs needs it: its problem and launch as stored (JSON), so that reading
// ten thousand of them parses neither.
struct RunPoint {
  std::int64_t id = 0;
  std::int64_t startedAt = 0;
  std::string family, variant, device, problem, launch;
  std::size_t samples = 0;
  double median = 0, min = 0, max = 0, bandwidth = 0, ceilingBandwidth = 0;
};

struct Note {
  std::int64_t id = 0;
  std::string text;
  std::int64_t createdAt = 0;
};

// The run history: every run with its device, samples, metrics, tags and notes. Opening
// migrates the schema; each write is one transaction, so a failure loses nothing stored.
class RunStore {
 public:
  explicit RunStore(const std::string& path);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  const std::string& path() const;

  void upsertDevice(const DeviceInfo& device);
  std::vector<DeviceInfo> devices();

  std::int64_t createSweep(const std::string& family, const std::string& variant,
                           const nlohmann::json& base, const nlohmann::json& axes);
  std::optional<SweepRecord> sweep(std::int64_t id);
  // The run's device must have been upserted; its samples and metrics are stored with it.
  std::int64_t insertRun(const RunResult& result, std::optional<std::int64_t> sweepId = {});
  // The same, then each of `tags` added to the run (a job's tags, "lesson:permute-5-padding").
  std::int64_t insertRun(const RunResult& result, std::optional<std::int64_t> sweepId,
                         const std::vector<std::string>& tags);

  std::vector<RunRecord> query(const HistoryFilter& filter);
  // The same runs one at a time, so that a caller keeping less than a RunRecord per run never
  // holds them all.
  void forEach(const HistoryFilter& filter, const std::function<void(RunRecord&&)>& visit);
  std::size_t count(const HistoryFilter& filter);
  // The runs with these ids, without samples, in the given order; ids of no run are left out.
  std::vector<RunRecord> runs(std::span<const std::int64_t> ids);
  // The runs with these ids as points, in no particular order.
  void forEachPoint(std::span<const std::int64_t> ids,
                    const std::function<void(const RunPoint&)>& visit);
  // One run in full: samples, metrics and, for a user kernel, its code included.
  std::optional<RunRecord> run(std::int64_t id);
  // The code a run of a kernel file ran. Throws Error(Usage) for no such run or a run of a
  // built-in variant, Error(Database) where its text is missing.
  KernelCode kernelCode(std::int64_t id);
  // Distinct values of a run column ("family", "variant", "dtype") for filter menus.
  std::vector<std::string> distinct(const std::string& column);

  std::size_t deleteRuns(std::span<const std::int64_t> ids);
  void addTag(std::int64_t runId, const std::string& tag);
  void removeTag(std::int64_t runId, const std::string& tag);
  std::int64_t addNote(std::int64_t runId, const std::string& text);
  std::vector<Note> notes(std::int64_t runId);

  void saveCeiling(const std::string& deviceUuid, const CopyCeiling& ceiling);
  std::optional<CopyCeiling> latestCeiling(const std::string& deviceUuid);
  // Ceilings measured on an upserted device (core/ceilings.h).
  void saveDeviceCeilings(const std::string& deviceUuid,
                          const std::vector<DeviceCeiling>& ceilings);
  // The latest measurement of each ceiling of the device, in kCeilings' order.
  std::vector<DeviceCeiling> deviceCeilings(const std::string& deviceUuid);

  Database& database() { return *db_; }

 private:
  void requireRun(std::int64_t runId);

  std::unique_ptr<Database> db_;
};

}  // namespace kwb
