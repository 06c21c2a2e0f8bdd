#pragma once

#include <span>
#include <vector>

#include "core/dtype.h"
#include "core/hostarray.h"
#include "core/runresult.h"

namespace kwb {

class Workload;

// Running sums of the relative L2 error, mergeable across chunks; any NaN or infinity in the
// output fails (it is also what a poisoned, never-written element reads as).
struct ErrorSums {
  double diff2 = 0;
  double ref2 = 0;
  bool nonFinite = false;

  void add(double got, double expected);
  void merge(const ErrorSums& other);
  Verification verdict(double tolerance) const;
};

// ||output - reference||_2 / ||reference||_2 against a reference held in full.
Verification compareToReference(const HostArray& output, const std::vector<double>& reference,
                                double tolerance);

// The same against the workload's own reference for output number `outputIndex`, computed in
// chunks on all cores.
Verification verifyOutput(const Workload& workload, std::span<const HostArray> inputs,
                          std::size_t outputIndex, const HostArray& output, double tolerance);

}  // namespace kwb
