#pragma once

#include <string>

namespace kwb {

// $XDG_DATA_HOME/kernel-workbench/history.sqlite, or ~/.local/share/... when XDG_DATA_HOME is
// unset; the folder is created.
std::string defaultDatabasePath();

}  // namespace kwb
