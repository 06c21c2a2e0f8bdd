#include "widgets/qualitypanel.h"

#include <QLabel>
#include <QTextDocument>
#include <QVBoxLayout>

#include "core/error.h"
#include "core/measurementquality.h"
#include "core/traffic.h"
#include "db/baselinestore.h"
#include "db/runstore.h"

namespace kwb {

QString againstBaselineSentence(const QString& databasePath, std::int64_t runId,
                                const RunResult& run) {
  if (runId <= 0 || databasePath.isEmpty()) return {};
  try {
    RunStore store(databasePath.toStdString());
    const auto against = baselineVerdict(store, runId, run);
    if (!against) return {};
    QString text = QObject::tr("Against baseline run %1: %2")
                       .arg(against->baselineId)
                       .arg(QString::fromStdString(describe(against->verdict)));
    for (const auto& caveat : against->verdict.caveats)
      text += "; " + QString::fromStdString(caveat);
    return text;
  } catch (const Error&) {
    return {};  // no history to compare with: the panel shows the run alone
  }
}

QualityPanel::QualityPanel(QWidget* parent)
    : QGroupBox(tr("Measurement quality"), parent), label_(new QLabel) {
  label_->setWordWrap(true);
  label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(label_);
  layout->addStretch();
  setRun(nullptr);
}

void QualityPanel::setRun(const RunResult* run, const QString& againstBaseline) {
  if (!run || run->stats.count == 0) {
    label_->setText(tr("How far the selected run's time can be trusted shows here."));
    return;
  }
  const MeasurementQuality quality = assessQuality(*run);
  QString html = "<table cellspacing='2'>";
  for (const auto& [label, text] : qualityRows(*run, quality))
    html += QString("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
                .arg(QString::fromStdString(label).toHtmlEscaped(),
                     QString::fromStdString(text).toHtmlEscaped());
  html += "</table>";
  if (quality.doubts.empty())
    html += "<p style='color:#2a7a2a'>" + tr("Nothing makes this figure doubtful.") + "</p>";
  for (const auto& doubt : quality.doubts)
    html += "<p style='color:#b35900'>" + tr("Doubtful: ") +
            QString::fromStdString(doubt).toHtmlEscaped() + "</p>";
  if (const auto traffic = checkTraffic(*run); traffic && !traffic->reading.empty())
    html +=
        "<p>" + tr("Traffic: ") + QString::fromStdString(traffic->reading).toHtmlEscaped() + "</p>";
  if (!againstBaseline.isEmpty()) html += "<p>" + againstBaseline.toHtmlEscaped() + "</p>";
  label_->setText(html);
}

QString QualityPanel::text() const {
  QTextDocument document;
  document.setHtml(label_->text());
  return document.toPlainText();
}

}  // namespace kwb
