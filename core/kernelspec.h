#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/deviceinfo.h"
#include "core/dtype.h"
#include "core/paramset.h"
#include "core/paramspec.h"
#include "core/specexpression.h"
#include "core/variantinfo.h"

namespace kwb {

// How a parameter's value reaches the kernel's code.
enum class ParamBinding { Template, Define, Argument };
enum class BufferRole { In, Out, InOut };
// How an input buffer is filled before each checked run, as the built-in families fill theirs.
enum class BufferFill { Uniform, Normal, Zeros, Iota };

struct KernelParam {
  ParamSpec spec;
  ParamBinding binding = ParamBinding::Argument;
};

struct KernelBuffer {
  std::string name;
  DType dtype = DType::F32;
  SpecExpression count;  // elements
  BufferRole role = BufferRole::In;
  BufferFill fill = BufferFill::Uniform;
  std::string where;  // "t.cu:23: buffers[1].count": what an error about its size names
};

// One argument of a launch: a buffer (its device pointer), or a whole number from the parameters
// ("n", "shape_0 * shape_1"), passed in as many bytes as the kernel's parameter has (4 or 8).
struct LaunchArg {
  std::string text;
  std::optional<SpecExpression> value;  // empty for a buffer
};

// One kernel launch of a call, in order.
struct KernelLaunchSpec {
  std::string kernel;                     // a name expression: "transpose<TILE, 8>"
  std::vector<std::string> templateArgs;  // its template arguments: parameter names or numbers
  SpecExpression grid;
  SpecExpression block;
  std::optional<SpecExpression> sharedBytes;
  std::vector<LaunchArg> args;  // in the kernel's order
  std::string field;            // "launch[0]" or "reference", and the file's line of its kernel
  int line = 0;
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
  // One of the three: the built-in family (and the variant of it whose buffers, inputs and CPU
  // reference are used; its first where the file names none), a reference kernel of the same
  // file with its launch and tolerance, or no check at all (said on every run).
  std::string implements;
  std::string implementsVariant;
  std::optional<KernelLaunchSpec> reference;
  double tolerance = 0;
  bool unchecked = false;

  std::vector<ParamSpec> paramSpecs() const;
};

// How a kernel file is listed, edited and stored: family "user", or the built-in family it
// implements (its runs sit beside that family's variants); the spec's name and parameters.
VariantInfo variantInfoOf(const KernelSpec& spec, const std::string& path);

// The names a spec's expressions may use besides its parameters: the device's.
const std::vector<std::string>& deviceNames();

// The parameter a name in an expression stands for: the parameter of that name, or the list
// parameter whose item NAME_i it is; null for the device's names.
const KernelParam* paramOf(const KernelSpec& spec, std::string_view name);

// The values expressions see for a configuration: integer parameters, each item of a list
// parameter as NAME_0, NAME_1, ... (1 past its last), and the device's values where one is given.
std::map<std::string, double> expressionValues(const KernelSpec& spec, const ParamSet& params,
                                               const DeviceInfo* device);

// Throws Error(Param) naming the first parameter of the first restriction that does not hold.
// Without a device, restrictions that use the device's values are left for when there is one.
void checkRestrictions(const KernelSpec& spec, const ParamSet& params, const DeviceInfo* device);

// The spec of a kernel file: the TOML of its leading `/* kwb ... */` comment. Throws Error(Usage)
// naming the file where there is none.
std::string specText(std::string_view source, std::string_view file);

// Reads and checks a spec. Throws Error(Usage) as "FILE:LINE: FIELD: what is wrong", with the
// field ("params.TILE.default") as the error's parameter.
KernelSpec parseKernelSpec(std::string_view toml, std::string_view file);

}  // namespace kwb
