#include "widgets/workerclient.h"

#include "core/jsoncodec.h"
#include "core/protocol.h"
#include "widgets/metatypes.h"

namespace kwb {
namespace {

QString str(const nlohmann::json& message, const char* key) {
  const auto it = message.find(key);
  return it != message.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                : QString();
}

}  // namespace

WorkerClient::WorkerClient(QString program, QStringList arguments, QObject* parent)
    : QObject(parent), program_(std::move(program)), arguments_(std::move(arguments)) {
  registerMetaTypes();
  process_.setProcessChannelMode(QProcess::SeparateChannels);
  connect(&process_, &QProcess::readyReadStandardOutput, this, &WorkerClient::readLines);
  // The worker's last words on stderr (a CUDA error, an abort message) go into the sentence
  // that reports its end; only the tail is kept.
  connect(&process_, &QProcess::readyReadStandardError, this,
          [this] { stderrTail_ = (stderrTail_ + process_.readAllStandardError()).right(2048); });
  connect(&process_, &QProcess::finished, this, &WorkerClient::onFinished);
  connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error == QProcess::FailedToStart) onFinished(-1, QProcess::CrashExit);
  });
  watchdog_.setSingleShot(true);
  connect(&watchdog_, &QTimer::timeout, this, &WorkerClient::onWatchdog);
  cancelGrace_.setSingleShot(true);
  connect(&cancelGrace_, &QTimer::timeout, this, [this] {
    lostReason_ = "did not stop within " + QString::number(cancelGraceMs_ / 1000.0) +
                  " s of being asked and was ended";
    kill();
  });
}

WorkerClient::~WorkerClient() {
  disconnect(&process_, nullptr, this, nullptr);
  if (running()) {
    process_.closeWriteChannel();  // closing stdin asks the worker to shut down
    if (!process_.waitForFinished(1000)) process_.kill();
    process_.waitForFinished(1000);
  }
}

void WorkerClient::ensureStarted() {
  if (running()) return;
  pending_.clear();
  stderrTail_.clear();
  lostReason_.clear();
  process_.start(program_, arguments_ + QStringList{"worker"});
}

QString WorkerClient::submit(nlohmann::json request) {
  ensureStarted();
  const QString id = "j" + QString::number(nextId_++);
  request["v"] = protocol::kVersion;
  request["id"] = id.toStdString();
  const std::string type = request.value("type", "");
  if (type == "run" || type == "sweep" || type == "sass") {
    jobs_[id] = Job{str(request, "family") + "/" + str(request, "variant"), 0};
    armWatchdog();
  }
  process_.write(QByteArray::fromStdString(protocol::encode(request)));
  return id;
}

void WorkerClient::requestCatalog() {
  submit(protocol::listRequest(""));
}

void WorkerClient::requestDevices() {
  submit(protocol::devicesRequest(""));
}

QString WorkerClient::requestResolve(const std::string& family, const std::string& variant,
                                     const nlohmann::json& params) {
  return submit(protocol::resolveRequest("", family, variant, params));
}

QString WorkerClient::requestSass(const std::string& family, const std::string& variant,
                                  const nlohmann::json& params) {
  return submit(protocol::sassRequest("", family, variant, params));
}

void WorkerClient::cancel(const QString& id) {
  if (!jobs_.contains(id) || !running()) return;
  process_.write(QByteArray::fromStdString(
      protocol::encode(protocol::cancelRequest("c" + id.toStdString(), id.toStdString()))));
  cancelGrace_.start(cancelGraceMs_);
}

void WorkerClient::kill() {
  if (running()) process_.kill();
}

void WorkerClient::readLines() {
  pending_ += process_.readAllStandardOutput();
  qsizetype end;
  while ((end = pending_.indexOf('\n')) >= 0) {
    const QByteArray line = pending_.left(end);
    pending_.remove(0, end + 1);
    if (line.trimmed().isEmpty()) continue;
    try {
      handle(protocol::decode(line.toStdString()).body);
    } catch (const Error&) {
      // Not a protocol line (a library's stray output): not ours to act on.
    }
  }
}

