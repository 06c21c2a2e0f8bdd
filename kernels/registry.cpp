#include "kernels/registry.h"

#include <algorithm>

#include "core/error.h"

namespace kwb {

const Registry& Registry::instance() {
  static const Registry registry = [] {
    Registry r;
    registerCopyFamily(r);
    registerElementwiseFamily(r);
    registerPermuteFamily(r);
    registerGiouFamily(r);
    return r;
  }();
  return registry;
}

void Registry::addFamily(std::string name, std::string summary) {
  families_.push_back({std::move(name), std::move(summary), {}});
}

void Registry::addVariant(std::unique_ptr<Variant> variant) {
  auto it = std::find_if(families_.begin(), families_.end(),
                         [&](const Family& f) { return f.name == variant->info().family; });
  if (it == families_.end())
    throw Error(ErrorKind::Internal, "variant of unregistered family " + variant->info().family);
  it->variants.push_back(std::move(variant));
}

namespace {
FamilyInfo describe(const std::string& name, const std::string& summary,
                    const std::vector<std::unique_ptr<Variant>>& variants) {
  FamilyInfo info{name, summary, {}};
  for (const auto& variant : variants) info.variants.push_back(variant->info());
  return info;
}
}  // namespace

std::vector<FamilyInfo> Registry::families() const {
  std::vector<FamilyInfo> out;
  for (const auto& family : families_)
    out.push_back(describe(family.name, family.summary, family.variants));
  return out;
}

FamilyInfo Registry::family(std::string_view name) const {
  const Family& f = findFamily(name);
  return describe(f.name, f.summary, f.variants);
}

const Registry::Family& Registry::findFamily(std::string_view name) const {
  for (const auto& family : families_)
    if (family.name == name) return family;
  std::string allowed;
  for (const auto& family : families_) allowed += (allowed.empty() ? "" : ", ") + family.name;
  throw paramError("family",
                   "'" + std::string(name) + "' is not a kernel family; allowed: " + allowed);
}

const Variant& Registry::find(std::string_view familyName, std::string_view variantName) const {
  const Family& family = findFamily(familyName);
  for (const auto& variant : family.variants)
    if (variant->info().name == variantName) return *variant;
  std::string allowed;
  for (const auto& variant : family.variants)
    allowed += (allowed.empty() ? "" : ", ") + variant->info().name;
  throw paramError("variant", "'" + std::string(variantName) + "' is not a variant of " +
                                  family.name + "; allowed: " + allowed);
}

ParamSet Registry::resolve(std::string_view family, std::string_view variant,
                           const RawParams& given) const {
  return resolveFor(find(family, variant), given);
}

std::vector<ParamSet> Registry::expand(std::string_view family, std::string_view variant,
                                       const RawParams& base,
                                       const std::vector<std::string>& axisTexts) const {
  return expandFor(find(family, variant), base, axisTexts);
}

ParamSet resolveFor(const Variant& variant, const RawParams& given) {
  ParamSet params = resolveParams(variant.info().params, given);
  variant.check(params);
  return params;
}

std::vector<ParamSet> expandFor(const Variant& variant, const RawParams& base,
                                const std::vector<std::string>& axisTexts) {
  std::vector<SweepAxis> axes;
  for (const auto& text : axisTexts) axes.push_back(parseSweepAxis(text, variant.info().params));
  std::vector<ParamSet> points = expandSweep(variant.info().params, base, axes);
  for (const auto& point : points) variant.check(point);
  return points;
}

}  // namespace kwb
