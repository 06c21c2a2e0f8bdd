#include "kernels/user/nvrtccompiler.h"

#include <nvrtc.h>

#include <chrono>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/error.h"

namespace kwb {

namespace {

// The file NVRTC reports name expressions that name no kernel against.
constexpr std::string_view kNameMap = "__nv_name_map";

std::string withoutSpaces(std::string text) {
  std::erase(text, ' ');
  return text;
}

void check(nvrtcResult result, const char* call) {
  if (result != NVRTC_SUCCESS)
    throw Error(ErrorKind::Internal, std::string(call) + " failed: " + nvrtcGetErrorString(result));
}

// Owns an NVRTC program for the length of one compile.
class Program {
 public:
  Program(const std::string& source, const std::string& name) {
    check(nvrtcCreateProgram(&program_, source.c_str(), name.c_str(), 0, nullptr, nullptr),
          "nvrtcCreateProgram");
  }
  ~Program() { nvrtcDestroyProgram(&program_); }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram get() const { return program_; }

 private:
  nvrtcProgram program_ = nullptr;
};

}  // namespace

std::string nvrtcVersion() {
  int major = 0, minor = 0;
  check(::nvrtcVersion(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<Diagnostic> parseNvrtcLog(const std::string& log) {
  // "t.cu(12): error: identifier "x" is undefined", then the line and a caret under the column.
  static const std::regex kHeader(R"(^(.+)\((\d+)\): (catastrophic error|error|warning): (.*)$)");
  std::vector<Diagnostic> out;
  std::istringstream in(log);
  std::string line, previous;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, kHeader)) {
      out.push_back({m[1], std::stoi(m[2]), 0, m[3], m[4]});
    } else if (!out.empty() && out.back().column == 0 && !previous.empty() &&
               line.find_first_not_of(' ') != std::string::npos &&
               line.find_first_not_of(' ') == line.find('^') && line.find('^') < previous.size()) {
      // NVRTC prints the source line indented by two spaces; the caret marks the column.
      out.back().column = static_cast<int>(line.find('^')) - 1;
    }
    previous = line;
  }
  return out;
}

std::vector<Diagnostic> attributeNameMapErrors(const CompileRequest& request,
                                               std::vector<Diagnostic> diagnostics) {
  // NVRTC says which expression failed in one of its messages about a line of its name map
  // ("Input name expression was: \" k < 32, 4 >\""); the others about that line follow suit.
  std::map<int, std::size_t> expressionOfLine;
  for (const Diagnostic& d : diagnostics) {
    if (d.file != kNameMap) continue;
    const std::string said = withoutSpaces(d.message);
    for (std::size_t i = 0; i < request.nameExpressions.size() && i < request.nameOrigins.size();
         ++i)
      if (said.find("\"" + withoutSpaces(request.nameExpressions[i]) + "\"") != std::string::npos)
        expressionOfLine[d.line] = i;
  }
  std::vector<Diagnostic> out;
  std::set<std::size_t> said;
  for (Diagnostic& d : diagnostics) {
    const auto found = expressionOfLine.find(d.line);
    if (d.file != kNameMap || found == expressionOfLine.end()) {
      out.push_back(std::move(d));
      continue;
    }
    if (!said.insert(found->second).second) continue;  // one error per expression
    const auto& [field, line] = request.nameOrigins[found->second];
    out.push_back({request.fileName, line, 0, "error",
                   field + ": '" + request.nameExpressions[found->second] +
                       "' is no kernel of the file: " + d.message});
  }
  return out;
}

CompiledModule compileKernel(const CompileRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  Program program(request.source, request.fileName);
  for (const auto& name : request.nameExpressions)
    check(nvrtcAddNameExpression(program.get(), name.c_str()), "nvrtcAddNameExpression");
  std::vector<std::string> options = {"--gpu-architecture=sm_" + std::to_string(request.arch),
                                      "-lineinfo", "-std=c++17",
                                      "--include-path=" KWB_CUDA_INCLUDE_DIR};
  for (const auto& [name, value] : request.defines) options.push_back("-D" + name + "=" + value);
  std::vector<const char*> argv;
  for (const auto& option : options) argv.push_back(option.c_str());
  const nvrtcResult compiled =
      nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());

  CompiledModule module;
  std::size_t logSize = 0;
  check(nvrtcGetProgramLogSize(program.get(), &logSize), "nvrtcGetProgramLogSize");
  module.log.resize(logSize);
  check(nvrtcGetProgramLog(program.get(), module.log.data()), "nvrtcGetProgramLog");
  while (!module.log.empty() && module.log.back() == '\0') module.log.pop_back();
  module.diagnostics = attributeNameMapErrors(request, parseNvrtcLog(module.log));
  module.ok = compiled == NVRTC_SUCCESS;
  if (module.ok) {
    std::size_t size = 0;
    check(nvrtcGetCUBINSize(program.get(), &size), "nvrtcGetCUBINSize");
    module.cubin.resize(size);
    check(nvrtcGetCUBIN(program.get(), module.cubin.data()), "nvrtcGetCUBIN");
    for (const auto& name : request.nameExpressions) {
      const char* lowered = nullptr;
      check(nvrtcGetLoweredName(program.get(), name.c_str(), &lowered), "nvrtcGetLoweredName");
      module.loweredNames[name] = lowered;
    }
  } else if (compiled != NVRTC_ERROR_COMPILATION) {
    check(compiled, "nvrtcCompileProgram");
  }
  module.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return module;
}

}  // namespace kwb
