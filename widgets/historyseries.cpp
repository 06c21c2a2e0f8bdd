#include "widgets/historyseries.h"

#include <algorithm>
#include <unordered_map>

namespace kwb {
namespace {

void append(HistorySeries& s, const HistoryPoint& p) {
  s.at << static_cast<double>(p.startedAt) / 1000.0;
  s.median << p.median;
  s.min << p.min;
  s.max << p.max;
  s.bandwidth << p.bandwidth;
}

}  // namespace

HistorySeriesSet historySeries(const std::vector<HistoryPoint>& points, std::size_t maxSeries,
                               std::size_t maxPoints) {
  std::unordered_map<int, std::vector<const HistoryPoint*>> bySeries;
  for (const HistoryPoint& p : points)
    if (p.median > 0) bySeries[p.seriesId].push_back(&p);
  std::vector<std::vector<const HistoryPoint*>> groups;
  groups.reserve(bySeries.size());
  for (auto& entry : bySeries) groups.push_back(std::move(entry.second));
  std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    return a.size() != b.size() ? a.size() > b.size() : a.front()->series < b.front()->series;
  });
  HistorySeriesSet set;
  set.hidden = groups.size() > maxSeries ? groups.size() - maxSeries : 0;
  groups.resize(std::min(groups.size(), maxSeries));
  const std::size_t slices = std::max<std::size_t>(maxPoints / 2, 1);
  for (auto& group : groups) {
    std::sort(group.begin(), group.end(), [](const HistoryPoint* a, const HistoryPoint* b) {
      return a->startedAt != b->startedAt ? a->startedAt < b->startedAt : a->id < b->id;
    });
    HistorySeries s;
    s.name = group.front()->series;
    s.runs = group.size();
    if (group.size() <= maxPoints) {
      for (const HistoryPoint* p : group) append(s, *p);
    } else {
      set.thinned = true;
      for (std::size_t k = 0; k < slices; ++k) {
        const auto first = group.begin() + static_cast<std::ptrdiff_t>(k * group.size() / slices);
        const auto last =
            group.begin() + static_cast<std::ptrdiff_t>((k + 1) * group.size() / slices);
        if (first == last) continue;
        const auto [fastest, slowest] = std::minmax_element(
            first, last, [](auto* a, auto* b) { return a->median < b->median; });
        // In time order, so the line joins them as the runs happened.
        const bool fastestFirst = (*fastest)->startedAt <= (*slowest)->startedAt;
        append(s, fastestFirst ? **fastest : **slowest);
        if (fastest != slowest) append(s, fastestFirst ? **slowest : **fastest);
      }
    }
    set.series.push_back(std::move(s));
  }
  return set;
}

}  // namespace kwb
