#include "measure/verifier.h"

#include <cmath>
#include <limits>

namespace kwb {

Verification compareToReference(const HostArray& output, const std::vector<double>& reference,
                                double tolerance) {
  Verification v;
  v.checked = true;
  v.tolerance = tolerance;
  if (output.size() != reference.size()) {
    v.relError = std::numeric_limits<double>::infinity();
    return v;
  }
  double diff2 = 0;
  double ref2 = 0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    const double got = output.at(i);
    if (!std::isfinite(got)) {
      v.relError = std::numeric_limits<double>::infinity();
      return v;
    }
    const double d = got - reference[i];
    diff2 += d * d;
    ref2 += reference[i] * reference[i];
  }
  v.relError = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  v.passed = v.relError <= tolerance;
  return v;
}

double defaultTolerance(DType type) {
  switch (type) {
    case DType::U8: return 0.0;
    case DType::F16: return 2e-3;
    case DType::BF16: return 1.6e-2;
    case DType::F32: return 1e-5;
    case DType::F64: return 1e-12;
  }
  return 0.0;
}

}  // namespace kwb
