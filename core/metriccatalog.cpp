#include "core/metriccatalog.h"

#include <algorithm>

#include "core/error.h"

namespace kwb {
namespace {

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

void addUnique(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

std::string setNames() {
  std::string names;
  for (const auto& set : metricSets()) names += set.name + ", ";
  return names + "all";
}

void addSet(MetricPlan& plan, const MetricSet& set) {
  for (const auto& counter : set.counters) addUnique(plan.counters, counter);
  for (const auto& d : set.derived) {
    const bool known = std::any_of(plan.derived.begin(), plan.derived.end(),
                                   [&](const DerivedMetric& p) { return p.name == d.name; });
    if (!known) plan.derived.push_back(d);
  }
  plan.theoreticalOccupancy = plan.theoreticalOccupancy || set.theoreticalOccupancy;
}

}  // namespace

const std::vector<MetricSet>& metricSets() {
  static const std::vector<MetricSet> sets{
      {"memory",
       "DRAM bytes read and written, DRAM throughput as a share of its peak, L2 hit rate",
       {"dram__bytes_read.sum", "dram__bytes_write.sum",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed", "lts__t_sector_hit_rate.pct"},
       {},
       false},
      {"occupancy",
       "achieved occupancy (active warps per SM cycle) against the theoretical one",
       {"sm__warps_active.avg.pct_of_peak_sustained_active"},
       {},
       true},
      {"coalescing",
       "32-byte sectors per global load and store request: 4 is fully coalesced for 4-byte "
       "accesses, 32 is one sector per thread",
       {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"},
       {{"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
         "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"},
        {"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio",
         "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
         "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"}},
       false},
      {"shared",
       "shared-memory bank conflicts on loads and stores",
       {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"},
       {},
       false},
      {"divergence",
       "average active threads per executed warp instruction (32 when no thread idles)",
       {"smsp__thread_inst_executed.sum", "smsp__inst_executed.sum"},
       {{"smsp__thread_inst_executed_per_inst_executed.ratio", "smsp__thread_inst_executed.sum",
         "smsp__inst_executed.sum"}},
       false},
      {"flops",
       "floating-point adds, multiplies and fused multiply-adds executed in half, single and "
       "double precision (an FMA counts two): the arithmetic the kernel really did, for the "
       "measured roofline",
       {"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"},
       {},
       false},
      {"compute",
       "SM throughput as a share of its peak and warp instructions executed",
       {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "smsp__inst_executed.sum"},
       {},
       false},
  };
  return sets;
}

MetricPlan planMetrics(std::string_view text) {
  MetricPlan plan;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string word(text.substr(start, comma - start));
    start = comma + 1;
    if (word.empty()) continue;
    const auto& sets = metricSets();
    const auto set =
        std::find_if(sets.begin(), sets.end(), [&](const MetricSet& s) { return s.name == word; });
    if (word == "all")
      for (const auto& s : sets) addSet(plan, s);
    else if (set != sets.end())
      addSet(plan, *set);
    else if (word.find("__") != std::string::npos)
      addUnique(plan.counters, word);
    else
      throw paramError("metrics", "'" + word + "' is neither a metric set (" + setNames() +
                                      ") nor a metric name such as dram__bytes_read.sum");
  }
  if (!plan.empty()) addUnique(plan.counters, std::string(kDurationMetric));
  return plan;
}

std::vector<std::string> metricAliases(std::string_view name) {
  // Bank conflicts are counted at the L1 data banks from Ampere on; Volta and Turing count them
  // per SASS instruction.
  static const std::vector<std::pair<std::string_view, std::string_view>> aliases{
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
       "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
       "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"},
      {"dram__bytes_read.sum", "fbpa__dram_read_bytes.sum"},
      {"dram__bytes_write.sum", "fbpa__dram_write_bytes.sum"},
  };
  std::vector<std::string> out;
  for (const auto& [canonical, alias] : aliases)
    if (canonical == name) out.emplace_back(alias);
  return out;
}

std::string metricUnit(std::string_view name) {
  if (name.find("pct") != std::string_view::npos) return "%";
  if (name.find("bytes") != std::string_view::npos) return "B";
  if (name.find("__time_duration") != std::string_view::npos) return "ns";
  if (endsWith(name, "per_second")) return "/s";
  return "";
}

bool isAdditive(std::string_view name) {
  return endsWith(name, ".sum") && name.find("per_second") == std::string_view::npos;
}

}  // namespace kwb
