#pragma once

#include <memory>
#include <optional>

#include "core/deviceinfo.h"
#include "core/paramset.h"
#include "core/runresult.h"
#include "core/variantinfo.h"
#include "kernels/workload.h"

namespace kwb {

// A kernel variant as the registry holds it: its description, the rules between its parameters
// that need no device, and a factory for configured workloads.
class Variant {
 public:
  explicit Variant(VariantInfo info) : info_(std::move(info)) {}
  virtual ~Variant() = default;

  const VariantInfo& info() const { return info_; }

  // Rules that tie parameters together; throws Error(Param). Runs before any device is touched.
  virtual void check(const ParamSet& params) const { (void)params; }

  // Device limits are checked here (Error(Param) naming the parameter).
  virtual std::unique_ptr<Workload> create(const ParamSet& params,
                                           const DeviceInfo& device) const = 0;

  // A user's kernel file: the code that runs, stored with each run. None for built-in variants.
  virtual std::optional<KernelCode> code() const { return std::nullopt; }

 private:
  VariantInfo info_;
};

}  // namespace kwb
