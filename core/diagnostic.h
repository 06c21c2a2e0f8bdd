#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kwb {

// A message of the compiler about a line of a kernel file; column 0 where it gives none. The
// text form "t.cu:12:5: error: identifier "x" is undefined" is what the CLI prints and what a
// failed compile's error carries to the GUI, which reads it back for the editor's markers.
struct Diagnostic {
  std::string file;
  int line = 0;
  int column = 0;
  std::string severity;  // "error", "warning"
  std::string message;
  std::string text() const;
  friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

// The diagnostics among lines of text() form; other lines are skipped.
std::vector<Diagnostic> parseDiagnostics(std::string_view text);

}  // namespace kwb
