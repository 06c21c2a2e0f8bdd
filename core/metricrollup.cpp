#include "core/metricrollup.h"

#include <algorithm>
#include <map>

#include "core/stats.h"

namespace kwb {
namespace {

// "k", "k", "j" -> "k", "k #2", "j": a kernel launched twice per call keeps both readings.
std::vector<std::string> uniqueNames(const std::vector<std::string>& names) {
  std::map<std::string, int> seen;
  std::vector<std::string> out;
  for (const auto& name : names) {
    const int n = ++seen[name];
    out.push_back(n == 1 ? name : name + " #" + std::to_string(n));
  }
  return out;
}

std::size_t indexOf(const std::vector<std::string>& list, const std::string& name) {
  return static_cast<std::size_t>(std::find(list.begin(), list.end(), name) - list.begin());
}

double ratio(double numerator, double denominator) {
  return denominator != 0 ? numerator / denominator : 0;
}

}  // namespace

std::vector<Metric> rollUpCounters(const MetricPlan& plan,
                                   const std::vector<KernelCounters>& kernels) {
  std::vector<std::string> names;
  for (const auto& k : kernels) names.push_back(k.kernel);
  names = uniqueNames(names);
  const std::size_t duration = indexOf(plan.counters, std::string(kDurationMetric));
  const auto weight = [&](const KernelCounters& k) {
    return duration < k.values.size() ? k.values[duration] : 1.0;
  };
  double totalWeight = 0;
  for (const auto& k : kernels) totalWeight += weight(k);

  std::vector<Metric> run;
  std::vector<Metric> perKernel;
  for (std::size_t c = 0; c < plan.counters.size(); ++c) {
    const std::string& name = plan.counters[c];
    const bool additive = isAdditive(name);
    double total = 0;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      const double v = c < kernels[k].values.size() ? kernels[k].values[c] : 0;
      total += additive ? v : v * weight(kernels[k]);
      perKernel.push_back({name, v, metricUnit(name), names[k]});
    }
    run.push_back({name, additive ? total : ratio(total, totalWeight), metricUnit(name), ""});
  }
  for (const auto& d : plan.derived) {
    const std::size_t num = indexOf(plan.counters, d.numerator);
    const std::size_t den = indexOf(plan.counters, d.denominator);
    if (num >= plan.counters.size() || den >= plan.counters.size()) continue;
    double numSum = 0, denSum = 0;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      const auto& v = kernels[k].values;
      if (num >= v.size() || den >= v.size()) continue;
      numSum += v[num];
      denSum += v[den];
      perKernel.push_back({d.name, ratio(v[num], v[den]), metricUnit(d.name), names[k]});
    }
    run.push_back({d.name, ratio(numSum, denSum), metricUnit(d.name), ""});
  }
  if (plan.theoreticalOccupancy) {
    double weighted = 0, weights = 0;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      if (kernels[k].theoreticalOccupancy < 0) continue;
      weighted += kernels[k].theoreticalOccupancy * weight(kernels[k]);
      weights += weight(kernels[k]);
      perKernel.push_back(
          {std::string(kTheoreticalOccupancy), kernels[k].theoreticalOccupancy, "%", names[k]});
    }
    if (weights > 0)
      run.push_back({std::string(kTheoreticalOccupancy), weighted / weights, "%", ""});
  }
  run.insert(run.end(), perKernel.begin(), perKernel.end());
  return run;
}

std::vector<Metric> rollUpDurations(const std::vector<KernelTime>& times, std::size_t calls) {
  if (times.empty() || calls == 0 || times.size() % calls != 0) return {};
  const std::size_t perCall = times.size() / calls;
  std::vector<std::string> firstCall;
  for (std::size_t i = 0; i < perCall; ++i) firstCall.push_back(times[i].kernel);
  const std::vector<std::string> names = uniqueNames(firstCall);

  std::vector<double> callTotals(calls, 0.0);
  std::vector<std::vector<double>> byKernel(perCall);
  for (std::size_t i = 0; i < times.size(); ++i) {
    callTotals[i / perCall] += times[i].seconds;
    byKernel[i % perCall].push_back(times[i].seconds);
  }
  const Summary run = summarize(callTotals);
  std::vector<Metric> out{{std::string(kActivityMedian), run.median, "s", ""},
                          {std::string(kActivityMin), run.min, "s", ""},
                          {std::string(kActivityKernels), static_cast<double>(perCall), "", ""}};
  if (perCall <= kMaxKernelRows) {
    for (std::size_t k = 0; k < perCall; ++k) {
      const Summary s = summarize(byKernel[k]);
      out.push_back({std::string(kActivityMedian), s.median, "s", names[k]});
      out.push_back({std::string(kActivityMin), s.min, "s", names[k]});
    }
    return out;
  }
  // Thousands of launches per call: one row per kernel name, its launches summed within a call.
  std::map<std::string, std::vector<double>> byName;
  std::map<std::string, std::size_t> launches;
  for (std::size_t i = 0; i < times.size(); ++i) {
    auto& totals = byName[times[i].kernel];
    totals.resize(calls, 0.0);
    totals[i / perCall] += times[i].seconds;
    if (i < perCall) ++launches[times[i].kernel];
  }
  for (const auto& [name, totals] : byName) {
    const std::string label = name + " x" + std::to_string(launches[name]);
    const Summary s = summarize(totals);
    out.push_back({std::string(kActivityMedian), s.median, "s", label});
    out.push_back({std::string(kActivityMin), s.min, "s", label});
  }
  return out;
}

}  // namespace kwb
