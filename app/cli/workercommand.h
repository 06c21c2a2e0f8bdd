#pragma once

#include <string>
#include <vector>

#include "core/deviceinfo.h"
#include "core/protocol.h"

namespace kwb {

// The command that starts the worker of GPU `device`: this kwb, or, with a host, the host's kwb
// through the user's own ssh (their keys, agent, config and known hosts; nothing is stored
// here). $KWB_SSH replaces "ssh" (with options, as "ssh -F FILE"), $KWB_REMOTE_KWB the remote
// "kwb", $KWB_LOCAL_KWB this one (for a program that runs kwb's commands in-process, as the
// tests do). The worker stores nothing: its results come back to be stored here.
std::vector<std::string> workerCommand(const std::string& host, int device);

// Where the worker runs, for sentences: "this machine" or the host.
std::string workerPlace(const std::string& host);

// One question to a worker started with `command`, and its answer: the first reply to it that
// is not progress. A refusal is thrown as the worker's Error (NoDevice with its sentence where it
// has no GPU); Error(Internal) where it ends or stays silent past `seconds`, Error(Usage) where
// it speaks another protocol version.
protocol::ReplyBody askWorker(const std::vector<std::string>& command,
                              protocol::RequestBody question, double seconds);

// The GPUs a worker started with `command` sees.
std::vector<DeviceInfo> workerDevices(const std::vector<std::string>& command);

}  // namespace kwb
