#include "core/toolkitprogram.h"

#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "core/error.h"

extern char** environ;

namespace kwb {
namespace {

namespace fs = std::filesystem;

bool executable(const fs::path& path) {
  return !path.empty() && ::access(path.c_str(), X_OK) == 0 && fs::is_regular_file(path);
}

}  // namespace

std::optional<std::string> findToolkitProgram(const std::string& name,
                                              const char* overrideVariable) {
  if (const char* chosen = std::getenv(overrideVariable); chosen && *chosen)
    return executable(chosen) ? std::optional<std::string>(chosen) : std::nullopt;
  std::vector<fs::path> candidates;
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* root = std::getenv(variable); root && *root)
      candidates.push_back(fs::path(root) / "bin" / name);
  candidates.push_back(fs::path(KWB_CUDA_BIN_DIR) / name);
  candidates.push_back(fs::path("/usr/local/cuda/bin") / name);
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest(path);
    while (!rest.empty()) {
      const auto colon = rest.find(':');
      candidates.push_back(fs::path(rest.substr(0, colon)) / name);
      rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    }
  }
  for (const auto& candidate : candidates)
    if (executable(candidate)) return candidate.string();
  return std::nullopt;
}

// Runs argv[0] with its arguments, no shell in between, and collects both output streams.
ProgramOutput runProgram(const std::vector<std::string>& argv) {
  std::array<int, 2> outPipe{};
  std::array<int, 2> errPipe{};
  if (::pipe(outPipe.data()) != 0)
    throw Error(ErrorKind::Tool, std::string("cannot create a pipe: ") + std::strerror(errno));
  if (::pipe(errPipe.data()) != 0) {
    const int error = errno;
    ::close(outPipe[0]);
    ::close(outPipe[1]);
    throw Error(ErrorKind::Tool, std::string("cannot create a pipe: ") + std::strerror(error));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, outPipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], STDERR_FILENO);
  for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1]})
    posix_spawn_file_actions_addclose(&actions, fd);
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned =
      ::posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(outPipe[1]);
  ::close(errPipe[1]);
  ProgramOutput result;
  if (spawned != 0) {
    ::close(outPipe[0]);
    ::close(errPipe[0]);
    throw Error(ErrorKind::Tool, "cannot start " + argv[0] + ": " + std::strerror(spawned));
  }
  std::array<pollfd, 2> fds{pollfd{outPipe[0], POLLIN, 0}, pollfd{errPipe[0], POLLIN, 0}};
  std::array<std::string*, 2> sinks{&result.out, &result.err};
  int open = 2;
  char buffer[1 << 16];
  while (open > 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (const auto& fd : fds)
    if (fd.fd >= 0) ::close(fd.fd);
  while (::waitpid(pid, &result.status, 0) < 0 && errno == EINTR) {
  }
  return result;
}

}  // namespace kwb
