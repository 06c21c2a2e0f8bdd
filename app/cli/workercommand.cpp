#include "app/cli/workercommand.h"

#include <chrono>
#include <cstdlib>
#include <sstream>

#include <poll.h>

#include "app/cli/workerprocess.h"
#include "core/cuobjdump.h"
#include "core/error.h"

namespace kwb {
namespace {

// Long enough for ssh to connect and the worker to find its GPUs.
constexpr double kAnswerSeconds = 60;

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string environment(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

}  // namespace

std::vector<std::string> workerCommand(const std::string& host, int device) {
  const std::vector<std::string> worker{"--no-store", "--device", std::to_string(device), "worker"};
  std::vector<std::string> command;
  if (host.empty()) {
    const char* local = std::getenv("KWB_LOCAL_KWB");
    command.push_back(local && *local ? local : currentExecutable());
  } else {
    // -T: no terminal, the protocol's lines pass untouched; BatchMode: a key or agent, never a
    // password prompt on a terminal the workbench does not show.
    command = words(environment("KWB_SSH", "ssh"));
    command.insert(command.end(), {"-T", "-o", "BatchMode=yes", host});
    command.push_back(environment("KWB_REMOTE_KWB", "kwb"));
  }
  command.insert(command.end(), worker.begin(), worker.end());
  return command;
}

std::string workerPlace(const std::string& host) {
  return host.empty() ? "this machine" : host;
}

protocol::ReplyBody askWorker(const std::vector<std::string>& command,
                              protocol::RequestBody question, double seconds) {
  WorkerProcess worker(command);
  const auto start = std::chrono::steady_clock::now();
  bool asked = false;
  while (true) {
    pollfd fds[2] = {{worker.outputFd(), POLLIN, 0}, {worker.errorFd(), POLLIN, 0}};
    poll(fds, 2, 200);
    worker.readErrors();
    for (const protocol::Reply& reply : worker.readReplies("the worker")) {
      if (std::holds_alternative<protocol::Hello>(reply.body)) {
        if (!asked) worker.send({"q", question});
        asked = true;
        continue;
      }
      if (reply.id != "q" || std::holds_alternative<protocol::Progress>(reply.body)) continue;
      if (const auto* failure = std::get_if<protocol::Failure>(&reply.body))
        throw Error(failure->kind, failure->message);
      worker.send({"bye", protocol::ShutdownRequest{}});
      return reply.body;
    }
    if (!worker.running()) throw Error(ErrorKind::Internal, "the worker " + worker.endSentence());
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds)
      throw Error(ErrorKind::Internal, "the worker did not answer within " +
                                           std::to_string(static_cast<int>(seconds)) + " s");
  }
}

std::vector<DeviceInfo> workerDevices(const std::vector<std::string>& command) {
  const protocol::ReplyBody answer = askWorker(command, protocol::DevicesRequest{}, kAnswerSeconds);
  if (const auto* list = std::get_if<protocol::DeviceList>(&answer)) return list->devices;
  throw Error(ErrorKind::Internal, "the worker answered the devices request with another reply");
}

}  // namespace kwb
