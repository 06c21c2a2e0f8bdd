#pragma once

#include <atomic>

namespace kwb {

// Ctrl-C sets interrupted() while a scope lives, so that a job stops between samples and keeps
// what it stored; the previous handler comes back after.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  static std::atomic<bool>& interrupted();

 private:
  void (*previous_)(int);
};

}  // namespace kwb
