#include "widgets/historypoint.h"

#include "core/jsoncodec.h"

namespace kwb {
namespace {

ParamSet paramsOf(const std::string& json) {
  return paramSetFromJson(nlohmann::json::parse(json, nullptr, false));
}

}  // namespace

HistoryPoint HistoryPointReader::operator()(const RunPoint& run) {
  HistoryPoint p;
  p.id = run.id;
  p.startedAt = run.startedAt;
  const QString kernelKey = QString::fromStdString(run.family + "/" + run.variant);
  auto kernel = kernels_.constFind(kernelKey);
  if (kernel == kernels_.cend())
    kernel = kernels_.insert(kernelKey, {kernelKey, static_cast<quint32>(kernels_.size())});
  p.kernel = kernel->text;  // shared, not copied
  const QString problemKey = QString::fromStdString(run.problem);
  auto problem = problems_.constFind(problemKey);
  if (problem == problems_.cend()) {
    const ParamSet params = paramsOf(run.problem);
    problem = problems_.insert(
        problemKey, {QString::fromStdString(params.toText()),
                     QString::fromStdString(params.has("dtype") ? params.get("dtype") : ""),
                     static_cast<quint32>(problems_.size())});
  }
  p.problem = problem->text;
  p.dtype = problem->dtype;
  const quint64 seriesKey = quint64{kernel->number} << 32 | problem->number;
  auto series = series_.constFind(seriesKey);
  if (series == series_.cend())
    series = series_.insert(seriesKey, {p.kernel + "  " + p.problem, int(series_.size())});
  p.series = series->text;
  p.seriesId = series->id;
  const QString launchKey = QString::fromStdString(run.launch);
  auto launch = launches_.constFind(launchKey);
  if (launch == launches_.cend())
    launch = launches_.insert(launchKey, QString::fromStdString(paramsOf(run.launch).toText()));
  p.launch = *launch;
  p.device = QString::fromStdString(run.device);
  if (run.samples > 0) {
    p.median = run.median;
    p.min = run.min;
    p.max = run.max;
    p.bandwidth = run.bandwidth;
    p.ceilingFraction = run.ceilingBandwidth > 0 ? run.bandwidth / run.ceilingBandwidth : 0;
  }
  return p;
}

}  // namespace kwb
