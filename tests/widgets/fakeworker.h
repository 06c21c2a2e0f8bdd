#pragma once

#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include "core/protocol.h"

namespace kwb::testing {

// A shell script standing in for `kwb`: prints the recorded H100 session's hello, then answers
// each request (or the first only, when `once`) by replaying the session's next lines up to
// replayLines with the request's id, then behaves as `afterReplay` says.
inline QString fakeWorker(const QTemporaryDir& dir, const QString& name, const QString& afterReplay,
                          int replayLines, bool once = true) {
  const QString path = dir.filePath(name);
  QFile file(path);
  file.open(QIODevice::WriteOnly);
  const QString fixture = QString(KWB_FIXTURES_DIR) + "/worker/h100_run.jsonl";
  const QString replay =
      QString(
          "id=$(echo \"$request\" | sed 's/.*\"id\":\"\\([^\"]*\\)\".*/\\1/')\n"
          "sed -n '2,%2p' '%1' | sed \"s/\\\"id\\\":\\\"r1\\\"/\\\"id\\\":\\\"$id\\\"/\"\n")
          .arg(fixture)
          .arg(replayLines);
  file.write(QString("#!/bin/sh\n"
                     "head -n 1 '%1'\n" +
                     (once ? "read -r request\n" + replay
                           : "while read -r request; do\n" + replay + "done\n") +
                     "%2\n")
                 .arg(fixture, afterReplay)
                 .toUtf8());
  file.close();
  file.setPermissions(file.permissions() | QFileDevice::ExeOwner);
  return path;
}

// A run request of the recorded session's kind.
inline protocol::RunRequest recordedRunRequest() {
  return {{"copy", "vectorized", {{"n", "2^24"}}}, {}};
}

}  // namespace kwb::testing
