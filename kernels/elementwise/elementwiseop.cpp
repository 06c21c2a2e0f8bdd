#include "kernels/elementwise/elementwiseop.h"

#include <cmath>
#include <numbers>

#include "core/enumnames.h"

namespace kwb {
namespace {
constexpr EnumNames<ElementwiseOp, 7> kNames{{{
    {ElementwiseOp::Relu, "relu"},
    {ElementwiseOp::Gelu, "gelu"},
    {ElementwiseOp::GeluTanh, "gelu_tanh"},
    {ElementwiseOp::Silu, "silu"},
    {ElementwiseOp::Mul, "mul"},
    {ElementwiseOp::MulAdd, "muladd"},
    {ElementwiseOp::Cast, "cast"},
}}};
}  // namespace

std::string_view toString(ElementwiseOp op) {
  return kNames.name(op);
}

std::optional<ElementwiseOp> parseElementwiseOp(std::string_view text) {
  return kNames.parse(text);
}

std::vector<std::string_view> elementwiseOpNames() {
  std::vector<std::string_view> names;
  for (const auto& entry : kNames.entries) names.push_back(entry.second);
  return names;
}

int arity(ElementwiseOp op) {
  switch (op) {
    case ElementwiseOp::Mul: return 2;
    case ElementwiseOp::MulAdd: return 3;
    default: return 1;
  }
}

double referenceValue(ElementwiseOp op, double x, double y, double z) {
  switch (op) {
    case ElementwiseOp::Relu: return x > 0 ? x : 0.0;
    case ElementwiseOp::Gelu: return 0.5 * x * (1.0 + std::erf(x / std::numbers::sqrt2));
    case ElementwiseOp::GeluTanh: {
      const double k = std::sqrt(2.0 / std::numbers::pi);
      return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
    }
    case ElementwiseOp::Silu: return x / (1.0 + std::exp(-x));
    case ElementwiseOp::Mul: return x * y;
    case ElementwiseOp::MulAdd: return x * y + z;
    case ElementwiseOp::Cast: return x;
  }
  return 0;
}

double flopsPerElement(ElementwiseOp op) {
  switch (op) {
    case ElementwiseOp::Relu:
    case ElementwiseOp::Mul: return 1;
    case ElementwiseOp::MulAdd: return 2;
    case ElementwiseOp::Gelu:  // x * fma(0.5, erf(x * c), 0.5)
      return 5;
    case ElementwiseOp::GeluTanh:  // x * fma(a, x * x, b), then x / (1 + exp2(.))
      return 7;
    case ElementwiseOp::Silu:  // x / (1 + exp(-x))
      return 4;
    case ElementwiseOp::Cast: return 0;
  }
  return 0;
}

}  // namespace kwb
