#include "measure/verifier.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include "kernels/workload.h"

namespace kwb {
namespace {
constexpr std::size_t kChunk = std::size_t{1} << 20;
}  // namespace

void ErrorSums::add(double got, double expected) {
  if (!std::isfinite(got)) {
    nonFinite = true;
    return;
  }
  diff2 += (got - expected) * (got - expected);
  ref2 += expected * expected;
}

void ErrorSums::merge(const ErrorSums& other) {
  diff2 += other.diff2;
  ref2 += other.ref2;
  nonFinite = nonFinite || other.nonFinite;
}

Verification ErrorSums::verdict(double tolerance) const {
  Verification v;
  v.checked = true;
  v.tolerance = tolerance;
  v.relError = nonFinite ? std::numeric_limits<double>::infinity()
                         : (ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2));
  v.passed = v.relError <= tolerance;
  return v;
}

Verification compareToReference(const HostArray& output, const std::vector<double>& reference,
                                double tolerance) {
  ErrorSums sums;
  if (output.size() != reference.size()) sums.nonFinite = true;
  for (std::size_t i = 0; i < reference.size() && i < output.size(); ++i)
    sums.add(output.at(i), reference[i]);
  return sums.verdict(tolerance);
}

Verification verifyOutput(const Workload& workload, std::span<const HostArray> inputs,
                          std::size_t outputIndex, const HostArray& output, double tolerance) {
  const std::size_t chunks = (output.size() + kChunk - 1) / kChunk;
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                                                      std::max<std::size_t>(chunks, 1));
  std::vector<ErrorSums> partial(threads);
  auto work = [&](std::size_t t) {
    std::vector<double> expected;
    for (std::size_t c = t; c < chunks; c += threads) {
      const std::size_t begin = c * kChunk;
      expected.resize(std::min(kChunk, output.size() - begin));
      workload.reference(inputs, outputIndex, begin, expected);
      for (std::size_t i = 0; i < expected.size(); ++i)
        partial[t].add(output.at(begin + i), expected[i]);
    }
  };
  std::vector<std::jthread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  pool.clear();  // joins
  ErrorSums total;
  for (const auto& p : partial) total.merge(p);
  return total.verdict(tolerance);
}

}  // namespace kwb
