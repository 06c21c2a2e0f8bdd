#pragma once

#include <string>
#include <vector>

#include "core/protocol.h"

namespace kwb {

// A `kwb worker` in a child process: requests go to its standard input, replies come from its
// standard output a line at a time, and the last lines of its standard error say why it ended.
// The same for a worker on another GPU of this host or, through ssh, on another machine.
class WorkerProcess {
 public:
  // Starts argv[0] (looked up on PATH) with the rest as its arguments. Error(Internal) when it
  // cannot be started.
  explicit WorkerProcess(const std::vector<std::string>& argv);
  ~WorkerProcess();  // ends it if it still runs, and waits for it
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // False once it has ended (its output closed, or a request could not be written).
  bool running() const { return out_ >= 0; }
  void send(const protocol::Request& request);
  // What to wait on with poll(): its output and its error output (-1 once closed).
  int outputFd() const { return out_; }
  int errorFd() const { return err_; }
  // Reads what is there without waiting and returns its complete replies; a line that is not
  // of the protocol (a library's stray output) is skipped. Error(Usage) when `who` speaks
  // another protocol version. At the end of its output, running() turns false.
  std::vector<protocol::Reply> readReplies(const std::string& who);
  void readErrors();
  // One sentence on how it ended: its exit status or signal and its last error line.
  std::string endSentence();

 private:
  void close(int& fd);
  // Reads what `fd` has without waiting, closing it at its end.
  void drain(int& fd, std::string& into);
  void reap();

  int pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::string pending_;
  std::string errors_;  // the tail of its error output
  int status_ = 0;
  bool reaped_ = false;
};

}  // namespace kwb
