#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

#include "core/lesson.h"
#include "core/protocol.h"
#include "core/runresult.h"

namespace kwb {

class WorkerClient;

// What the window asked to run: one or more run or sweep requests, sent to the worker one after
// another (a lesson: its baseline, then its step), and the parameters a sweep varies.
struct JobPlan {
  std::vector<protocol::RequestBody> requests;
  QStringList swept;  // the first and second swept parameter; empty for a run
  QString lesson;     // the lesson whose baseline and step these are; empty for others
};

// A lesson's baseline (where it has one), the learner's kernel (an exercise's) and step as runs
// measured with `settings`, each tagged with the lesson, as `kwb lesson --run` tags them.
JobPlan lessonPlan(const Lesson& lesson, MeasureSettings settings,
                   const std::optional<protocol::Kernel>& yours = std::nullopt);

// The window's running job: submits a plan's requests in order, keeps their results, arms the
// worker's watchdog for the plan's timing budget, and reports started / progress / point /
// finished / failed. One job at a time.
class JobSession : public QObject {
  Q_OBJECT

 public:
  explicit JobSession(WorkerClient* worker, QObject* parent = nullptr);

  // Starts the plan; false while another job runs or when the plan has no request.
  bool start(JobPlan plan);
  // Asks the worker to stop the running request; the rest of the plan is dropped.
  void stop();
  bool running() const { return !current_.isEmpty(); }
  const JobPlan& plan() const { return plan_; }
  // The results of the running job, or of the last one, in arrival order.
  const std::vector<RunResult>& runs() const { return runs_; }

  // Silence allowed before the worker counts as hung: a point's budget several times over, plus
  // verification and start-up.
  static double watchdogSeconds(double budgetSeconds);

 signals:
  void started();
  void progress(int done, int total, double etaSeconds, const QString& text);
  void point(const kwb::RunResult& run, qint64 runId);  // runId 0: not stored
  // Every request of the plan ended (or a cancelled one ended the plan).
  void finished(int completed, bool cancelled);
  // The worker refused or failed a request, or was lost; param names a parameter at fault.
  void failed(const QString& message, const QString& param);

 private:
  void submitNext();
  void end();

  WorkerClient* worker_;
  JobPlan plan_;
  std::size_t next_ = 0;  // the next request of the plan to send
  QString current_;       // the id of the request running; empty when idle
  std::vector<RunResult> runs_;
};

}  // namespace kwb
