#pragma once

#include <string>

namespace CLI {
class App;
}

namespace kwb {

// A bash completion script for kwb: its commands and options from the command line's own
// definition, the families, variants, parameters and choices from the registry (what
// `kwb list --json` prints), the metric sets and the lessons. Static text, so that completing
// never starts kwb.
std::string bashCompletion(const CLI::App& app);

}  // namespace kwb
