#include "app/cli/bashcompletion.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/lesson.h"
#include "core/metriccatalog.h"
#include "kernels/registry.h"

namespace kwb {
namespace {

// Every name a completion offers is a plain word (registry names, option names); single quotes
// keep them literal all the same.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

std::vector<const CLI::App*> commandsOf(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App*) { return true; });
}

// The option's names, and whether it takes a value; positionals by their names, in order.
void describe(const CLI::App& command, std::vector<std::string>& options,
              std::vector<std::string>& valued, std::vector<std::string>& positionals) {
  for (const CLI::Option* option : command.get_options()) {
    if (option->get_positional()) {
      positionals.push_back(option->get_name());
      continue;
    }
    std::vector<std::string> names = option->get_lnames();
    for (auto& n : names) n = "--" + n;
    for (const auto& n : option->get_snames()) names.push_back("-" + n);
    options.insert(options.end(), names.begin(), names.end());
    if (option->get_expected_max() == 0) continue;  // a flag
    for (const auto& n : names)
      if (std::find(valued.begin(), valued.end(), n) == valued.end()) valued.push_back(n);
  }
}

// The shell function: reads the tables written before it.
constexpr const char* kFunction = R"(
# The line up to the cursor in words of its own (bash would break NAME=VALUE at the =): the
# command (and db's), then the positionals; options and their values left out.
_kwb() {
  local line=${COMP_LINE:0:COMP_POINT} words
  read -ra words <<< "$line"
  [[ -z $line || $line == *[[:space:]] ]] && words+=("")
  local cur=${words[-1]} prev=${words[-2]-} cmd= args=() i w skip=0
  for ((i = 1; i < ${#words[@]} - 1; i++)); do
    w=${words[i]}
    if ((skip)); then skip=0; continue; fi
    if [[ $w == -* ]]; then
      [[ $w != *=* && " $_kwb_valued " == *" $w "* ]] && skip=1
      continue
    fi
    if [[ -z $cmd ]]; then cmd=$w
    elif [[ $cmd == db ]]; then cmd="db $w"
    else args+=("$w"); fi
  done
  COMPREPLY=()
  _kwb_complete "${args[0]-}" "${args[1]-}"
  # bash replaces only what follows the last = or : it breaks words at.
  local tail=$cur c
  for c in = :; do [[ $COMP_WORDBREAKS == *$c* ]] && tail=${tail##*"$c"}; done
  local cut=$((${#cur} - ${#tail}))
  ((cut)) && for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=${COMPREPLY[i]:cut}; done
  return 0
}

_kwb_complete() {
  local family=$1 variant=$2
  if ((skip)); then
    case $prev in
      --db|-o|--output|--start|--file) _kwb_files "*" ;;
      --mode) COMPREPLY=($(compgen -W "cold hot" -- "$cur")) ;;
      --format) COMPREPLY=($(compgen -W "csv json nvbench t4" -- "$cur")) ;;
      --implements|--family) COMPREPLY=($(compgen -W "$_kwb_families" -- "$cur")) ;;
      --metrics) # a comma-separated list: complete its last item
        local head=
        [[ $cur == *,* ]] && head=${cur%,*},
        COMPREPLY=($(compgen -P "$head" -W "$_kwb_metric_sets all" -- "${cur##*,}")) ;;
      -s|--sweep|-p|--param) _kwb_param "$family" "$variant" ;;
    esac
    return
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "${_kwb_options[$cmd]-} $_kwb_global" -- "$cur"))
  elif [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W "$_kwb_commands" -- "$cur"))
  elif [[ $cmd == db ]]; then
    COMPREPLY=($(compgen -W "$_kwb_db_commands" -- "$cur"))
  else
    local names=(${_kwb_positionals[$cmd]-}) n=${#args[@]}
    ((${#names[@]})) || return
    ((n >= ${#names[@]})) && n=$((${#names[@]} - 1))
    case ${names[n]} in
      family)
        COMPREPLY=($(compgen -W "$_kwb_families" -- "$cur"))
        [[ $cmd == list ]] || _kwb_files "*.cu" ;;
      variant)
        if [[ $family == *.cu ]]; then _kwb_param "" ""
        else COMPREPLY=($(compgen -W "${_kwb_variants[$family]-}" -- "$cur")); fi ;;
      params) _kwb_param "$family" "$variant" ;;
      id) COMPREPLY=($(compgen -W "$_kwb_lessons" -- "$cur")) ;;
      files|file) [[ $cmd == import ]] && _kwb_files "*.json" || _kwb_files "*.cu" ;;
      sources) _kwb_files "*" ;;
    esac
  fi
}

