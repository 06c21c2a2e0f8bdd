#include "app/cli/workerprocess.h"

#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/error.h"

namespace kwb {
namespace {

constexpr std::size_t kErrorTail = 4096;

void nonBlocking(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

}  // namespace

WorkerProcess::WorkerProcess(const std::vector<std::string>& argv) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
    throw Error(ErrorKind::Internal, std::string("pipes for a worker: ") + std::strerror(errno));
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_ = fork();
  if (pid_ == 0) {
    // A group of its own: Ctrl-C reaches kwb, which asks the worker to stop, not the worker.
    setpgid(0, 0);
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    execvp(args[0], args.data());
    const std::string message = "cannot start " + argv[0] + ": " + std::strerror(errno) + "\n";
    (void)!write(STDERR_FILENO, message.data(), message.size());
    _exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (pid_ < 0) {
    ::close(in[1]);
    ::close(out[0]);
    ::close(err[0]);
    throw Error(ErrorKind::Internal, std::string("cannot start a worker: ") + std::strerror(errno));
  }
  in_ = in[1];
  out_ = out[0];
  err_ = err[0];
  nonBlocking(out_);
  nonBlocking(err_);
}

WorkerProcess::~WorkerProcess() {
  close(in_);
  close(out_);
  close(err_);
  if (pid_ > 0 && !reaped_) {
    kill(pid_, SIGTERM);
    reap();
  }
}

void WorkerProcess::close(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void WorkerProcess::send(const protocol::Request& request) {
  if (in_ < 0) return;
  const std::string line = protocol::encode(request);
  std::size_t written = 0;
  // A worker that stopped reading has ended: its output's end says so.
  const auto previous = std::signal(SIGPIPE, SIG_IGN);
  while (written < line.size()) {
    const ssize_t n = write(in_, line.data() + written, line.size() - written);
    if (n <= 0) {
      close(in_);
      break;
    }
    written += static_cast<std::size_t>(n);
  }
  std::signal(SIGPIPE, previous);
}

void WorkerProcess::drain(int& fd, std::string& into) {
  char buffer[65536];
  while (fd >= 0) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0)
      into.append(buffer, static_cast<std::size_t>(n));
    else if (n < 0 && errno == EINTR)
      continue;
    else if (n < 0 && errno == EAGAIN)
      break;
    else
      close(fd);  // its end
  }
}

std::vector<protocol::Reply> WorkerProcess::readReplies(const std::string& who) {
  drain(out_, pending_);
  std::vector<protocol::Reply> replies;
  std::size_t start = 0;
  for (std::size_t nl; (nl = pending_.find('\n', start)) != std::string::npos; start = nl + 1) {
    try {
      replies.push_back(
          protocol::decodeReply(std::string_view(pending_).substr(start, nl - start)));
    } catch (const protocol::DecodeError& error) {
      if (error.otherVersion())
        throw Error(ErrorKind::Usage,
                    who + " speaks protocol version " + std::to_string(*error.otherVersion()) +
                        ", this kwb version " + std::to_string(protocol::kVersion) +
                        ": run the same kwb version on both sides");
    }
  }
  pending_.erase(0, start);
  return replies;
}

void WorkerProcess::readErrors() {
  drain(err_, errors_);
  if (errors_.size() > kErrorTail) errors_.erase(0, errors_.size() - kErrorTail);
}

void WorkerProcess::reap() {
  if (reaped_ || pid_ <= 0) return;
  // It is ending (its output closed, or asked to end): a moment, then make sure.
  for (int i = 0; i < 100 && !reaped_; ++i) {
    if (waitpid(pid_, &status_, WNOHANG) == pid_) reaped_ = true;
    if (!reaped_) usleep(10000);
  }
  if (!reaped_) {
    kill(pid_, SIGKILL);
    waitpid(pid_, &status_, 0);
    reaped_ = true;
  }
}

std::string WorkerProcess::endSentence() {
  readErrors();
  close(in_);
  close(out_);
  reap();
  std::string how;
  if (WIFEXITED(status_))
    how = "exited with status " + std::to_string(WEXITSTATUS(status_));
  else if (WIFSIGNALED(status_))
    how = std::string("was killed by signal ") + strsignal(WTERMSIG(status_));
  std::string last = errors_;
  while (!last.empty() && (last.back() == '\n' || last.back() == '\r')) last.pop_back();
  if (const auto nl = last.rfind('\n'); nl != std::string::npos) last.erase(0, nl + 1);
  return how + (last.empty() ? "" : " (" + last + ")");
}

}  // namespace kwb
