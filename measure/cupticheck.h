#pragma once

#include <string>

#include <cupti_result.h>

#include "core/error.h"

namespace kwb {

// A failed CUPTI call; code() lets callers tell "no permission" from "another profiler".
class CuptiError : public Error {
 public:
  CuptiError(CUptiResult code, const std::string& message)
      : Error(ErrorKind::Cuda, message), code_(code) {}
  CUptiResult code() const { return code_; }

 private:
  CUptiResult code_;
};

[[noreturn]] void throwCuptiError(CUptiResult result, const char* call, const char* file, int line);

inline void checkCupti(CUptiResult result, const char* call, const char* file, int line) {
  if (result != CUPTI_SUCCESS) throwCuptiError(result, call, file, line);
}

// Why CUPTI cannot work here and what to do about it, as the end of a sentence.
std::string cuptiBlockedReason(const CuptiError& error);

}  // namespace kwb

#define KWB_CUPTI_CHECK(call) ::kwb::checkCupti((call), #call, __FILE__, __LINE__)
