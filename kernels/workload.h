#pragma once

#include <cstdint>
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
  // What the variant computed from its parameters (grid, vector width used, ...).
  virtual ParamSet derived() const { return {}; }
  // Largest relative L2 error against the reference that still passes.
  virtual double tolerance() const = 0;

  // Enqueues the operation on the stream; buffers in buffers() order.
  virtual void enqueue(std::span<void* const> buffers, cudaStream_t stream) const = 0;

  // Elements [begin, begin + out.size()) of output number `output` (counting outputs only) in
  // double precision, from the inputs (inputs only, in buffers() order). Called from several
  // threads at once on disjoint ranges, so verifying 2^28 elements needs neither a reference
  // array of that size nor one core's time.
  virtual void reference(std::span<const HostArray> inputs, std::size_t output, std::size_t begin,
                         std::span<double> out) const = 0;
};

}  // namespace kwb
