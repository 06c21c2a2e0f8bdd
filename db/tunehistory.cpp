#include "db/tunehistory.h"

#include <algorithm>

#include "core/error.h"
#include "core/valueparse.h"
#include "db/runstore.h"

namespace kwb {
namespace {

// The tuned parameters' names: a tuning's stored list, or a sweep's "name=values" texts.
std::vector<std::string> axisNames(const nlohmann::json& axes) {
  std::vector<std::string> names;
  if (axes.is_object() && axes.contains("tune")) {
    for (const auto& axis : axes["tune"].value("axes", nlohmann::json::array()))
      names.push_back(axis.value("param", ""));
  } else if (axes.is_array()) {
    for (const auto& text : axes)
      if (text.is_string())
        names.push_back(text.get<std::string>().substr(0, text.get<std::string>().find('=')));
  }
  return names;
}

// Numbers in numeric order, words in the order they first appear.
void orderValues(std::vector<std::string>& values) {
  if (!std::all_of(values.begin(), values.end(),
                   [](const std::string& v) { return parseInteger(v).has_value(); }))
    return;
  std::sort(values.begin(), values.end(), [](const std::string& a, const std::string& b) {
    return *parseInteger(a) < *parseInteger(b);
  });
}

}  // namespace

std::map<std::size_t, std::int64_t> measuredPoints(RunStore& store, const TuneSpace& space,
                                                   const TuneIdentity& identity) {
  HistoryFilter filter;
  filter.family = identity.family;
  filter.variant = identity.variant;
  filter.status = "ok";
  filter.newestFirst = false;  // the newest is kept: it comes last
  std::map<std::size_t, std::int64_t> found;
  store.forEach(filter, [&](RunRecord&& record) {
    const RunResult& r = record.result;
    if (r.family != identity.family || r.variant != identity.variant ||
        r.deviceUuid != identity.deviceUuid || r.appVersion != identity.appVersion ||
        r.mode != identity.mode || (r.code ? r.code->hash : std::string()) != identity.sourceHash)
      return;
    if (const auto index = space.find(r.params())) found[*index] = record.id;
  });
  return found;
}

RecordedSweep recordedSweep(RunStore& store, std::int64_t sweepId) {
  const auto sweep = store.sweep(sweepId);
  if (!sweep) throw Error(ErrorKind::Usage, "there is no sweep " + std::to_string(sweepId));
  RecordedSweep recorded;
  recorded.id = sweepId;
  recorded.family = sweep->family;
  recorded.variant = sweep->variant;
  for (const auto& name : axisNames(sweep->axes)) recorded.axes.push_back({name, {}});
  if (recorded.axes.empty())
    throw Error(ErrorKind::Usage, "sweep " + std::to_string(sweepId) + " names no swept parameter");

  HistoryFilter filter;
  filter.sweepId = sweepId;
  std::vector<RunRecord> runs = store.query(filter);
  if (runs.empty())
    throw Error(ErrorKind::Usage, "sweep " + std::to_string(sweepId) + " has no runs");
  for (const auto& run : runs)
    for (auto& axis : recorded.axes) {
      const std::string value = run.result.param(axis.param);
      if (std::find(axis.values.begin(), axis.values.end(), value) == axis.values.end())
        axis.values.push_back(value);
    }
  for (auto& axis : recorded.axes) orderValues(axis.values);
  // A finalist's confirmation runs are filed under the sweep too; a replay searches the
  // search's own measurements, so that it finds the same best.
  const auto confirmation = [](const RunRecord& run) {
    return std::find(run.tags.begin(), run.tags.end(), kTuneConfirmTag) != run.tags.end();
  };
  for (auto& run : runs) {
    const std::string key = tunedValuesText(
        recorded.axes, [&](const std::string& param) { return run.result.param(param); });
    // Newest first: a point run twice keeps its newest run of the search, a confirmation run
    // only where the search has none. try_emplace leaves `run` as it was where the key is kept.
    const auto [kept, inserted] = recorded.runs.try_emplace(key, std::move(run));
    if (!inserted && confirmation(kept->second) && !confirmation(run))
      kept->second = std::move(run);
  }
  return recorded;
}

nlohmann::json tuneSweepAxes(const TuneSpace& space, const std::string& strategy,
                             const std::string& objective) {
  nlohmann::json axes = nlohmann::json::array();
  for (const auto& axis : space.axes())
    axes.push_back({{"param", axis.param}, {"values", axis.values}});
  nlohmann::json restrictions = nlohmann::json::array();
  for (const auto& r : space.restrictions()) restrictions.push_back(r.text());
  return {{"tune",
           {{"axes", axes},
            {"restrictions", restrictions},
            {"strategy", strategy},
            {"objective", objective}}}};
}

}  // namespace kwb
