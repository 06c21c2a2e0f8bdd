#include "app/cli/jobthread.h"

namespace kwb {

JobThread::JobThread(Execute execute, Send send)
    : execute_(std::move(execute)), send_(std::move(send)), thread_([this] { loop(); }) {}

JobThread::~JobThread() {
  stop();
}

void JobThread::stop() {
  std::deque<std::shared_ptr<QueuedJob>> dropped;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    dropped.swap(queue_);
    if (current_) current_->cancel = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  for (const auto& job : dropped) send_({job->id, protocol::Done{0, true}});
}

bool JobThread::takes(const protocol::Request& request) {
  const protocol::Type type = request.type();
  return type == protocol::Type::Run || type == protocol::Type::Sweep ||
         type == protocol::Type::Tune;
}

void JobThread::open() {
  {
    std::lock_guard lock(mutex_);
    open_ = true;
  }
  changed_.notify_all();
}

void JobThread::submit(std::shared_ptr<QueuedJob> job) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(job));
  }
  changed_.notify_all();
}

void JobThread::submit(protocol::Request request) {
  auto job = std::make_shared<RequestJob>();
  job->id = request.id;
  job->request = std::move(request);
  submit(std::move(job));
}

bool JobThread::cancel(const std::string& id) {
  std::shared_ptr<QueuedJob> removed;
  {
    std::lock_guard lock(mutex_);
    if (current_ && current_->id == id) {
      current_->cancel = true;
      return true;
    }
    for (auto it = queue_.begin(); it != queue_.end(); ++it)
      if ((*it)->id == id) {
        removed = *it;
        queue_.erase(it);
        break;
      }
  }
  if (removed) send_({id, protocol::Done{0, true}});
  return removed != nullptr;
}

void JobThread::loop() {
  while (true) {
    std::shared_ptr<QueuedJob> job;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return stopping_ || (open_ && !queue_.empty()); });
      if (stopping_) return;
      job = queue_.front();
      queue_.pop_front();
      current_ = job;
    }
    execute_(*job);
    std::lock_guard lock(mutex_);
    current_.reset();
  }
}

}  // namespace kwb
