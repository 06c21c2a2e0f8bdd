#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "core/dtype.h"
#include "core/hostarray.h"
#include "core/paramset.h"

namespace kwb {

struct BufferSpec {
  std::string name;
  DType dtype = DType::F32;
  std::size_t count = 0;
  bool output = false;
  // Working memory of the kernels (intermediates, partial sums): zeroed once before the first
  // call, neither an input of the reference nor an output that is checked.
  bool scratch = false;
  // Of `count`, elements past the problem's data that the family allocates so that its kernels may
  // read whole words at the end: a kernel file implementing the family may leave them out.
  std::size_t padding = 0;
};

// One configured kernel problem, ready to run: what memory it needs, how many bytes it must move,
// how to launch it, and how to compute the right answer on the CPU. measure/ owns the buffers.
class Workload {
 public:
  virtual ~Workload() = default;

  // Inputs and outputs in the order enqueue() and reference() take them.
  virtual std::vector<BufferSpec> buffers() const = 0;
  // The bytes the operation must move at least: each input read once, each output written once.
  virtual std::uint64_t bytesMoved() const = 0;
  // The floating-point operations one call does as its formula counts them (a min, max or compare
  // counts as one, as does a special function such as erf; a select does not): with bytesMoved
  // its arithmetic intensity. Zero for pure data movement; nullopt where the variant does not say.
  virtual std::optional<double> flops() const { return std::nullopt; }
  // What the variant computed from its parameters (grid, vector width used, ...).
  virtual ParamSet derived() const { return {}; }
  // Largest relative L2 error against the reference that still passes.
  virtual double tolerance() const = 0;
  // Host API launches (kernels, memsets, graphs) one enqueue() issues: a call of thousands
  // cannot be held back behind a blocked stream, and its launch overhead is the lesson.
  virtual std::size_t launchesPerCall() const { return 1; }
  // Kernels one call runs: more than its launches where it launches a captured graph.
  virtual std::size_t kernelsPerCall() const { return launchesPerCall(); }

  // Input `index` (of buffers()) where its values must follow rules of their own (boxes with
  // x1 < x2, padding after the valid ones); nullopt leaves it to the seeded random fill.
  virtual std::optional<HostArray> generateInput(std::size_t index, std::uint64_t seed) const {
    (void)index;
    (void)seed;
    return std::nullopt;
  }

  // False where nothing checks the outputs (a user's kernel file that says so).
  virtual bool checked() const { return true; }
  // Once, after the buffers are filled and before the checked call: what must happen before the
  // kernels first run (a user's in-out buffer gets its initial values; a reference kernel runs).
  virtual void beforeCheckedRun(std::span<void* const> buffers, cudaStream_t stream) const {
    (void)buffers;
    (void)stream;
  }

  // Enqueues the operation on the stream; buffers in buffers() order.
  virtual void enqueue(std::span<void* const> buffers, cudaStream_t stream) const = 0;

  // Elements [begin, begin + out.size()) of output number `output` (counting outputs only) in
  // double precision, from the inputs (inputs only, no scratch, in buffers() order). Called from
  // several threads at once on disjoint ranges, so verifying 2^28 elements needs neither a
  // reference array of that size nor one core's time.
  virtual void reference(std::span<const HostArray> inputs, std::size_t output, std::size_t begin,
                         std::span<double> out) const = 0;
};

}  // namespace kwb
