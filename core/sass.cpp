#include "core/sass.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace kwb {
namespace {

std::string_view trimmed(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

// "/*0040*/" at the start of an instruction line; its length, or 0.
std::size_t addressLength(std::string_view line) {
  if (line.size() < 5 || line.substr(0, 2) != "/*") return 0;
  std::size_t i = 2;
  while (i < line.size() && std::isxdigit(static_cast<unsigned char>(line[i]))) ++i;
  return i > 2 && line.substr(i, 2) == "*/" ? i + 2 : 0;
}

// Calls visit with each line of text, without its '\n'.
template <typename Visit>
void forEachLine(std::string_view text, Visit visit) {
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    visit(text.substr(start, end - start));
    start = end + 1;
  }
}

bool isLabel(std::string_view line) {
  return line.size() > 2 && line[0] == '.' && line.back() == ':';
}

// An instruction line as shown: address, predicate right-aligned, instruction; the encoding
// comment cuobjdump appends is dropped.
std::string cleanInstruction(std::string_view line, std::size_t address) {
  std::string_view rest = line.substr(address);
  const auto encoding = rest.find("/* 0x");
  if (encoding != std::string_view::npos) rest = rest.substr(0, encoding);
  rest = trimmed(rest);
  std::string predicate;
  if (!rest.empty() && rest[0] == '@') {
    const auto space = rest.find(' ');
    predicate = std::string(rest.substr(0, space));
    rest = space == std::string_view::npos ? std::string_view{} : trimmed(rest.substr(space));
  }
  std::string out(line.substr(0, address));
  out.append(std::max<std::size_t>(1, 7 - predicate.size()), ' ');
  out += predicate;
  out += ' ';
  out += rest;
  return out;
}

bool hasModifier(std::string_view opcode, std::string_view modifier) {
  std::size_t pos = 0;
  while ((pos = opcode.find('.', pos)) != std::string_view::npos) {
    ++pos;
    const auto end = opcode.find('.', pos);
    if (opcode.substr(pos, end == std::string_view::npos ? end : end - pos) == modifier)
      return true;
  }
  return false;
}

}  // namespace

std::string_view describe(SassClass kind) {
  switch (kind) {
    case SassClass::GlobalWide: return "128-bit global load/store";
    case SassClass::GlobalNarrow: return "narrower global load/store";
    case SassClass::Shared: return "shared memory";
    case SassClass::Barrier: return "barrier";
    case SassClass::Shuffle: return "warp shuffle";
    case SassClass::Other: break;
  }
  return "other";
}

std::vector<SassFunction> parseCuobjdumpSass(std::string_view output) {
  std::vector<SassFunction> functions;
  SassFunction* current = nullptr;
  forEachLine(output, [&](std::string_view raw) {
    const std::string_view line = trimmed(raw);
    constexpr std::string_view kFunction = "Function : ";
    if (line.substr(0, kFunction.size()) == kFunction) {
      const std::string symbol(trimmed(line.substr(kFunction.size())));
      const bool duplicate = std::any_of(functions.begin(), functions.end(),
                                         [&](const SassFunction& f) { return f.symbol == symbol; });
      current = duplicate ? nullptr : &functions.emplace_back(SassFunction{symbol, {}});
    } else if (line.substr(0, 5) == "....." || line.substr(0, 6) == "Fatbin") {
      current = nullptr;
    } else if (!current) {
      return;
    } else if (const std::size_t address = addressLength(line)) {
      current->listing += cleanInstruction(line, address);
      current->listing += '\n';
    } else if (isLabel(line)) {
      current->listing += line;
      current->listing += '\n';
    }
  });
  return functions;
}

std::vector<std::string> parseCuobjdumpElfList(std::string_view output) {
  static const std::regex kArch(R"(\.(sm_[0-9]+[a-z]?)\.cubin)");
  std::vector<std::string> archs;
  const std::string text(output);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kArch);
       it != std::sregex_iterator(); ++it) {
    const std::string arch = (*it)[1];
    if (std::find(archs.begin(), archs.end(), arch) == archs.end()) archs.push_back(arch);
  }
  return archs;
}

std::string sassOpcode(std::string_view line) {
  line = trimmed(line);
  const std::size_t address = addressLength(line);
  if (!address) return {};
  std::string_view rest = trimmed(line.substr(address));
  if (!rest.empty() && rest[0] == '{') rest = trimmed(rest.substr(1));  // a dual-issue pair
  if (!rest.empty() && rest[0] == '@') {
    const auto space = rest.find(' ');
    if (space == std::string_view::npos) return {};
    rest = trimmed(rest.substr(space));
  }
  const auto end = rest.find_first_of(" ;");
  return std::string(rest.substr(0, end));
}

SassClass classifySassOpcode(std::string_view opcode) {
  const std::string_view root = opcode.substr(0, opcode.find('.'));
  if (root == "LDG" || root == "STG" || root == "LD" || root == "ST")
    return hasModifier(opcode, "128") || hasModifier(opcode, "256") ? SassClass::GlobalWide
                                                                    : SassClass::GlobalNarrow;
  if (root == "LDS" || root == "STS" || root == "LDSM" || root == "LDGSTS" || root == "ATOMS")
    return SassClass::Shared;
  if (root == "BAR") return SassClass::Barrier;
  if (root == "SHFL") return SassClass::Shuffle;
  return SassClass::Other;
}

std::size_t SassSummary::count(SassClass kind) const {
  std::size_t total = 0;
  for (const auto& [opcode, n] : notable)
    if (classifySassOpcode(opcode) == kind) total += n;
  return total;
}

SassSummary summarizeSass(std::string_view listing) {
  SassSummary summary;
  forEachLine(listing, [&](std::string_view line) {
    const std::string opcode = sassOpcode(line);
    if (opcode.empty()) return;
    ++summary.instructions;
    if (classifySassOpcode(opcode) != SassClass::Other) ++summary.notable[opcode];
  });
  return summary;
}

std::string notableText(const SassSummary& summary) {
  std::string text;
  for (SassClass kind : kNotableSassClasses)
    for (const auto& [opcode, n] : summary.notable)
      if (classifySassOpcode(opcode) == kind)
        text += (text.empty() ? "" : "  ") + opcode + " x" + std::to_string(n);
  return text.empty() ? "no global, shared, barrier or shuffle instructions" : text;
}

}  // namespace kwb
