#include "widgets/jobsession.h"

#include <algorithm>

#include "core/lessonoutcome.h"
#include "widgets/metatypes.h"
#include "widgets/workerclient.h"

namespace kwb {
namespace {

double budgetOf(const protocol::RequestBody& request) {
  if (const auto* run = std::get_if<protocol::RunRequest>(&request)) return run->options.budget;
  if (const auto* sweep = std::get_if<protocol::SweepRequest>(&request))
    return sweep->options.budget;
  return 0;
}

}  // namespace

JobPlan lessonPlan(const Lesson& lesson, MeasureSettings settings,
                   const std::optional<protocol::Kernel>& yours) {
  settings.tags.push_back(lessonTag(lesson));
  JobPlan plan;
  plan.lesson = QString::fromStdString(lesson.id);
  const auto add = [&](const LessonRun& run) {
    plan.requests.push_back(protocol::RunRequest{{run.family, run.variant, run.params}, settings});
  };
  if (lesson.baseline) add(*lesson.baseline);
  if (yours) plan.requests.push_back(protocol::RunRequest{*yours, settings});
  add(lesson.run);
  return plan;
}

JobSession::JobSession(WorkerClient* worker, QObject* parent) : QObject(parent), worker_(worker) {
  registerMetaTypes();
  connect(worker_, &WorkerClient::progress, this,
          [this](const QString& id, int done, int total, double eta, const QString& text) {
            if (id == current_) emit progress(done, total, eta, text);
          });
  connect(worker_, &WorkerClient::resultReceived, this,
          [this](const QString& id, int, const RunResult& run, qint64 runId) {
            if (id != current_) return;
            runs_.push_back(run);
            emit point(run, runId);
          });
  connect(worker_, &WorkerClient::jobDone, this, [this](const QString& id, int, bool cancelled) {
    if (id != current_) return;
    if (!cancelled && next_ < plan_.requests.size()) {
      submitNext();
      return;
    }
    end();
    emit finished(static_cast<int>(runs_.size()), cancelled);
  });
  connect(worker_, &WorkerClient::jobError, this,
          [this](const QString& id, const QString&, const QString& message, const QString& param) {
            if (id != current_) return;
            end();
            emit failed(message, param);
          });
  connect(worker_, &WorkerClient::workerLost, this,
          [this](const QString& id, const QString& sentence) {
            if (id != current_) return;
            end();
            emit failed(sentence, {});
          });
}

double JobSession::watchdogSeconds(double budgetSeconds) {
  return std::max(120.0, 20 * budgetSeconds);
}

bool JobSession::start(JobPlan plan) {
  if (running() || plan.requests.empty()) return false;
  double budget = 0;
  for (const auto& request : plan.requests) budget = std::max(budget, budgetOf(request));
  worker_->setWatchdogSeconds(watchdogSeconds(budget));
  plan_ = std::move(plan);
  next_ = 0;
  runs_.clear();
  submitNext();
  emit started();
  return true;
}

void JobSession::stop() {
  if (!running()) return;
  next_ = plan_.requests.size();  // what has not started never will
  worker_->cancel(current_);
}

void JobSession::submitNext() {
  current_ = worker_->submit(plan_.requests[next_++]);
}

void JobSession::end() {
  current_.clear();
  next_ = plan_.requests.size();
}

}  // namespace kwb
