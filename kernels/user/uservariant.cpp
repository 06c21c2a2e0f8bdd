#include "kernels/user/uservariant.h"

#include <algorithm>

#include "core/contenthash.h"
#include "core/error.h"
#include "kernels/registry.h"
#include "kernels/user/modulecache.h"
#include "kernels/user/userworkload.h"

namespace kwb {
namespace {

std::string names(const std::vector<ParamSpec>& specs, ParamRole role) {
  std::string out;
  for (const auto& p : specs)
    if (p.role == role) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

}  // namespace

UserVariant::UserVariant(KernelFile file)
    : Variant(variantInfoOf(file.spec, file.path)),
      file_(std::make_shared<const KernelFile>(std::move(file))) {
  code_ = {file_->path, sha256Hex(file_->source), file_->source,
           specText(file_->source, file_->path)};
  const KernelSpec& spec = file_->spec;
  if (spec.implements.empty()) return;
  const Registry& registry = Registry::instance();
  const auto fail = [&](const std::string& what) {
    throw Error(ErrorKind::Usage, file_->path + ": implements: " + what, "implements");
  };
  FamilyInfo family;
  try {
    family = registry.family(spec.implements);
  } catch (const Error& e) {
    fail(e.what());
  }
  std::string variant = spec.implementsVariant;
  if (variant.empty()) variant = family.variants.front().name;
  try {
    implemented_ = &registry.find(spec.implements, variant);
  } catch (const Error& e) {
    fail(e.what());
  }
  for (const auto& v : family.variants)
    if (v.name == spec.name)
      throw Error(ErrorKind::Usage,
                  file_->path + ": name: '" + spec.name + "' is a built-in variant of " +
                      spec.implements + "; give the file's kernel a name of its own",
                  "name");
  const auto& theirs = implemented_->info().params;
  for (const auto& p : spec.params) {
    if (p.spec.role != ParamRole::Problem) continue;
    const bool known = std::any_of(theirs.begin(), theirs.end(), [&](const ParamSpec& s) {
      return s.name == p.spec.name && s.role == ParamRole::Problem;
    });
    if (!known)
      throw Error(ErrorKind::Usage,
                  file_->path + ": params." + p.spec.name +
                      ": a problem parameter of a kernel "
                      "that implements " +
                      spec.implements + " is one of the family's: " +
                      names(theirs, ParamRole::Problem) + " (make it a launch parameter)",
                  "params." + p.spec.name);
  }
}

ParamSet UserVariant::familyParams(const ParamSet& params) const {
  RawParams given;
  for (const auto& p : file_->spec.params)
    if (p.spec.role == ParamRole::Problem) given[p.spec.name] = params.get(p.spec.name);
  return resolveFor(*implemented_, given);
}

void UserVariant::check(const ParamSet& params) const {
  checkRestrictions(file_->spec, params, nullptr);
  if (implemented_) familyParams(params);  // the family takes this problem
}

std::unique_ptr<Workload> UserVariant::create(const ParamSet& params,
                                              const DeviceInfo& device) const {
  check(params);
  checkRestrictions(file_->spec, params, &device);
  const auto module = ModuleCache::instance().load(
      compileRequestFor(*file_, params, device.ccMajor * 10 + device.ccMinor));
  std::unique_ptr<Workload> builtIn;
  if (implemented_) builtIn = implemented_->create(familyParams(params), device);
  return std::make_unique<UserWorkload>(file_, params, device, module, std::move(builtIn));
}

void UserVariant::checkCompiles(const ParamSet& params, int arch) const {
  ModuleCache::instance().compile(compileRequestFor(*file_, params, arch));
}

std::shared_ptr<const Variant> variantFor(const protocol::Kernel& kernel) {
  if (kernel.isFile())
    return std::make_shared<UserVariant>(kernelFileOf(kernel.path, kernel.source));
  // The registry's variants live as long as the process: shared without being owned.
  return std::shared_ptr<const Variant>(std::shared_ptr<const Variant>(),
                                        &Registry::instance().find(kernel.family, kernel.variant));
}

}  // namespace kwb
