#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <istream>
#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/worker.h"
#include "core/protocol.h"

namespace kwb::testing {

// Input whose reads block until the test pushes a line or closes it, as a pipe would.
class LineSource : public std::streambuf {
 public:
  void push(const std::string& line) {
    std::lock_guard lock(mutex_);
    pending_.push_back(line + "\n");
    changed_.notify_all();
  }
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    changed_.notify_all();
  }

 protected:
  int_type underflow() override {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return closed_ || !pending_.empty(); });
    if (pending_.empty()) return traits_type::eof();
    current_ = std::move(pending_.front());
    pending_.pop_front();
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(current_.front());
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> pending_;
  std::string current_;
  bool closed_ = false;
};

// Output that collects whole lines and lets the test wait for one.
class LineSink : public std::streambuf {
 public:
  // The first message after `from` that matches, or a null json after the timeout.
  nlohmann::json waitFor(const std::function<bool(const nlohmann::json&)>& match,
                         std::size_t* from = nullptr, double seconds = 60) {
    std::unique_lock lock(mutex_);
    std::size_t start = from ? *from : 0;
    nlohmann::json found;
    changed_.wait_for(lock, std::chrono::duration<double>(seconds), [&] {
      for (std::size_t i = start; i < lines_.size(); ++i) {
        auto message = nlohmann::json::parse(lines_[i]);
        if (match(message)) {
          found = message;
          if (from) *from = i + 1;
          return true;
        }
      }
      return false;
    });
    return found;
  }
  std::vector<std::string> lines() {
    std::lock_guard lock(mutex_);
    return lines_;
  }

 protected:
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return c;
    std::lock_guard lock(mutex_);
    if (c == '\n') {
      lines_.push_back(partial_);
      partial_.clear();
      changed_.notify_all();
    } else {
      partial_ += static_cast<char>(c);
    }
    return c;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> lines_;
  std::string partial_;
};

// A worker on a thread of the test, talked to through LineSource and LineSink.
class WorkerHarness {
 public:
  explicit WorkerHarness(RunStore* store = nullptr, int device = 0)
      : in_(&source_),
        out_(&sink_),
        thread_([this, store, device] { exitCode_ = runWorker(in_, out_, store, device); }) {}
  ~WorkerHarness() { finish(); }

  void send(const nlohmann::json& message) { source_.push(message.dump()); }
  void send(const protocol::Request& request) {
    std::string line = protocol::encode(request);
    line.pop_back();  // the source adds the line's end
    source_.push(line);
  }
  void sendRaw(const std::string& line) { source_.push(line); }
  int finish() {
    source_.close();
    if (thread_.joinable()) thread_.join();
    return exitCode_;
  }
  LineSink& output() { return sink_; }

  static std::function<bool(const nlohmann::json&)> is(const std::string& type,
                                                       const std::string& id = "") {
    return [=](const nlohmann::json& m) {
      return m.value("type", "") == type && (id.empty() || m.value("id", "") == id);
    };
  }

 private:
  LineSource source_;
  LineSink sink_;
  std::istream in_;
  std::ostream out_;
  int exitCode_ = -1;
  std::thread thread_;
};

}  // namespace kwb::testing
