#pragma once

#include <cstddef>
#include <span>

namespace kwb {

// Summary of timing samples, in the unit of the samples (seconds throughout the workbench).
struct Summary {
  std::size_t count = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  double median = 0;
  double stddev = 0;  // sample standard deviation (n - 1)

  // stddev / mean; 0 for fewer than two samples.
  double relStddev() const { return mean > 0 ? stddev / mean : 0; }
};

Summary summarize(std::span<const double> samples);

}  // namespace kwb
