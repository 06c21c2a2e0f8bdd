#pragma once

#include <vector>

#include "core/dtype.h"
#include "core/hostarray.h"
#include "core/runresult.h"

namespace kwb {

// Relative L2 error of the output against the double-precision reference; any NaN or infinity
// in the output fails (it is also what a poisoned, unwritten element reads as).
Verification compareToReference(const HostArray& output, const std::vector<double>& reference,
                                double tolerance);

// Tolerance for results rounded once to the type: a few units of its rounding error.
double defaultTolerance(DType type);

}  // namespace kwb
