#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <map>
#include <vector>

#include "core/protocol.h"

namespace kwb {

// The GUI's side of the worker protocol (docs/protocol.md): starts `kwb worker` as a child
// process, sends requests, and turns reply lines into signals on the GUI thread. A worker that
// dies, or that stays silent past a job's watchdog, is reported in one sentence; the next request
// starts a new one. Results already received are the caller's: they are never taken back.
class WorkerClient : public QObject {
  Q_OBJECT

 public:
  WorkerClient(QString program, QStringList arguments, QObject* parent = nullptr);
  ~WorkerClient() override;

  // Sends a request and returns the id it was given. Run, sweep and sass requests are jobs: they
  // end with jobDone (sassReceived), jobError or workerLost.
  QString submit(protocol::RequestBody request);
  void requestCatalog();
  void requestDevices();
  // Asks what a variant derives from these parameters on the worker's device; answered by
  // resolved or jobError with the returned id.
  QString requestResolve(protocol::Kernel kernel);
  // Asks for the machine code of the kernels this configuration launches; answered by
  // sassReceived, jobError or workerLost with the returned id.
  QString requestSass(protocol::Kernel kernel);
  // Asks the worker to stop a job; one that has not ended after the grace period ends the worker.
  void cancel(const QString& id);
  // Ends the worker now, without waiting; running jobs are reported through workerLost.
  void kill();
  // The next worker starts with these arguments (another host or device); an idle worker is
  // asked to end now, so that the next request starts it.
  void setArguments(QStringList arguments);

  bool running() const { return process_.state() != QProcess::NotRunning; }
  // The kwb program and its arguments before "worker" (--db, --device).
  const QString& program() const { return program_; }
  const QStringList& arguments() const { return arguments_; }
  bool busy() const { return !jobs_.empty(); }

  // Silence allowed within a job before the watchdog ends the worker: the longest a single point
  // may take (timing budget, verification, the copy ceiling's first measurement).
  void setWatchdogSeconds(double seconds) { watchdogSeconds_ = seconds; }
  void setCancelGraceMs(int ms) { cancelGraceMs_ = ms; }

 signals:
  void helloReceived(const QString& appVersion);
  // The worker speaks another version of the protocol: one sentence saying so and what to do.
  void incompatible(const QString& sentence);
  void catalogReceived(const std::vector<kwb::FamilyInfo>& families);
  void devicesReceived(const std::vector<kwb::DeviceInfo>& devices);
  // No CUDA device, in the worker's words.
  void noDevice(const QString& message);
  // derived and bytes are empty and noDevice says why where the worker has no device.
  void resolved(const QString& id, const kwb::ParamSet& params, const kwb::ParamSet& derived,
                qint64 bytes, const QString& device, const QString& noDevice);
  void progress(const QString& id, int done, int total, double etaSeconds, const QString& text);
  void resultReceived(const QString& id, int index, const kwb::RunResult& run, qint64 runId);
  void jobDone(const QString& id, int completed, bool cancelled);
  void sassReceived(const QString& id, const kwb::SassReport& report);
  // A tuning's evaluation (number 1 first) and, before its jobDone, its whole report: JSON as
  // `kwb tune --json` writes them (docs/tuning.md).
  void evaluated(const QString& id, int number, const nlohmann::json& evaluation);
  void tuned(const QString& id, const nlohmann::json& report);
  // A request refused or failed; param names the parameter at fault, if one is.
  void jobError(const QString& id, const QString& code, const QString& message,
                const QString& param);
  // The worker ended while id was running: one sentence saying so and why.
  void workerLost(const QString& id, const QString& sentence);

 private:
  void ensureStarted();
  void shutDown();  // closes its input, which ends it, and waits a moment
  void readLines();
  void handle(const protocol::Reply& reply);
  void handleLine(const QByteArray& line);
  void onFinished(int exitCode, QProcess::ExitStatus status);
  void forget(const QString& id);  // a job ended: drop it, and the timers once none is left
  void armWatchdog();
  void onWatchdog();

  struct Job {
    QString label;  // family/variant, for the sentences
    int completed = 0;
  };

  QString program_;
  QStringList arguments_;
  QProcess process_;
  QByteArray pending_;
  QByteArray stderrTail_;
  QTimer watchdog_;
  QTimer cancelGrace_;
  std::map<QString, Job> jobs_;
  QString lostReason_;   // set when we end the worker ourselves
  bool ending_ = false;  // it said it ends (a CUDA error): the next request waits for a fresh one
  double watchdogSeconds_ = 120;
  int cancelGraceMs_ = 3000;
  int nextId_ = 1;
};

}  // namespace kwb
