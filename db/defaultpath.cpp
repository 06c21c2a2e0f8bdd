#include "db/defaultpath.h"

#include <cstdlib>
#include <filesystem>

#include "core/error.h"

namespace kwb {

std::string defaultDatabasePath() {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = std::filesystem::path(home) / ".local" / "share";
  else
    throw Error(ErrorKind::Database, "neither XDG_DATA_HOME nor HOME is set; give --db PATH");
  const auto folder = base / "kernel-workbench";
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec)
    throw Error(ErrorKind::Database, "cannot create " + folder.string() + ": " + ec.message());
  return (folder / "history.sqlite").string();
}

}  // namespace kwb
