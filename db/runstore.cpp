#include "db/runstore.h"

#include <set>
#include <unordered_map>

#include "core/error.h"
#include "core/jsoncodec.h"
#include "core/timeformat.h"
#include "db/database.h"
#include "db/filterterms.h"
#include "db/migrations.h"
#include "db/runtext.h"

namespace kwb {
namespace {

// Each column named as readRun reads it.
constexpr const char* kRunColumns =
    "r.id AS id, r.sweep_id AS sweep_id, COALESCE(d.name, '') AS device_name, "
    "COALESCE(d.uuid, '') AS device_uuid, r.family AS family, r.variant AS variant, "
    "r.problem AS problem, r.launch AS launch, r.derived AS derived, r.mode AS mode, "
    "r.status AS status, r.error AS error, r.verified AS verified, "
    "r.verify_passed AS verify_passed, r.verify_rel_error AS verify_rel_error, "
    "r.verify_tolerance AS verify_tolerance, r.sample_count AS sample_count, "
    "r.time_min AS time_min, r.time_median AS time_median, r.time_mean AS time_mean, "
    "r.time_max AS time_max, r.time_stddev AS time_stddev, r.converged AS converged, "
    "r.bytes AS bytes, r.bandwidth AS bandwidth, r.ceiling_bandwidth AS ceiling_bandwidth, "
    "r.peak_bandwidth AS peak_bandwidth, r.app_version AS app_version, "
    "r.started_at AS started_at, r.notice AS notice, r.kernel_file AS kernel_file, "
    "r.source_hash AS source_hash, r.l2_flush AS l2_flush, r.event_overhead AS event_overhead, "
    "r.flops AS flops, "
    "r.tags AS tags";

ParamSet paramsOf(const Statement& s, std::string_view column) {
  return paramSetFromJson(nlohmann::json::parse(s.text(column)));
}

RunRecord readRun(const Statement& s) {
  RunRecord record;
  record.id = s.int64("id");
  if (!s.isNull("sweep_id")) record.sweepId = s.int64("sweep_id");
  record.deviceName = s.text("device_name");
  RunResult& r = record.result;
  r.deviceUuid = s.text("device_uuid");
  r.family = s.text("family");
  r.variant = s.text("variant");
  r.problem = paramsOf(s, "problem");
  r.launch = paramsOf(s, "launch");
  r.derived = paramsOf(s, "derived");
  r.mode = parseTimingMode(s.text("mode")).value_or(TimingMode::Cold);
  r.flush = parseL2Flush(s.text("l2_flush")).value_or(legacyFlush(r.mode));
  r.eventOverhead = s.real("event_overhead");
  r.status = parseRunStatus(s.text("status")).value_or(RunStatus::Failed);
  r.error = s.text("error");
  r.verification = {s.int64("verified") != 0, s.int64("verify_passed") != 0,
                    s.real("verify_rel_error"), s.real("verify_tolerance")};
  r.stats.count = static_cast<std::size_t>(s.int64("sample_count"));
  r.stats.min = s.real("time_min");
  r.stats.median = s.real("time_median");
  r.stats.mean = s.real("time_mean");
  r.stats.max = s.real("time_max");
  r.stats.stddev = s.real("time_stddev");
  r.converged = s.int64("converged") != 0;
  r.bytes = static_cast<std::uint64_t>(s.int64("bytes"));
  if (!s.isNull("flops")) r.flops = s.real("flops");
  r.bandwidth = s.real("bandwidth");
  r.ceilingBandwidth = s.real("ceiling_bandwidth");
  r.peakBandwidth = s.real("peak_bandwidth");
  r.appVersion = s.text("app_version");
  r.startedAt = s.int64("started_at");
  const std::string tags = s.text("tags");
  for (std::size_t start = 0; start < tags.size();) {
    auto end = tags.find('\n', start);
    if (end == std::string::npos) end = tags.size();
    record.tags.push_back(tags.substr(start, end - start));
    start = end + 1;
  }
  r.notice = s.text("notice");
  // The code's text is read with one run (RunStore::run), not with every row of a list.
  if (const std::string hash = s.text("source_hash"); !hash.empty())
    r.code = KernelCode{s.text("kernel_file"), hash, {}, {}};
  return record;
}

// Ids as a JSON array, for "IN (SELECT value FROM json_each(?))": one parameter for any number.
std::string idList(std::span<const std::int64_t> ids) {
  std::string list = "[";
  for (const std::int64_t id : ids) list += std::to_string(id) + ",";
  if (list.size() > 1) list.pop_back();
  return list + "]";
}

}  // namespace

RunStore::RunStore(const std::string& path) : db_(std::make_unique<Database>(path)) {
  checkHistoryFile(*db_);  // before anything is written
  db_->useWal();
  migrate(*db_);
}

RunStore::~RunStore() = default;

const std::string& RunStore::path() const {
  return db_->path();
}

void RunStore::upsertDevice(const DeviceInfo& d) {
  auto s = db_->prepare(
      "INSERT INTO devices (uuid, name, compute_capability, sm_count, max_threads_per_sm, "
      "max_threads_per_block, l2_bytes, mem_bus_bits, mem_clock_khz, total_mem_bytes, "
      "peak_bandwidth, driver_version, runtime_version, first_seen) "
      "VALUES (:uuid, :name, :cc, :sms, :threads_per_sm, :threads_per_block, :l2, :bus_bits, "
      ":mem_clock, :mem_bytes, :peak, :driver, :runtime, :now) ON CONFLICT(uuid) DO UPDATE SET "
      "name = excluded.name, driver_version = excluded.driver_version, "
      "runtime_version = excluded.runtime_version, mem_clock_khz = excluded.mem_clock_khz, "
      "peak_bandwidth = excluded.peak_bandwidth");
  const std::string cc = d.computeCapability();
  s.bind(":uuid", std::string_view(d.uuid)).bind(":name", std::string_view(d.name));
  s.bind(":cc", std::string_view(cc));
  s.bind(":sms", std::int64_t{d.smCount}).bind(":threads_per_sm", std::int64_t{d.maxThreadsPerSm});
  s.bind(":threads_per_block", std::int64_t{d.maxThreadsPerBlock}).bind(":l2", d.l2Bytes);
  s.bind(":bus_bits", std::int64_t{d.memBusBits}).bind(":mem_clock", d.memClockKhz);
  s.bind(":mem_bytes", static_cast<std::int64_t>(d.totalMemBytes)).bind(":peak", d.peakBandwidth);
  s.bind(":driver", std::int64_t{d.driverVersion}).bind(":runtime", std::int64_t{d.runtimeVersion});
  s.bind(":now", nowUnixMs());
  s.run();
}

std::vector<DeviceInfo> RunStore::devices() {
  auto s = db_->prepare(
      "SELECT uuid, name, compute_capability, sm_count, max_threads_per_sm, "
      "max_threads_per_block, l2_bytes, mem_bus_bits, mem_clock_khz, total_mem_bytes, "
      "peak_bandwidth, driver_version, runtime_version FROM devices ORDER BY first_seen");
  std::vector<DeviceInfo> out;
  while (s.step()) {
    DeviceInfo d;
    d.uuid = s.text("uuid");
    d.name = s.text("name");
    const std::string cc = s.text("compute_capability");
    d.ccMajor = std::stoi(cc);
    d.ccMinor = std::stoi(cc.substr(cc.find('.') + 1));
    d.smCount = static_cast<int>(s.int64("sm_count"));
    d.maxThreadsPerSm = static_cast<int>(s.int64("max_threads_per_sm"));
    d.maxThreadsPerBlock = static_cast<int>(s.int64("max_threads_per_block"));
    d.l2Bytes = s.int64("l2_bytes");
    d.memBusBits = static_cast<int>(s.int64("mem_bus_bits"));
    d.memClockKhz = s.int64("mem_clock_khz");
    d.totalMemBytes = static_cast<std::uint64_t>(s.int64("total_mem_bytes"));
    d.peakBandwidth = s.real("peak_bandwidth");
    d.driverVersion = static_cast<int>(s.int64("driver_version"));
    d.runtimeVersion = static_cast<int>(s.int64("runtime_version"));
    out.push_back(std::move(d));
  }
  return out;
}

std::int64_t RunStore::createSweep(const std::string& family, const std::string& variant,
                                   const nlohmann::json& base, const nlohmann::json& axes) {
  auto s = db_->prepare(
      "INSERT INTO sweeps (family, variant, base, axes, created_at) VALUES (?, ?, ?, ?, ?)");
  s.bind(1, std::string_view(family)).bind(2, std::string_view(variant));
  s.bind(3, std::string_view(base.dump()))
      .bind(4, std::string_view(axes.dump()))
      .bind(5, nowUnixMs());
  s.run();
  return db_->lastInsertId();
}

std::optional<SweepRecord> RunStore::sweep(std::int64_t id) {
  auto s = db_->prepare("SELECT family, variant, base, axes FROM sweeps WHERE id = ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return SweepRecord{id, s.text(0), s.text(1), nlohmann::json::parse(s.text(2), nullptr, false),
                     nlohmann::json::parse(s.text(3), nullptr, false)};
}

std::int64_t RunStore::insertRun(const RunResult& r, std::optional<std::int64_t> sweepId) {
  Transaction transaction(*db_);
  auto s = db_->prepare(
      "INSERT INTO runs (device_id, sweep_id, family, variant, dtype, problem, launch, derived, "
      "mode, status, error, verified, verify_passed, verify_rel_error, verify_tolerance, "
      "sample_count, time_min, time_median, time_mean, time_max, time_stddev, converged, bytes, "
      "bandwidth, ceiling_bandwidth, peak_bandwidth, app_version, started_at, notice, "
      "kernel_file, source_hash, l2_flush, event_overhead, flops) VALUES ("
      "(SELECT id FROM devices WHERE uuid = :device_uuid), :sweep_id, :family, :variant, :dtype, "
      ":problem, :launch, :derived, :mode, :status, :error, :verified, :verify_passed, "
      ":verify_rel_error, :verify_tolerance, :sample_count, :time_min, :time_median, :time_mean, "
      ":time_max, :time_stddev, :converged, :bytes, :bandwidth, :ceiling_bandwidth, "
      ":peak_bandwidth, :app_version, :started_at, :notice, :kernel_file, :source_hash, :l2_flush, "
      ":event_overhead, :flops)");
  s.bind(":device_uuid", std::string_view(r.deviceUuid));
  s.bind(":sweep_id", sweepId);
  s.bind(":family", std::string_view(r.family));
  s.bind(":variant", std::string_view(r.variant));
  s.bind(":dtype", std::string_view(r.dtype()));
  const std::string problem = toJson(r.problem).dump(), launch = toJson(r.launch).dump(),
                    derived = toJson(r.derived).dump();
  s.bind(":problem", std::string_view(problem));
  s.bind(":launch", std::string_view(launch));
  s.bind(":derived", std::string_view(derived));
  s.bind(":mode", toString(r.mode));
  s.bind(":status", toString(r.status));
  s.bind(":error", std::string_view(r.error));
  s.bind(":verified", std::int64_t{r.verification.checked});
  s.bind(":verify_passed", std::int64_t{r.verification.passed});
  s.bind(":verify_rel_error", r.verification.relError);
  s.bind(":verify_tolerance", r.verification.tolerance);
  s.bind(":sample_count", static_cast<std::int64_t>(r.stats.count));
  s.bind(":time_min", r.stats.min);
  s.bind(":time_median", r.stats.median);
  s.bind(":time_mean", r.stats.mean);
  s.bind(":time_max", r.stats.max);
  s.bind(":time_stddev", r.stats.stddev);
  s.bind(":converged", std::int64_t{r.converged});
  s.bind(":bytes", static_cast<std::int64_t>(r.bytes));
  s.bind(":bandwidth", r.bandwidth);
  s.bind(":ceiling_bandwidth", r.ceilingBandwidth);
  s.bind(":peak_bandwidth", r.peakBandwidth);
  s.bind(":app_version", std::string_view(r.appVersion));
  s.bind(":started_at", r.startedAt);
  s.bind(":notice", std::string_view(r.notice));
  s.bind(":kernel_file", std::string_view(r.code ? r.code->file : std::string()));
  s.bind(":source_hash", std::string_view(r.code ? r.code->hash : std::string()));
  s.bind(":l2_flush", toString(r.flush));
  s.bind(":event_overhead", r.eventOverhead);
  if (r.flops)
    s.bind(":flops", *r.flops);
  else
    s.bindNull(s.parameter(":flops"));
  s.run();
  const std::int64_t id = db_->lastInsertId();
  indexRunText(*db_, id, runSearchText(r));
  if (r.code && !r.code->source.empty()) {
    auto code =
        db_->prepare("INSERT OR IGNORE INTO kernel_sources (hash, source, spec) VALUES (?, ?, ?)");
    code.bind(1, std::string_view(r.code->hash))
        .bind(2, std::string_view(r.code->source))
        .bind(3, std::string_view(r.code->spec));
    code.run();
  }

  std::vector<bool> throttled(r.samples.size());
  for (std::size_t k : r.throttledSamples)
    if (k < throttled.size()) throttled[k] = true;
  auto sample =
      db_->prepare("INSERT INTO samples (run_id, seq, seconds, throttled) VALUES (?, ?, ?, ?)");
  for (std::size_t k = 0; k < r.samples.size(); ++k) {
    sample.bind(1, id).bind(2, static_cast<std::int64_t>(k)).bind(3, r.samples[k]);
    sample.bind(4, std::int64_t{throttled[k]});
    sample.run();
    sample.reset();
  }
  auto metric = db_->prepare(
      "INSERT INTO metrics (run_id, name, kernel, value, unit) VALUES (?, ?, ?, ?, ?)");
  for (const auto& m : r.metrics) {
    metric.bind(1, id).bind(2, std::string_view(m.name)).bind(3, std::string_view(m.kernel));
    metric.bind(4, m.value).bind(5, std::string_view(m.unit));
    metric.run();
    metric.reset();
  }
  transaction.commit();
  return id;
}

std::vector<RunRecord> RunStore::query(const HistoryFilter& filter) {
  std::vector<RunRecord> out;
  forEach(filter, [&](RunRecord&& record) { out.push_back(std::move(record)); });
  return out;
}

void RunStore::forEach(const HistoryFilter& filter, const std::function<void(RunRecord&&)>& visit) {
  const auto terms = filterTerms(filter);
  std::string sql = std::string("SELECT ") + kRunColumns +
                    " FROM runs r LEFT JOIN devices d ON d.id = r.device_id" + whereClause(terms) +
                    " ORDER BY r.started_at " + (filter.newestFirst ? "DESC" : "ASC") + ", r.id " +
                    (filter.newestFirst ? "DESC" : "ASC");
  if (filter.limit > 0)
    sql += " LIMIT " + std::to_string(filter.limit) + " OFFSET " + std::to_string(filter.offset);
  auto s = db_->prepare(sql);
  bindValues(s, whereValues(terms));
  while (s.step()) visit(readRun(s));
}

std::vector<RunRecord> RunStore::runs(std::span<const std::int64_t> ids) {
  std::unordered_map<std::int64_t, std::size_t> position;
  for (std::size_t i = 0; i < ids.size(); ++i) position.emplace(ids[i], i);
  auto s = db_->prepare(std::string("SELECT ") + kRunColumns +
                        " FROM runs r LEFT JOIN devices d ON d.id = r.device_id WHERE r.id IN "
                        "(SELECT value FROM json_each(?))");
  const std::string list = idList(ids);
  s.bind(1, std::string_view(list));
  std::vector<std::optional<RunRecord>> found(ids.size());
  while (s.step()) {
    RunRecord record = readRun(s);
    found[position.at(record.id)] = std::move(record);
  }
  std::vector<RunRecord> out;
  for (auto& record : found)
    if (record) out.push_back(std::move(*record));
  return out;
}

void RunStore::forEachPoint(std::span<const std::int64_t> ids,
                            const std::function<void(const RunPoint&)>& visit) {
  // Looked up one by one, a few thousand runs; many more are fewer steps read in one pass over
  // the table, kept by a bitmap of their ids.
  constexpr std::size_t kMostLookedUp = 20'000;
  const bool scan = ids.size() > kMostLookedUp;
  std::vector<bool> wanted;
  if (scan)
    for (const std::int64_t id : ids) {
      if (id < 0) continue;
      if (static_cast<std::size_t>(id) >= wanted.size())
        wanted.resize(static_cast<std::size_t>(id) + 1);
      wanted[static_cast<std::size_t>(id)] = true;
    }
  auto s = db_->prepare(
      std::string("SELECT r.id, r.started_at, r.family, r.variant, COALESCE(d.name, ''), "
                  "r.problem, r.launch, r.sample_count, r.time_median, r.time_min, r.time_max, "
                  "r.bandwidth, r.ceiling_bandwidth FROM runs r LEFT JOIN devices d ON d.id = "
                  "r.device_id") +
      (scan ? "" : " WHERE r.id IN (SELECT value FROM json_each(?))"));
  const std::string list = scan ? std::string() : idList(ids);
  if (!scan) s.bind(1, std::string_view(list));
  RunPoint p;
  while (s.step()) {
    p.id = s.int64(0);
    if (scan && (static_cast<std::size_t>(p.id) >= wanted.size() ||
                 !wanted[static_cast<std::size_t>(p.id)]))
      continue;
    p.startedAt = s.int64(1);
    p.family = s.text(2);
    p.variant = s.text(3);
    p.device = s.text(4);
    p.problem = s.text(5);
    p.launch = s.text(6);
    p.samples = static_cast<std::size_t>(s.int64(7));
    p.median = s.real(8);
    p.min = s.real(9);
    p.max = s.real(10);
    p.bandwidth = s.real(11);
    p.ceilingBandwidth = s.real(12);
    visit(p);
  }
}

std::size_t RunStore::count(const HistoryFilter& filter) {
  const auto terms = filterTerms(filter);
  auto s = db_->prepare("SELECT count(*) FROM runs r" + whereClause(terms));
  bindValues(s, whereValues(terms));
  s.step();
  return static_cast<std::size_t>(s.int64(0));
}

std::optional<RunRecord> RunStore::run(std::int64_t id) {
  auto s = db_->prepare(std::string("SELECT ") + kRunColumns +
                        " FROM runs r LEFT JOIN devices d ON d.id = r.device_id WHERE r.id = ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  RunRecord record = readRun(s);
  auto samples =
      db_->prepare("SELECT seconds, throttled FROM samples WHERE run_id = ? ORDER BY seq");
  samples.bind(1, id);
  while (samples.step()) {
    if (samples.int64(1) != 0)
      record.result.throttledSamples.push_back(record.result.samples.size());
    record.result.samples.push_back(samples.real(0));
  }
  // Run-level values first, then each kernel's.
  auto metrics = db_->prepare(
      "SELECT name, value, unit, kernel FROM metrics WHERE run_id = ? ORDER BY kernel != '', "
      "kernel, name");
  metrics.bind(1, id);
  while (metrics.step())
    record.result.metrics.push_back(
        {metrics.text(0), metrics.real(1), metrics.text(2), metrics.text(3)});
  if (auto& code = record.result.code) {
    auto text = db_->prepare("SELECT source, spec FROM kernel_sources WHERE hash = ?");
    text.bind(1, std::string_view(code->hash));
    if (text.step()) {
      code->source = text.text(0);
      code->spec = text.text(1);
    }
  }
  return record;
}

KernelCode RunStore::kernelCode(std::int64_t id) {
  const auto record = run(id);
  if (!record) throw Error(ErrorKind::Usage, "no run " + std::to_string(id) + " in the history");
  if (!record->result.code)
    throw Error(ErrorKind::Usage, "run " + std::to_string(id) + " is of the built-in variant " +
                                      record->result.family + "/" + record->result.variant +
                                      ", not of a kernel file");
  if (record->result.code->source.empty())
    throw Error(ErrorKind::Database, "the code of run " + std::to_string(id) + " is missing");
  return *record->result.code;
}

std::vector<std::string> RunStore::distinct(const std::string& column) {
  if (column != "family" && column != "variant" && column != "dtype")
    throw Error(ErrorKind::Internal, "distinct() of unknown column " + column);
  // One index probe a value, not a walk over every run: a million runs hold a handful of
  // kernels. Variants are found with their families, which lead the index that holds them.
  const bool variants = column == "variant";
  const std::string keys = variants ? "family, variant" : column;
  auto first = db_->prepare("SELECT " + keys + " FROM runs ORDER BY " + keys + " LIMIT 1");
  auto next = db_->prepare("SELECT " + keys + " FROM runs WHERE (" + keys + ") > (" +
                           (variants ? "?, ?" : "?") + ") ORDER BY " + keys + " LIMIT 1");
  std::set<std::string> out;
  for (Statement* s = &first; s->step(); s = &next) {
    std::vector<std::string> key{s->text(0)};
    if (variants) key.push_back(s->text(1));
    out.insert(key.back());
    next.reset();
    for (std::size_t k = 0; k < key.size(); ++k)
      next.bind(static_cast<int>(k + 1), std::string_view(key[k]));
  }
  return {out.begin(), out.end()};
}

std::size_t RunStore::deleteRuns(std::span<const std::int64_t> ids) {
  Transaction transaction(*db_);
  auto s = db_->prepare("DELETE FROM runs WHERE id = ?");
  std::size_t deleted = 0;
  for (auto id : ids) {
    s.bind(1, id).run();
    deleted += static_cast<std::size_t>(db_->changes());
    s.reset();
  }
  transaction.commit();
  return deleted;
}

void RunStore::requireRun(std::int64_t runId) {
  auto s = db_->prepare("SELECT 1 FROM runs WHERE id = ?");
  s.bind(1, runId);
  if (!s.step()) throw paramError("run", "no run with id " + std::to_string(runId));
}

std::int64_t RunStore::insertRun(const RunResult& result, std::optional<std::int64_t> sweepId,
                                 const std::vector<std::string>& tags) {
  const std::int64_t id = insertRun(result, sweepId);
  for (const auto& tag : tags) addTag(id, tag);
  return id;
}

void RunStore::addTag(std::int64_t runId, const std::string& tag) {
  requireRun(runId);
  if (tag.empty()) throw paramError("tag", "a tag cannot be empty");
  auto s = db_->prepare("INSERT OR IGNORE INTO tags (run_id, tag) VALUES (?, ?)");
  s.bind(1, runId).bind(2, std::string_view(tag)).run();
}

void RunStore::removeTag(std::int64_t runId, const std::string& tag) {
  auto s = db_->prepare("DELETE FROM tags WHERE run_id = ? AND tag = ?");
  s.bind(1, runId).bind(2, std::string_view(tag)).run();
}

std::int64_t RunStore::addNote(std::int64_t runId, const std::string& text) {
  requireRun(runId);
  auto s = db_->prepare("INSERT INTO notes (run_id, text, created_at) VALUES (?, ?, ?)");
  s.bind(1, runId).bind(2, std::string_view(text)).bind(3, nowUnixMs()).run();
  return db_->lastInsertId();
}

std::vector<Note> RunStore::notes(std::int64_t runId) {
  auto s = db_->prepare("SELECT id, text, created_at FROM notes WHERE run_id = ? ORDER BY id");
  s.bind(1, runId);
  std::vector<Note> out;
  while (s.step()) out.push_back({s.int64(0), s.text(1), s.int64(2)});
  return out;
}

void RunStore::saveCeiling(const std::string& deviceUuid, const CopyCeiling& c) {
  auto s = db_->prepare(
      "INSERT INTO copy_ceilings (device_id, bandwidth, bytes, method, measured_at) "
      "VALUES ((SELECT id FROM devices WHERE uuid = ?), ?, ?, ?, ?)");
  s.bind(1, std::string_view(deviceUuid)).bind(2, c.bandwidth);
  s.bind(3, static_cast<std::int64_t>(c.bytes)).bind(4, std::string_view(c.method));
  s.bind(5, c.measuredAt).run();
}

std::optional<CopyCeiling> RunStore::latestCeiling(const std::string& deviceUuid) {
  auto s = db_->prepare(
      "SELECT c.bandwidth, c.bytes, c.method, c.measured_at FROM copy_ceilings c JOIN devices d "
      "ON d.id = c.device_id WHERE d.uuid = ? ORDER BY c.measured_at DESC, c.id DESC LIMIT 1");
  s.bind(1, std::string_view(deviceUuid));
  if (!s.step()) return std::nullopt;
  return CopyCeiling{s.real(0), static_cast<std::uint64_t>(s.int64(1)), s.text(2), s.int64(3)};
}

void RunStore::saveDeviceCeilings(const std::string& deviceUuid,
                                  const std::vector<DeviceCeiling>& ceilings) {
  Transaction transaction(*db_);
  auto s = db_->prepare(
      "INSERT OR REPLACE INTO device_ceilings (device_id, name, value, sm_clock_mhz, measured_at) "
      "VALUES ((SELECT id FROM devices WHERE uuid = ?), ?, ?, ?, ?)");
  for (const DeviceCeiling& c : ceilings) {
    s.bind(1, std::string_view(deviceUuid)).bind(2, std::string_view(c.name)).bind(3, c.value);
    s.bind(4, c.smClockMhz).bind(5, c.measuredAt).run();
    s.reset();
  }
  transaction.commit();
}

std::vector<DeviceCeiling> RunStore::deviceCeilings(const std::string& deviceUuid) {
  auto s = db_->prepare(
      "SELECT c.value, c.sm_clock_mhz, c.measured_at FROM device_ceilings c JOIN devices d ON "
      "d.id = c.device_id WHERE d.uuid = ? AND c.name = ? ORDER BY c.measured_at DESC LIMIT 1");
  std::vector<DeviceCeiling> out;
  for (const CeilingSpec& spec : kCeilings) {
    s.bind(1, std::string_view(deviceUuid)).bind(2, spec.name);
    if (s.step()) out.push_back({std::string(spec.name), s.real(0), s.real(1), s.int64(2)});
    s.reset();
  }
  return out;
}

}  // namespace kwb