# Files matching $1, and folders to go into.
_kwb_files() {
  compopt -o filenames 2> /dev/null
  local IFS=$'\n'
  COMPREPLY+=($(compgen -f -X "!$1" -- "$cur") $(compgen -d -- "$cur"))
}

# NAME= for the variant's parameters; after NAME=, its choices.
_kwb_param() {
  local key="$1/$2"
  if [[ $cur == *=* ]]; then
    local name=${cur%%=*}
    COMPREPLY=($(compgen -P "$name=" -W "${_kwb_choices[$key/$name]-}" -- "${cur#*=}"))
  else
    compopt -o nospace 2> /dev/null
    COMPREPLY=($(compgen -S = -W "${_kwb_params[$key]-}" -- "$cur"))
  fi
}

complete -F _kwb kwb
)";

}  // namespace

std::string bashCompletion(const CLI::App& app) {
  std::ostringstream out;
  out << "# bash completion for kwb, written by `kwb completion bash`.\n\n";

  std::vector<std::string> commands, globalOptions, valued, ignored;
  describe(app, globalOptions, valued, ignored);
  std::ostringstream perCommand, perPositionals;
  std::vector<std::string> dbCommands;
  for (const CLI::App* command : commandsOf(app)) {
    commands.push_back(command->get_name());
    std::vector<std::string> options, positionals;
    describe(*command, options, valued, positionals);
    for (const CLI::App* sub : commandsOf(*command)) {
      const std::string name = command->get_name() + " " + sub->get_name();
      std::vector<std::string> subOptions, subPositionals;
      describe(*sub, subOptions, valued, subPositionals);
      if (command->get_name() == "db") dbCommands.push_back(sub->get_name());
      perCommand << "  [" << quoted(name) << "]=" << quoted(joined(subOptions)) << "\n";
      perPositionals << "  [" << quoted(name) << "]=" << quoted(joined(subPositionals)) << "\n";
    }
    perCommand << "  [" << quoted(command->get_name()) << "]=" << quoted(joined(options)) << "\n";
    perPositionals << "  [" << quoted(command->get_name()) << "]=" << quoted(joined(positionals))
                   << "\n";
  }
  out << "_kwb_commands=" << quoted(joined(commands)) << "\n";
  out << "_kwb_db_commands=" << quoted(joined(dbCommands)) << "\n";
  out << "_kwb_global=" << quoted(joined(globalOptions)) << "\n";
  out << "_kwb_valued=" << quoted(joined(valued)) << "\n";
  out << "declare -gA _kwb_options=(\n" << perCommand.str() << ")\n";
  out << "declare -gA _kwb_positionals=(\n" << perPositionals.str() << ")\n";

  std::vector<std::string> families;
  std::ostringstream variants, params, choices;
  for (const FamilyInfo& family : Registry::instance().families()) {
    families.push_back(family.name);
    std::vector<std::string> names;
    for (const VariantInfo& variant : family.variants) {
      names.push_back(variant.name);
      const std::string key = family.name + "/" + variant.name;
      std::vector<std::string> paramNames;
      for (const ParamSpec& param : variant.params) {
        paramNames.push_back(param.name);
        std::vector<std::string> values = param.choices;
        if (param.allowsAuto) values.push_back("auto");
        if (!values.empty())
          choices << "  [" << quoted(key + "/" + param.name) << "]=" << quoted(joined(values))
                  << "\n";
      }
      params << "  [" << quoted(key) << "]=" << quoted(joined(paramNames)) << "\n";
    }
    variants << "  [" << quoted(family.name) << "]=" << quoted(joined(names)) << "\n";
  }
  out << "_kwb_families=" << quoted(joined(families)) << "\n";
  out << "declare -gA _kwb_variants=(\n" << variants.str() << ")\n";
  out << "declare -gA _kwb_params=(\n" << params.str() << ")\n";
  out << "declare -gA _kwb_choices=(\n" << choices.str() << ")\n";

  std::vector<std::string> sets, lessonIds;
  for (const MetricSet& set : metricSets()) sets.push_back(set.name);
  for (const Lesson& lesson : lessons()) lessonIds.push_back(lesson.id);
  out << "_kwb_metric_sets=" << quoted(joined(sets)) << "\n";
  out << "_kwb_lessons=" << quoted(joined(lessonIds)) << "\n";
  out << kFunction;
  return out.str();
}

}  // namespace kwb
