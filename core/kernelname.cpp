#include "core/kernelname.h"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>

namespace kwb {
namespace {

std::string demangle(std::string_view symbol) {
  const std::string text(symbol);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(text.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && out ? std::string(out.get()) : text;
}

// Removes the parameter list: the last parenthesised group at template depth 0.
std::string withoutParameters(const std::string& name) {
  int depth = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (name[i] == '(' && depth == 0 && name.compare(i, 20, "(anonymous namespace") != 0)
      return name.substr(0, i);
  }
  return name;
}

// Drops "ns::" qualifiers (and a leading return type) while keeping the template arguments.
std::string withoutQualifiers(const std::string& name) {
  std::string out;
  std::string word;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (name.compare(i, 21, "(anonymous namespace)") == 0) {
      word.clear();
      i += 20;
    } else if (c == ':' && i + 1 < name.size() && name[i + 1] == ':') {
      word.clear();
      ++i;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word += c;
    } else {
      out += word;
      out += c;
      word.clear();
    }
  }
  return out + word;
}

}  // namespace

std::string shortKernelName(std::string_view symbol) {
  std::string name = withoutParameters(demangle(symbol));
  // A function template's demangled name starts with its return type.
  if (name.rfind("void ", 0) == 0) name.erase(0, 5);
  return withoutQualifiers(name);
}

}  // namespace kwb
