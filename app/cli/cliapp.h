#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace kwb {

// The whole `kwb` command line: args without the program name. Never throws; returns the exit
// code (docs/cli.md). `in` feeds `kwb worker`.
int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
           std::ostream& err);

}  // namespace kwb
