#pragma once

#include <string>

#include "core/runresult.h"
#include "core/stats.h"

namespace kwb::testing {

// A timed run of the permute lessons with their explaining metric: shared-memory bank conflicts.
inline RunResult lessonRun(const std::string& variant, double median, double conflicts) {
  RunResult r;
  r.family = "permute";
  r.variant = variant;
  r.samples = {median, median, median};
  r.stats = summarize(r.samples);
  r.metrics = {{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", conflicts, "", ""}};
  return r;
}

}  // namespace kwb::testing
