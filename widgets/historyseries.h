#pragma once

#include <QString>
#include <QVector>

#include <cstddef>
#include <vector>

#include "widgets/historypoint.h"

namespace kwb {

// One line of the over-time plot: a kernel and problem's runs in time order.
struct HistorySeries {
  QString name;
  std::size_t runs = 0;  // before thinning
  QVector<double> at;    // unix seconds
  QVector<double> median, min, max, bandwidth;
};

// What the over-time plot draws, made off the GUI thread so that drawing a million runs is only
// drawing.
struct HistorySeriesSet {
  std::vector<HistorySeries> series;  // most runs first
  std::size_t hidden = 0;             // series left out
  bool thinned = false;               // some series keep only their extremes
};

inline constexpr std::size_t kMaxHistorySeries = 10;  // more lines would not be readable
inline constexpr std::size_t kMaxSeriesPoints = 4000;

// The series with the most timed runs, at most maxSeries; a series of more than maxPoints runs
// keeps, of each of maxPoints / 2 consecutive slices of its runs, the fastest and the slowest: at
// screen resolution the same picture, its outliers included.
HistorySeriesSet historySeries(const std::vector<HistoryPoint>& points,
                               std::size_t maxSeries = kMaxHistorySeries,
                               std::size_t maxPoints = kMaxSeriesPoints);

}  // namespace kwb
