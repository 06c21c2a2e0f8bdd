#include "core/cuobjdump.h"

#include <sys/wait.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/toolkitprogram.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;

ProgramOutput runCuobjdump(const std::vector<std::string>& argv) {
  ProgramOutput output = runProgram(argv);
  if (!WIFEXITED(output.status) || WEXITSTATUS(output.status) != 0) {
    std::string why = output.err.substr(0, output.err.find('\n'));
    if (why.empty()) why = "exit status " + std::to_string(WEXITSTATUS(output.status));
    throw Error(ErrorKind::Tool, argv[0] + " failed: " + why);
  }
  return output;
}

}  // namespace

std::optional<std::string> findCuobjdump() {
  return findToolkitProgram("cuobjdump", "KWB_CUOBJDUMP");
}

std::string currentExecutable() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) throw Error(ErrorKind::Tool, "cannot find this program's file: " + error.message());
  return self.string();
}

std::string fileFingerprint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Tool, "cannot read " + path);
  // FNV-1a over 64-bit words: a name for a version of a file, not a defence against forgery.
  std::uint64_t hash = 14695981039346656037ull;
  std::uint64_t bytes = 0;
  std::vector<char> buffer(1 << 20);
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    const auto n = static_cast<std::size_t>(in.gcount());
    bytes += n;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, buffer.data() + i, 8);
      hash = (hash ^ word) * 1099511628211ull;
    }
    for (; i < n; ++i) hash = (hash ^ static_cast<unsigned char>(buffer[i])) * 1099511628211ull;
  }
  char text[48];
  std::snprintf(text, sizeof text, "%llu-%016llx", static_cast<unsigned long long>(bytes),
                static_cast<unsigned long long>(hash));
  return text;
}

std::vector<std::string> sassArchitectures(const std::string& tool, const std::string& binary) {
  return parseCuobjdumpElfList(runCuobjdump({tool, "-lelf", binary}).out);
}

std::vector<SassFunction> dumpSass(const std::string& tool, const std::string& binary,
                                   const std::string& arch,
                                   const std::vector<std::string>& symbols) {
  if (symbols.empty()) return {};
  std::string names;
  for (const auto& symbol : symbols) names += (names.empty() ? "" : ",") + symbol;
  return parseCuobjdumpSass(
      runCuobjdump({tool, "-sass", "-arch", arch, "-fun", names, binary}).out);
}

}  // namespace kwb
