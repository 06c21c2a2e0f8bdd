#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/sweep.h"
#include "core/validation.h"
#include "core/variantinfo.h"
#include "kernels/variant.h"

namespace kwb {

// Every kernel family and variant the workbench knows; the single source for listing,
// validation, sweeps and running. Each family adds itself from its own register function.
class Registry {
 public:
  static const Registry& instance();

  void addFamily(std::string name, std::string summary);
  void addVariant(std::unique_ptr<Variant> variant);  // its family must be added first

  std::vector<FamilyInfo> families() const;
  // Throws Error(Param) on parameter "family", listing the allowed names.
  FamilyInfo family(std::string_view name) const;
  // Throws Error(Param) on parameter "family" or "variant", listing the allowed names.
  const Variant& find(std::string_view family, std::string_view variant) const;

  // Validated parameters with defaults filled in, cross-parameter rules applied.
  ParamSet resolve(std::string_view family, std::string_view variant, const RawParams& given) const;
  // The sweep's points, each validated like resolve().
  std::vector<ParamSet> expand(std::string_view family, std::string_view variant,
                               const RawParams& base, const std::vector<std::string>& axes) const;

 private:
  struct Family {
    std::string name;
    std::string summary;
    std::vector<std::unique_ptr<Variant>> variants;
  };
  const Family& findFamily(std::string_view name) const;

  std::vector<Family> families_;
};

// Validated parameters of any variant (a registered one or a user's kernel file), with defaults
// filled in and cross-parameter rules applied; and a sweep's points, each validated so.
ParamSet resolveFor(const Variant& variant, const RawParams& given);
std::vector<ParamSet> expandFor(const Variant& variant, const RawParams& base,
                                const std::vector<std::string>& axes);

// One per family, each in its family's folder.
void registerCopyFamily(Registry& registry);
void registerElementwiseFamily(Registry& registry);
void registerPermuteFamily(Registry& registry);
void registerGiouFamily(Registry& registry);

}  // namespace kwb
