#include "core/explain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <optional>

#include "core/format.h"
#include "core/traffic.h"
#include "core/verdict.h"

namespace kwb {
namespace {

constexpr double kUnchanged = 0.01;

std::optional<double> param(const RunResult& run, const char* name) {
  const std::string text = run.derived.has(name) ? run.derived.get(name) : std::string();
  if (text.empty()) return std::nullopt;
  return std::strtod(text.c_str(), nullptr);
}

bool moved(double before, double after, double by) {
  return std::abs(after - before) > by * std::max(std::abs(before), std::abs(after));
}

void coalescing(const RunResult& a, const RunResult& b, const char* op, const char* what,
                std::vector<std::string>& out) {
  const std::string name =
      std::string("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_") + op + ".ratio";
  const auto before = a.metricValue(name), after = b.metricValue(name);
  if (!before || !after || !moved(*before, *after, 0.25)) return;
  out.push_back(std::string("global ") + what +
                formatted(": %.3g -> %.3g 32-byte sectors per warp request (a warp's coalesced "
                          "2-byte accesses take 2, its 4-byte ones 4, its 16-byte ones 16; 32 is a "
                          "sector for every thread: nothing coalesces)",
                          *before, *after));
}

// The bits one global access instruction moves per thread: its width modifier, a 16- or 8-bit
// type, else 32.
int accessBits(const std::string& opcode) {
  for (const auto& [modifier, bits] : {std::pair{".128", 128},
                                       {".256", 256},
                                       {".64", 64},
                                       {".U16", 16},
                                       {".S16", 16},
                                       {".U8", 8},
                                       {".S8", 8}}) {
    const auto at = opcode.find(modifier);
    const std::size_t end = at + std::string_view(modifier).size();
    if (at != std::string::npos && (end == opcode.size() || opcode[end] == '.')) return bits;
  }
  return 32;
}

bool isGlobal(const std::string& opcode) {
  const auto kind = classifySassOpcode(opcode);
  return kind == SassClass::GlobalWide || kind == SassClass::GlobalNarrow;
}

// Global access instructions by the bits each moves per thread.
std::map<int, std::size_t> widthCounts(const SassSummary& s) {
  std::map<int, std::size_t> out;
  for (const auto& [opcode, n] : s.notable)
    if (isGlobal(opcode)) out[accessBits(opcode)] += n;
  return out;
}

// "32- and 128-bit (LDG.E x2  STG.E.128 x1)".
std::string accessText(const SassSummary& s) {
  const auto widths = widthCounts(s);
  std::string bits;
  for (auto it = widths.begin(); it != widths.end(); ++it) {
    const bool last = std::next(it) == widths.end();
    bits += (it == widths.begin() ? ""
             : last               ? " and "
                                  : ", ") +
            std::to_string(it->first) + (last ? "-bit" : "-");
  }
  std::string opcodes;
  for (const auto& [opcode, n] : s.notable)
    if (isGlobal(opcode))
      opcodes += (opcodes.empty() ? "" : "  ") + opcode + " x" + std::to_string(n);
  return bits + " (" + opcodes + ")";
}

}  // namespace

std::optional<std::string> readSassDifference(const SassSummary& a, const SassSummary& b) {
  const auto before = widthCounts(a), after = widthCounts(b);
  const auto sameWidth = [](const auto& x, const auto& y) { return x.first == y.first; };
  if (before.empty() || after.empty() ||
      std::equal(before.begin(), before.end(), after.begin(), after.end(), sameWidth))
    return std::nullopt;
  const int widestA = before.rbegin()->first, widestB = after.rbegin()->first;
  std::string text =
      "global accesses in the machine code: " + accessText(a) + " -> " + accessText(b);
  if (widestB > widestA)
    text += formatted(
        ": a %d-bit access moves what %d %d-bit ones did, in fewer instructions and "
        "requests",
        widestB, widestB / widestA, widestA);
  else if (widestB < widestA)
    text += ": narrower accesses, more instructions and requests for the same bytes";
  return text;
}

SassSummary combinedSass(const std::vector<SassSummary>& kernels) {
  SassSummary out;
  for (const SassSummary& k : kernels) {
    out.instructions += k.instructions;
    for (const auto& [opcode, n] : k.notable) out.notable[opcode] += n;
  }
  return out;
}

std::string describeRun(std::int64_t id, const RunResult& r) {
  return "run " + std::to_string(id) + ": " + r.family + "/" + r.variant + " " +
         r.problem.toText() + " " + r.launch.toText();
}

std::string ratioText(const MetricChange& change) {
  return std::isfinite(change.ratio) ? formatRatio(change.ratio) : "from 0";
}

std::vector<MetricChange> metricChanges(const RunResult& a, const RunResult& b) {
  std::vector<MetricChange> out;
  for (const Metric& m : a.metrics) {
    if (!m.kernel.empty() || m.name.find("__") == std::string::npos) continue;
    const Metric* other = b.metric(m.name);
    if (!other || !moved(m.value, other->value, kUnchanged)) continue;
    out.push_back(
        {m.name, m.unit, m.value, other->value, m.value != 0 ? other->value / m.value : INFINITY});
  }
  const auto size = [](const MetricChange& c) {
    return c.before == 0 || c.after == 0 ? INFINITY : std::abs(std::log(c.ratio));
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](const auto& x, const auto& y) { return size(x) > size(y); });
  return out;
}

