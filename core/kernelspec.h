#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dtype.h"
#include "core/paramspec.h"
#include "core/specexpression.h"

namespace kwb {

// How a parameter's value reaches the kernel's code.
enum class ParamBinding { Template, Define, Argument };
enum class BufferRole { In, Out, InOut };
// How an input buffer is filled before each checked run, as the built-in families fill theirs.
enum class BufferFill { Normal, Uniform, Zeros, Iota };

struct KernelParam {
  ParamSpec spec;
  ParamBinding binding = ParamBinding::Argument;
};

struct KernelBuffer {
  std::string name;
  DType dtype = DType::F32;
  SpecExpression count;  // elements
  BufferRole role = BufferRole::In;
  BufferFill fill = BufferFill::Normal;
};

// One kernel launch of a call, in order.
struct KernelLaunchSpec {
  std::string kernel;                     // a name expression: "transpose<TILE, 8>"
  std::vector<std::string> templateArgs;  // its template arguments: parameter names or numbers
  SpecExpression grid;
  SpecExpression block;
  std::optional<SpecExpression> sharedBytes;
  std::vector<std::string> args;  // buffers and argument parameters, in the kernel's order
};

// What a user's kernel file declares beside its code: parameters, buffers, launches, the bytes
// and flops of a call, restrictions, and how results are checked. docs/kernel-files.md is the
// reference of the format.
struct KernelSpec {
  std::string name;
  std::string summary;
  std::string teaches;
  std::vector<KernelParam> params;
  std::vector<KernelBuffer> buffers;
  std::vector<KernelLaunchSpec> launches;
  std::optional<SpecExpression> bytes;
  std::optional<SpecExpression> flops;
  std::vector<SpecExpression> restrictions;
  // One of the three: the built-in family whose inputs and reference check it, a reference
  // kernel of the same file with its tolerance, or no check at all (said on every run).
  std::string implements;
  std::string referenceKernel;
  double tolerance = 0;
  bool unchecked = false;
};

// The names a spec's expressions may use besides its parameters: the device's.
const std::vector<std::string>& deviceNames();

// The spec of a kernel file: the TOML of its leading `/* kwb ... */` comment. Throws Error(Usage)
// naming the file where there is none.
std::string specText(std::string_view source, std::string_view file);

// Reads and checks a spec. Throws Error(Usage) as "FILE:LINE: FIELD: what is wrong", with the
// field ("params.TILE.default") as the error's parameter.
KernelSpec parseKernelSpec(std::string_view toml, std::string_view file);

}  // namespace kwb
