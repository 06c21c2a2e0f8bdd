#include "app/cli/slurmjob.h"

#include <map>
#include <sstream>

#include "core/valueparse.h"

namespace kwb {
namespace {

// The tasks an array index expression names: "3", "0-3", "4-7%2" (at most 2 at once), "1,3-5".
std::vector<std::size_t> tasksOf(const std::string& text, std::size_t tasks) {
  std::vector<std::size_t> out;
  const std::string list = text.substr(0, text.find('%'));
  std::istringstream items(list);
  for (std::string item; std::getline(items, item, ',');) {
    const auto dash = item.find('-');
    const auto first = parseInteger(item.substr(0, dash));
    const auto last = dash == std::string::npos ? first : parseInteger(item.substr(dash + 1));
    if (!first || !last) continue;
    for (std::int64_t t = *first; t <= *last && t < static_cast<std::int64_t>(tasks); ++t)
      if (t >= 0) out.push_back(static_cast<std::size_t>(t));
  }
  return out;
}

// The value of `key=` in a line of `key=value` words (scontrol -o).
std::string field(const std::string& line, const std::string& key) {
  const std::string needle = " " + key + "=";
  auto at = (" " + line).find(needle);
  if (at == std::string::npos) return {};
  at += needle.size() - 1;
  const auto end = line.find(' ', at);
  return line.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

std::vector<TaskState> ordered(std::map<std::size_t, TaskState> byTask) {
  std::vector<TaskState> out;
  for (auto& [task, state] : byTask) out.push_back(std::move(state));
  return out;
}

}  // namespace

std::string shellWord(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789_-+=/.,:@%^") == std::string::npos)
    return word;
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string slurmScript(const std::string& name, std::size_t tasks, const std::string& folder,
                        const SlurmOptions& options, const std::string& command) {
  std::string s = "#!/bin/sh\n";
  s += "#SBATCH --job-name=" + name + "\n";
  s += "#SBATCH --array=0-" + std::to_string(tasks - 1) + "\n";
  s += "#SBATCH --ntasks=1\n";
  s += "#SBATCH --output=" + folder + "/task-%a.out\n";
  if (!options.partition.empty()) s += "#SBATCH --partition=" + options.partition + "\n";
  if (!options.gres.empty()) s += "#SBATCH --gres=" + options.gres + "\n";
  if (!options.time.empty()) s += "#SBATCH --time=" + options.time + "\n";
  s += "# Written by kwb: each task runs its share of the points into a history of its own,\n";
  s += "# which kwb merges into the user's once the array has ended.\n";
  s += "exec " + command + "\n";
  return s;
}

bool endedState(const std::string& state) {
  for (const char* running :
       {"PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING",
        "REQUEUE_HOLD", "REQUEUE_FED", "SIGNALING", "STAGE_OUT", "STOPPED", "RESV_DEL_HOLD"})
    if (state == running) return false;
  return !state.empty();
}

std::string parseJobId(const std::string& sbatchOutput) {
  std::string id = sbatchOutput.substr(0, sbatchOutput.find_first_of(";\n"));
  while (!id.empty() && (id.back() == ' ' || id.back() == '\r')) id.pop_back();
  return parseInteger(id) ? id : std::string();
}

std::vector<TaskState> parseSqueue(const std::string& output, std::size_t tasks) {
  std::map<std::size_t, TaskState> byTask;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string index, state, reason;
    if (!(words >> index >> state)) continue;
    std::getline(words, reason);
    if (!reason.empty() && reason[0] == ' ') reason.erase(0, 1);
    for (const std::size_t t : tasksOf(index, tasks)) byTask[t] = {t, state, reason, ""};
  }
  return ordered(std::move(byTask));
}

std::vector<TaskState> parseScontrol(const std::string& output, std::size_t tasks) {
  std::map<std::size_t, TaskState> byTask;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    const std::string index = field(line, "ArrayTaskId");
    if (index.empty()) continue;
    const std::string reason = field(line, "Reason");
    for (const std::size_t t : tasksOf(index, tasks))
      byTask[t] = {t, field(line, "JobState"), reason == "None" ? "" : reason,
                   field(line, "ExitCode")};
  }
  return ordered(std::move(byTask));
}

std::vector<TaskState> parseSacct(const std::string& output, std::size_t tasks) {
  std::map<std::size_t, TaskState> byTask;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> cells;
    std::istringstream in(line);
    for (std::string cell; std::getline(in, cell, '|');) cells.push_back(cell);
    if (cells.size() < 3) continue;
    const auto underscore = cells[0].find('_');
    if (underscore == std::string::npos) continue;
    std::string index = cells[0].substr(underscore + 1);
    if (!index.empty() && index.front() == '[') index = index.substr(1, index.find(']') - 1);
    // "CANCELLED by 0": the state is the first word.
    const std::string state = cells[1].substr(0, cells[1].find(' '));
    const std::string reason = cells.size() > 3 && cells[3] != "None" ? cells[3] : "";
    for (const std::size_t t : tasksOf(index, tasks)) byTask[t] = {t, state, reason, cells[2]};
  }
  return ordered(std::move(byTask));
}

}  // namespace kwb
