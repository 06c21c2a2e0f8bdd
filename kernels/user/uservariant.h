#pragma once

#include <memory>
#include <string>

#include "core/protocol.h"
#include "kernels/user/kernelfile.h"
#include "kernels/variant.h"

namespace kwb {

// A user's kernel file as one more variant: its spec's parameters are validated, swept and run as
// a built-in's are. Family "user", or the built-in family it implements (so that its runs sit
// beside that family's variants in the history); its name is the spec's.
class UserVariant : public Variant {
 public:
  // Throws Error(Usage) naming the spec's field where it does not fit the family it implements.
  explicit UserVariant(KernelFile file);

  const KernelFile& file() const { return *file_; }
  void check(const ParamSet& params) const override;
  // Compiles (or finds in the module cache) and loads the configuration: Error(Usage) with the
  // compiler's diagnostics where it does not compile, Error(Param) where the device refuses it.
  std::unique_ptr<Workload> create(const ParamSet& params, const DeviceInfo& device) const override;
  std::optional<KernelCode> code() const override { return code_; }
  // Compiles the configuration for sm_<arch> without loading it: what can be checked where there
  // is no device. Throws CompileError.
  void checkCompiles(const ParamSet& params, int arch) const;

  // The implemented family's parameters for this configuration: the file's problem parameters
  // that the family has, the family's defaults for the rest.
  ParamSet familyParams(const ParamSet& params) const;

 private:
  std::shared_ptr<const KernelFile> file_;
  KernelCode code_;
  const Variant* implemented_ = nullptr;
};

// The variant a request names: a registered one, or the kernel file whose text it carries.
std::shared_ptr<const Variant> variantFor(const protocol::Kernel& kernel);

}  // namespace kwb
