#include "core/runresult.h"

#include <array>
#include <utility>

namespace kwb {
namespace {
constexpr std::array<std::pair<RunStatus, std::string_view>, 4> kStatusNames{{
    {RunStatus::Ok, "ok"},
    {RunStatus::Failed, "failed"},
    {RunStatus::VerificationFailed, "verification_failed"},
    {RunStatus::Cancelled, "cancelled"},
}};
}  // namespace

std::string_view toString(RunStatus status) {
  for (const auto& [s, name] : kStatusNames)
    if (s == status) return name;
  return "failed";
}

std::optional<RunStatus> parseRunStatus(std::string_view text) {
  for (const auto& [s, name] : kStatusNames)
    if (name == text) return s;
  return std::nullopt;
}

std::string_view toString(TimingMode mode) {
  return mode == TimingMode::Cold ? "cold" : "hot";
}

std::optional<TimingMode> parseTimingMode(std::string_view text) {
  if (text == "cold") return TimingMode::Cold;
  if (text == "hot") return TimingMode::Hot;
  return std::nullopt;
}

}  // namespace kwb
