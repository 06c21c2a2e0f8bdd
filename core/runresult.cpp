#include "core/runresult.h"

#include <algorithm>

#include "core/enumnames.h"

namespace kwb {
namespace {
constexpr EnumNames<RunStatus, 4> kStatusNames{{{
    {RunStatus::Ok, "ok"},
    {RunStatus::Failed, "failed"},
    {RunStatus::VerificationFailed, "verification_failed"},
    {RunStatus::Cancelled, "cancelled"},
}}};
constexpr EnumNames<L2Flush, 3> kFlushNames{{{
    {L2Flush::None, "none"},
    {L2Flush::Write, "write"},
    {L2Flush::WriteRead, "write_read"},
}}};
}  // namespace

std::string_view toString(RunStatus status) {
  return kStatusNames.name(status);
}

std::optional<RunStatus> parseRunStatus(std::string_view text) {
  return kStatusNames.parse(text);
}

std::string_view toString(TimingMode mode) {
  return mode == TimingMode::Cold ? "cold" : "hot";
}

std::optional<TimingMode> parseTimingMode(std::string_view text) {
  if (text == "cold") return TimingMode::Cold;
  if (text == "hot") return TimingMode::Hot;
  return std::nullopt;
}

std::string_view toString(L2Flush flush) {
  return kFlushNames.name(flush);
}

std::optional<L2Flush> parseL2Flush(std::string_view text) {
  return kFlushNames.parse(text);
}

std::vector<std::string> RunResult::kernels() const {
  std::vector<std::string> names;
  for (const auto& m : metrics)
    if (!m.kernel.empty() && std::find(names.begin(), names.end(), m.kernel) == names.end())
      names.push_back(m.kernel);
  return names;
}

}  // namespace kwb