std::vector<std::string> readDifference(const RunResult& a, const RunResult& b) {
  std::vector<std::string> out;
  if (a.stats.median > 0 && b.stats.median > 0) {
    const Verdict v = compareRuns(a, b);
    out.push_back("time: " + formatSeconds(a.stats.median) + " -> " +
                  formatSeconds(b.stats.median) + ", " + formatRatio(v.ratio) + " " +
                  std::string(toString(v.kind)));
  }
  coalescing(a, b, "ld", "loads", out);
  coalescing(a, b, "st", "stores", out);

  for (const char* op : {"ld", "st"}) {
    const std::string name =
        std::string("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_") + op + ".sum";
    const auto before = a.metricValue(name), after = b.metricValue(name);
    if (before && after && moved(*before, *after, 0.5) && std::max(*before, *after) >= 1000)
      out.push_back(std::string("shared-memory bank conflicts on ") +
                    (op == std::string_view("ld") ? "loads" : "stores") +
                    formatted(": %.4g -> %.4g (each replays the access for the threads that "
                              "collided)",
                              *before, *after));
  }

  const auto achievedA = a.metricValue("sm__warps_active.avg.pct_of_peak_sustained_active");
  const auto achievedB = b.metricValue("sm__warps_active.avg.pct_of_peak_sustained_active");
  const auto theoryA = a.metricValue("sm__maximum_warps_per_active_cycle_pct");
  const auto theoryB = b.metricValue("sm__maximum_warps_per_active_cycle_pct");
  if (achievedA && achievedB && std::abs(*achievedB - *achievedA) > 10) {
    std::string text = formatted("achieved occupancy: %.0f %% -> %.0f %% of the warps an SM holds",
                                 *achievedA, *achievedB);
    if (theoryA && theoryB && std::abs(*theoryB - *theoryA) > 1) {
      text += formatted("; the launch allows %.0f %% -> %.0f %% ", *theoryA, *theoryB);
      // What the runs recorded limits the blocks an SM holds, else what can.
      const std::string limitA = a.derived.has("limiter") ? a.derived.get("limiter") : "";
      const std::string limitB = b.derived.has("limiter") ? b.derived.get("limiter") : "";
      text += !limitA.empty() && !limitB.empty()
                  ? "(limited by " + limitA + " -> " + limitB + ")"
                  : "(block size, registers and shared memory per block set it)";
    } else if (theoryB && *achievedB < 0.7 * *theoryB)
      text += formatted(
          "; %.0f %% is allowed: too few blocks to fill the SMs, or blocks that end "
          "unevenly",
          *theoryB);
    out.push_back(text);
  }

  // The occupancy calculation's waves where the run recorded them, else the estimate from threads.
  const auto waves = [](const RunResult& r) {
    const auto counted = param(r, "wave_count");
    return counted ? counted : param(r, "waves_effective");
  };
  const auto wavesA = waves(a), wavesB = waves(b);
  const auto gridA = param(a, "grid"), gridB = param(b, "grid");
  if (wavesA && wavesB && gridA && gridB && moved(*wavesA, *wavesB, 0.25)) {
    std::string text = formatted(
        "the grid: %.0f blocks (%.3g waves of what the SMs hold at once) -> "
        "%.0f (%.3g waves)",
        *gridA, *wavesA, *gridB, *wavesB);
    if (*wavesB < 1)
      text += ": fewer blocks than fit at once, part of the GPU idles";
    else if (*wavesB - std::floor(*wavesB) > 0.05 && *wavesB < 4)
      text += ": a partial last wave, a tail the full SMs wait through";
    out.push_back(text);
  }

  const auto instA = a.metricValue("smsp__inst_executed.sum"),
             instB = b.metricValue("smsp__inst_executed.sum");
  if (instA && instB && *instA > 0 && moved(*instA, *instB, 0.2))
    out.push_back(
        formatted("warp instructions executed: %.4g -> %.4g (%.2fx): wider accesses and "
                  "less index arithmetic do the same work in fewer instructions",
                  *instA, *instB, *instB / *instA));

  const auto dramA = dramBytes(a), dramB = dramBytes(b);
  if (dramA && dramB && moved(*dramA, *dramB, 0.1))
    out.push_back(
        "DRAM traffic: " + formatBytes(*dramA) + " -> " + formatBytes(*dramB) +
        formatted(" (%.2fx): every byte less is time saved where memory binds", *dramB / *dramA));
  return out;
}

}  // namespace kwb
