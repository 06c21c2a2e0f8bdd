#include "widgets/workerclient.h"

#include "widgets/metatypes.h"

namespace kwb {
namespace {

QString qstr(const std::string& s) {
  return QString::fromStdString(s);
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
  shutDown();
}

void WorkerClient::shutDown() {
  if (!running()) return;
  process_.closeWriteChannel();  // closing stdin asks the worker to shut down
  if (!process_.waitForFinished(1000)) process_.kill();
  process_.waitForFinished(1000);
}

void WorkerClient::setArguments(QStringList arguments) {
  arguments_ = std::move(arguments);
  if (!busy()) shutDown();
}

void WorkerClient::ensureStarted() {
  // A worker that reported a CUDA error is exiting: a request written now would be lost with it.
  if (running() && ending_ && !process_.waitForFinished(3000)) {
    process_.kill();
    process_.waitForFinished(1000);
  }
  ending_ = false;
  if (running()) return;
  pending_.clear();
  stderrTail_.clear();
  lostReason_.clear();
  process_.start(program_, arguments_ + QStringList{"worker"});
}

QString WorkerClient::submit(protocol::RequestBody body) {
  ensureStarted();
  protocol::Request request{"j" + std::to_string(nextId_++), std::move(body)};
  const QString id = qstr(request.id);
  if (request.isJob()) {
    const protocol::Kernel& k = *request.kernel();
    jobs_[id] = Job{qstr(k.family + "/" + k.variant), 0};
    armWatchdog();
  }
  process_.write(QByteArray::fromStdString(protocol::encode(request)));
  return id;
}

void WorkerClient::requestCatalog() {
  submit(protocol::ListRequest{});
}

void WorkerClient::requestDevices() {
  submit(protocol::DevicesRequest{});
}

QString WorkerClient::requestResolve(protocol::Kernel kernel) {
  return submit(protocol::ResolveRequest{std::move(kernel)});
}

QString WorkerClient::requestSass(protocol::Kernel kernel) {
  return submit(protocol::SassRequest{std::move(kernel)});
}

void WorkerClient::cancel(const QString& id) {
  if (!jobs_.contains(id) || !running()) return;
  process_.write(QByteArray::fromStdString(protocol::encode(
      protocol::Request{"c" + id.toStdString(), protocol::CancelRequest{id.toStdString()}})));
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
    if (!line.trimmed().isEmpty()) handleLine(line);
  }
}

void WorkerClient::handleLine(const QByteArray& line) {
  protocol::Reply reply;
  try {
    reply = protocol::decodeReply(line.toStdString());
  } catch (const protocol::DecodeError& e) {
    if (e.otherVersion()) {
      // Nothing it says can be read: say why once, and let it go.
      lostReason_ = "speaks another protocol version";
      emit incompatible(tr("The worker (%1) speaks protocol version %2 and this window speaks "
                           "%3: install kwb and kwb-gui of the same version.")
                            .arg(program_)
                            .arg(*e.otherVersion())
                            .arg(protocol::kVersion));
      kill();
      return;
    }
    const QString id = qstr(e.id());
    if (id.isEmpty()) return;  // not a protocol line (a library's stray output): not ours
    forget(id);
    emit jobError(id, "usage", tr("unreadable reply from the worker: %1").arg(e.what()), {});
    return;
  }
  handle(reply);
}

void WorkerClient::handle(const protocol::Reply& reply) {
  const QString id = qstr(reply.id);
  if (jobs_.contains(id)) armWatchdog();  // any word from a job proves the worker alive
  if (const auto* hello = std::get_if<protocol::Hello>(&reply.body)) {
    emit helloReceived(qstr(hello->appVersion));
  } else if (const auto* catalog = std::get_if<protocol::Catalog>(&reply.body)) {
    emit catalogReceived(catalog->families);
  } else if (const auto* list = std::get_if<protocol::DeviceList>(&reply.body)) {
    emit devicesReceived(list->devices);
  } else if (const auto* resolvedReply = std::get_if<protocol::Resolved>(&reply.body)) {
    emit resolved(id, resolvedReply->params, resolvedReply->derived.value_or(ParamSet()),
                  resolvedReply->derived ? static_cast<qint64>(resolvedReply->bytes) : -1,
                  qstr(resolvedReply->device), qstr(resolvedReply->noDevice));
  } else if (const auto* step = std::get_if<protocol::Progress>(&reply.body)) {
    emit progress(id, static_cast<int>(step->done), static_cast<int>(step->total), step->etaSeconds,
                  qstr(step->text));
  } else if (const auto* result = std::get_if<protocol::Result>(&reply.body)) {
    if (jobs_.contains(id)) ++jobs_[id].completed;
    emit resultReceived(id, static_cast<int>(result->index), result->run,
                        result->runId.value_or(-1));
  } else if (const auto* listing = std::get_if<protocol::SassListing>(&reply.body)) {
    forget(id);
    emit sassReceived(id, listing->report);
  } else if (const auto* done = std::get_if<protocol::Done>(&reply.body)) {
    forget(id);
    emit jobDone(id, static_cast<int>(done->completed), done->cancelled);
  } else if (const auto* evaluation = std::get_if<protocol::Evaluated>(&reply.body)) {
    emit evaluated(id, static_cast<int>(evaluation->number), evaluation->evaluation);
  } else if (const auto* tuning = std::get_if<protocol::Tuned>(&reply.body)) {
    emit tuned(id, tuning->report);
  } else if (const auto* failure = std::get_if<protocol::Failure>(&reply.body)) {
    const QString code = qstr(std::string(toString(failure->kind)));
    if (failure->kind == ErrorKind::NoDevice) emit noDevice(qstr(failure->message));
    if (failure->kind == ErrorKind::Cuda && jobs_.contains(id)) ending_ = true;
    forget(id);
    emit jobError(id, code, qstr(failure->message), qstr(failure->param));
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
