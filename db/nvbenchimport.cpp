#include "db/nvbenchimport.h"

#include <chrono>
#include <filesystem>
#include <set>

#include "core/nvbenchjson.h"
#include "db/database.h"
#include "db/databasemerger.h"
#include "db/runstore.h"

namespace kwb {

ImportOutcome importNvbench(RunStore& target, const std::string& path) {
  NvbenchImport file = readNvbenchJson(path);
  ImportOutcome outcome{file.version, 0, 0, file.skipped, file.devices.size()};
  const auto modified = std::filesystem::last_write_time(path);
  const auto sinceEpoch = std::chrono::file_clock::to_sys(modified).time_since_epoch();
  const std::int64_t modifiedMs =
      std::chrono::duration_cast<std::chrono::milliseconds>(sinceEpoch).count();

  Transaction transaction(target.database());
  for (const auto& device : file.devices) target.upsertDevice(device);
  std::set<std::string> present;
  HistoryFilter imported;
  imported.family = kImportedFamily;
  target.forEach(imported, [&](RunRecord&& r) { present.insert(runIdentity(r.result)); });
  for (std::size_t i = 0; i < file.runs.size(); ++i) {
    RunResult& run = file.runs[i];
    if (run.startedAt == 0) run.startedAt = modifiedMs + static_cast<std::int64_t>(i);
    if (!present.insert(runIdentity(run)).second) {
      ++outcome.duplicates;
      continue;
    }
    target.insertRun(run);
    ++outcome.runs;
  }
  transaction.commit();
  return outcome;
}

}  // namespace kwb
