#include "core/tuneexport.h"

#include <cctype>
#include <sstream>

#include "core/error.h"
#include "core/format.h"
#include "core/valueparse.h"

namespace kwb {
namespace {

std::string identifier(const std::string& text) {
  std::string id;
  for (const char c : text) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id.front()))) id.insert(0, "_");
  return id;
}

nlohmann::json tunedValues(const TuneSpace& space, std::size_t index) {
  nlohmann::json values = nlohmann::json::object();
  const TunePoint p = space.point(index);
  for (std::size_t a = 0; a < space.axes().size(); ++a)
    values[space.axes()[a].param] = space.axes()[a].values[p[a]];
  return values;
}

nlohmann::json measurementJson(const TuneMeasurement& m) {
  nlohmann::json j{{"status", m.outcome == TuneMeasurement::Outcome::Ok       ? "ok"
                              : m.outcome == TuneMeasurement::Outcome::Failed ? "failed"
                                                                              : "rejected"},
                   {"cached", m.cached},
                   {"run_id", m.runId ? nlohmann::json(*m.runId) : nlohmann::json(nullptr)}};
  if (m.outcome == TuneMeasurement::Outcome::Ok) {
    j["median_s"] = m.median;
    j["bandwidth"] = m.bandwidth;
    j["energy_j"] = m.energy ? nlohmann::json(*m.energy) : nlohmann::json(nullptr);
  } else {
    j["error"] = m.error;
  }
  return j;
}

nlohmann::json evaluationJson(const TuneSpace& space, const TuneEvaluation& e,
                              std::optional<double> best) {
  nlohmann::json item = measurementJson(e.measurement);
  item["params"] = tunedValues(space, e.index);
  item["score"] = e.score ? nlohmann::json(*e.score) : nlohmann::json(nullptr);
  item["best_score"] = best ? nlohmann::json(*best) : nlohmann::json(nullptr);
  item["elapsed_s"] = e.elapsed;
  return item;
}

}  // namespace

nlohmann::json tuneEvaluationJson(const TuneSpace& space, const TuneOutcome& sofar) {
  const auto& best = sofar.best;
  return evaluationJson(space, sofar.evaluations.back(),
                        best ? sofar.evaluations[*best].score : std::nullopt);
}

nlohmann::json tuneReportJson(const TuneReport& r) {
  const TuneSpace& space = *r.space;
  nlohmann::json axes = nlohmann::json::array();
  for (const auto& axis : space.axes())
    axes.push_back({{"param", axis.param}, {"values", axis.values}});
  nlohmann::json restrictions = nlohmann::json::array();
  for (const auto& x : space.restrictions()) restrictions.push_back(x.text());

  nlohmann::json evaluations = nlohmann::json::array();
  std::optional<double> best;
  for (const auto& e : r.outcome.evaluations) {
    if (e.score && (!best || *e.score < *best)) best = e.score;
    evaluations.push_back(evaluationJson(space, e, best));
  }
  nlohmann::json finalists = nlohmann::json::array();
  for (const auto& f : r.finalists) {
    nlohmann::json item = measurementJson(f.measurement);
    item["params"] = tunedValues(space, f.index);
    item["all_params"] = space.params(f.index)->values();
    item["tied_with_best"] = f.tied;
    if (!f.measurement.samples.empty()) {
      const Interval interval = medianInterval(f.measurement.samples);
      item["interval_s"] = {interval.low, interval.high};
    }
    if (f.againstBest)
      item["against_best"] = {{"verdict", toString(f.againstBest->kind)},
                              {"ratio", f.againstBest->ratio},
                              {"low", f.againstBest->low},
                              {"high", f.againstBest->high}};
    finalists.push_back(std::move(item));
  }
  nlohmann::json front = nlohmann::json::array();
  for (const std::size_t i : paretoFront(r.outcome.evaluations)) {
    const auto& e = r.outcome.evaluations[i];
    front.push_back({{"params", tunedValues(space, e.index)},
                     {"median_s", e.measurement.median},
                     {"energy_j", *e.measurement.energy}});
  }
  return {{"kernel", {{"family", r.family}, {"variant", r.variant}, {"file", r.kernelFile}}},
          {"device", r.device},
          {"strategy", toString(r.strategy)},
          {"objective", toString(r.objective)},
          {"seed", r.seed},
          {"sweep_id", r.sweepId ? nlohmann::json(*r.sweepId) : nlohmann::json(nullptr)},
          {"replayed", r.replayed},
          {"space",
           {{"points", space.size()},
            {"valid", space.validCount()},
            {"invalid", space.size() - space.validCount()},
            {"axes", axes},
            {"restrictions", restrictions},
            {"fixed", space.base()}}},
          {"stopped", r.outcome.stopped},
          {"evaluations", evaluations},
          {"cache_hits", r.outcome.cacheHits()},
          {"failures", r.outcome.failures()},
          {"finalists", finalists},
          {"pareto_front", front}};
}

