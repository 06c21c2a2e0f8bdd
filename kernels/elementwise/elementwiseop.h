#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/dtype.h"

namespace kwb {

enum class ElementwiseOp { Relu, Gelu, GeluTanh, Silu, Mul, MulAdd, Cast };

std::string_view toString(ElementwiseOp op);
std::optional<ElementwiseOp> parseElementwiseOp(std::string_view text);
std::vector<std::string_view> elementwiseOpNames();
// Inputs the op reads: 1 for the activations and cast, 2 for mul, 3 for muladd.
int arity(ElementwiseOp op);

// Floating-point operations per element as the op's formula counts them: relu's compare, gelu's
// scale, erf, fused multiply-add (two) and product; cast none.
double flopsPerElement(ElementwiseOp op);

// The op's value in double precision: the CPU reference.
double referenceValue(ElementwiseOp op, double x, double y, double z);

}  // namespace kwb
