#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kwb {

// What went wrong, coarse enough to pick an exit code or a protocol error code from.
enum class ErrorKind {
  Usage,         // malformed command line or request
  Param,         // a parameter value that is not allowed
  NoDevice,      // no CUDA device (or no driver) on this machine
  Cuda,          // a CUDA call failed
  Verification,  // output differs from the CPU reference
  Database,      // SQLite or file I/O around the run store
  Cancelled,     // the user asked to stop
  Tool,          // a toolkit program the feature needs (cuobjdump) is missing or failed
  Internal,      // the last: parseErrorKind walks the kinds up to it
};

std::string_view toString(ErrorKind kind);
std::optional<ErrorKind> parseErrorKind(std::string_view name);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message, std::string param = {})
      : std::runtime_error(message), kind_(kind), param_(std::move(param)) {}

  ErrorKind kind() const { return kind_; }
  // The parameter the error is about, empty when it is about none.
  const std::string& param() const { return param_; }

 private:
  ErrorKind kind_;
  std::string param_;
};

// "parameter 'block_size': <what>" with the parameter recorded for machines.
Error paramError(const std::string& param, const std::string& what);

}  // namespace kwb
