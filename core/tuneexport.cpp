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
  nlohmann::json templates = nlohmann::json::array();
  for (const auto& [name, args] : r.templates)
    templates.push_back({{"name", name}, {"args", args}});
  return {{"kernel",
           {{"family", r.family},
            {"variant", r.variant},
            {"file", r.kernelFile},
            {"defines", r.defines},
            {"templates", templates}}},
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

std::string tuneHeader(const nlohmann::json& report) {
  const auto& finalists = report["finalists"];
  if (finalists.empty())
    throw Error(ErrorKind::Usage, "no configuration ran, so there is no best to export");
  const auto& best = finalists.front();
  const auto& k = report["kernel"];
  const std::string family = k.value("family", ""), variant = k.value("variant", "");
  const std::string file = k.value("file", "");
  const std::string kernel = file.empty() ? family + "/" + variant : file;
  std::ostringstream h;
  h << "// The best configuration of " << kernel << " on " << report.value("device", "") << " by "
    << report.value("objective", "") << ",\n// found by Kernel Workbench ("
    << report.value("strategy", "") << " search, " << report["evaluations"].size()
    << " evaluations): " << formatSeconds(best.value("median_s", 0.0)) << " median.\n";
  std::size_t tied = 0;
  for (std::size_t i = 1; i < finalists.size(); ++i)
    tied += finalists[i].value("tied_with_best", false);
  if (tied)
    h << "// " << tied << (tied == 1 ? " other configuration" : " other configurations")
      << " could not be told apart from it; the JSON result lists them.\n";
  const std::string space = identifier(family + "_" + variant);
  h << "#pragma once\n\nnamespace kwb_tuned::" << space << " {\n";
  const auto& params = best["all_params"];
  for (const auto& [name, value] : params.items()) {
    const std::string text = value.get<std::string>();
    if (const auto number = parseInteger(text))
      h << "inline constexpr long long " << identifier(name) << " = " << *number << ";\n";
    else
      h << "inline constexpr const char* " << identifier(name) << " = \"" << text << "\";\n";
  }
  h << "}  // namespace kwb_tuned::" << space << "\n";

  std::ostringstream defines;
  for (const auto& name : k.value("defines", nlohmann::json::array()))
    if (params.contains(name))
      defines << "#ifndef " << name.get<std::string>() << "\n#define " << name.get<std::string>()
              << " " << params[name.get<std::string>()].get<std::string>() << "\n#endif\n";
  if (!defines.str().empty()) h << "\n// The kernel file's defines.\n" << defines.str();
  for (const auto& t : k.value("templates", nlohmann::json::array())) {
    std::string instance;
    for (const auto& arg : t["args"]) {
      const std::string a = arg.get<std::string>();
      instance +=
          (instance.empty() ? "" : ", ") + (params.contains(a) ? params[a].get<std::string>() : a);
    }
    h << "\n// The kernel to instantiate: " << t["name"].get<std::string>() << "<" << instance
      << ">\n";
  }
  return h.str();
}

}  // namespace kwb
