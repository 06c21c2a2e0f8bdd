#pragma once

#include <poll.h>

#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/cli/workerprocess.h"
#include "core/protocol.h"

namespace kwb::testing {

// A relay (`kwb ... worker`) started with `argv`, as the window starts it: sent `requests` (JSON
// lines with ids) and read until each has its last reply (a job's done or error) or the relay
// ends; `watch` sees each reply as it comes and may send more (a cancel). Then its input is
// closed. The replies by request id, and how the relay ended.
struct Relayed {
  std::map<std::string, std::vector<protocol::Reply>> replies;
  std::string end;
};
inline Relayed relayThrough(
    const std::vector<std::string>& argv, const std::vector<std::string>& requests,
    const std::function<void(const protocol::Reply&, WorkerProcess&)>& watch = {}) {
  WorkerProcess relay(argv);
  std::set<std::string> open;
  for (const auto& line : requests) {
    const protocol::Request request = protocol::decodeRequest(line);
    open.insert(request.id);
    relay.send(request);
  }
  Relayed out;
  const auto start = std::chrono::steady_clock::now();
  while (!open.empty() && relay.running() &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(90)) {
    pollfd fds[2] = {{relay.outputFd(), POLLIN, 0}, {relay.errorFd(), POLLIN, 0}};
    poll(fds, 2, 200);
    relay.readErrors();
    for (const protocol::Reply& reply : relay.readReplies("the relay")) {
      const bool last = std::holds_alternative<protocol::Done>(reply.body) ||
                        std::holds_alternative<protocol::Failure>(reply.body) ||
                        std::holds_alternative<protocol::Catalog>(reply.body) ||
                        std::holds_alternative<protocol::DeviceList>(reply.body);
      if (last) open.erase(reply.id);
      out.replies[reply.id].push_back(reply);
      if (watch) watch(reply, relay);
    }
  }
  out.end = relay.endSentence();
  return out;
}

}  // namespace kwb::testing