std::string tuneProgressText(const TuneSpace& space, const TuneOutcome& sofar) {
  std::ostringstream text;
  const TuneEvaluation& e = sofar.evaluations.back();
  text << space.describe(e.index) << ": ";
  if (e.measurement.outcome == TuneMeasurement::Outcome::Ok)
    text << formatSeconds(e.measurement.median) << (e.measurement.cached ? " (history)" : "");
  else
    text << "did not run: " << e.measurement.error;
  if (sofar.best) {
    const TuneEvaluation& b = sofar.evaluations[*sofar.best];
    text << " | best " << formatSeconds(b.measurement.median) << " " << space.describe(b.index);
  }
  return text.str();
}

std::string tuneHeader(const TuneReport& r) {
  if (r.finalists.empty())
    throw Error(ErrorKind::Usage, "no configuration ran, so there is no best to export");
  const TuneFinalist& best = r.finalists.front();
  const ParamSet params = *r.space->params(best.index);
  const std::string kernel = r.kernelFile.empty() ? r.family + "/" + r.variant : r.kernelFile;
  std::ostringstream h;
  h << "// The best configuration of " << kernel << " on " << r.device << " by "
    << toString(r.objective) << ",\n// found by Kernel Workbench (" << toString(r.strategy)
    << " search, " << r.outcome.evaluations.size()
    << " evaluations): " << formatSeconds(best.measurement.median) << " median.\n";
  std::size_t tied = 0;
  for (const auto& f : r.finalists) tied += f.tied && &f != &best;
  if (tied)
    h << "// " << tied << (tied == 1 ? " other configuration" : " other configurations")
      << " could not be told apart from it; the JSON result lists them.\n";
  h << "#pragma once\n\nnamespace kwb_tuned::" << identifier(r.family + "_" + r.variant) << " {\n";
  for (const auto& [name, value] : params.values()) {
    if (const auto number = parseInteger(value))
      h << "inline constexpr long long " << identifier(name) << " = " << *number << ";\n";
    else
      h << "inline constexpr const char* " << identifier(name) << " = \"" << value << "\";\n";
  }
  h << "}  // namespace kwb_tuned::" << identifier(r.family + "_" + r.variant) << "\n";

  std::ostringstream defines;
  for (const auto& name : r.defines)
    if (params.has(name))
      defines << "#ifndef " << name << "\n#define " << name << " " << params.get(name)
              << "\n#endif\n";
  if (!defines.str().empty()) h << "\n// The kernel file's defines.\n" << defines.str();
  for (const auto& [name, args] : r.templates) {
    std::string instance;
    for (const auto& arg : args)
      instance += (instance.empty() ? "" : ", ") + (params.has(arg) ? params.get(arg) : arg);
    h << "\n// The kernel to instantiate: " << name << "<" << instance << ">\n";
  }
  return h.str();
}

}  // namespace kwb