void WorkerClient::handle(const nlohmann::json& message) {
  const std::string type = message.value("type", "");
  const QString id = str(message, "id");
  if (jobs_.contains(id)) armWatchdog();  // any word from a job proves the worker alive
  try {
    if (type == "hello") {
      emit helloReceived(str(message, "app_version"));
    } else if (type == "list") {
      std::vector<FamilyInfo> families;
      for (const auto& family : message.at("families"))
        families.push_back(familyInfoFromJson(family));
      emit catalogReceived(families);
    } else if (type == "devices") {
      std::vector<DeviceInfo> devices;
      for (const auto& device : message.at("devices"))
        devices.push_back(deviceInfoFromJson(device));
      emit devicesReceived(devices);
    } else if (type == "resolved") {
      const auto& derived = message.at("derived");
      const auto& bytes = message.at("bytes");
      emit resolved(id, paramSetFromJson(message.at("params")),
                    derived.is_null() ? ParamSet() : paramSetFromJson(derived),
                    bytes.is_number() ? bytes.get<qint64>() : -1, str(message, "device"),
                    str(message, "no_device"));
    } else if (type == "progress") {
      emit progress(id, message.value("done", 0), message.value("total", 0),
                    message.value("eta_s", 0.0), str(message, "text"));
    } else if (type == "result") {
      if (jobs_.contains(id)) ++jobs_[id].completed;
      const auto runId = message.value("run_id", nlohmann::json());
      emit resultReceived(id, message.value("index", 0), runResultFromJson(message.at("run")),
                          runId.is_number_integer() ? runId.get<qint64>() : -1);
    } else if (type == "sass") {
      forget(id);
      emit sassReceived(id, sassReportFromJson(message.at("report")));
    } else if (type == "done") {
      forget(id);
      emit jobDone(id, message.value("completed", 0), message.value("cancelled", false));
    } else if (type == "error") {
      const QString code = str(message, "code");
      if (code == "no_device") emit noDevice(str(message, "message"));
      forget(id);
      emit jobError(id, code, str(message, "message"), str(message, "param"));
    }
  } catch (const std::exception& e) {
    emit jobError(id, "usage", QString("unreadable reply from the worker: ") + e.what(), {});
  }
}

void WorkerClient::forget(const QString& id) {
  jobs_.erase(id);
  if (!jobs_.empty()) return;
  watchdog_.stop();  // nothing left to watch or to wait for
  cancelGrace_.stop();
}

void WorkerClient::armWatchdog() {
  watchdog_.start(static_cast<int>(watchdogSeconds_ * 1000));
}

void WorkerClient::onWatchdog() {
  if (jobs_.empty()) return;
  lostReason_ = "was silent for " + QString::number(watchdogSeconds_) +
                " s, longer than any point may take, and was ended";
  kill();
}

void WorkerClient::onFinished(int exitCode, QProcess::ExitStatus status) {
  watchdog_.stop();
  cancelGrace_.stop();
  readLines();  // replies written just before the end still count
  stderrTail_ = (stderrTail_ + process_.readAllStandardError()).right(2048);
  QString why = lostReason_;
  if (why.isEmpty()) {
    if (exitCode == -1)
      why = "could not be started (" + process_.errorString() + ")";
    else if (status == QProcess::CrashExit)
      why = "crashed";
    else
      why = "exited with status " + QString::number(exitCode);
    const QStringList said = QString::fromUtf8(stderrTail_).trimmed().split('\n');
    if (!said.back().isEmpty()) why += " (" + said.back().trimmed() + ")";
  }
  auto jobs = std::move(jobs_);
  jobs_.clear();
  for (const auto& [id, job] : jobs) {
    emit workerLost(
        id, "The worker running " + job.label + " " + why + "; " + QString::number(job.completed) +
                (job.completed == 1 ? " result" : " results") + " received before that are kept.");
  }
}

}  // namespace kwb
