#include "widgets/sassview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "widgets/sasshighlighter.h"
#include "widgets/sasspane.h"
#include "widgets/workerclient.h"

namespace kwb {
namespace {

QString legend() {
  QStringList items;
  for (SassClass kind : kNotableSassClasses)
    items << QString("<span style='color:%1'>■</span> %2")
                 .arg(sassClassColor(kind).name(),
                      QString::fromStdString(std::string(describe(kind))));
  return items.join(" &nbsp; ");
}

}  // namespace

SassView::SassView(WorkerClient* worker, QWidget* parent)
    : QWidget(parent), worker_(worker), left_(new QLabel(this)), compare_(new QComboBox(this)) {
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  for (std::size_t i = 0; i < sides_.size(); ++i) {
    auto* column = new QWidget(splitter);
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    if (i == 0) {
      left_->setMinimumHeight(compare_->sizeHint().height());  // both panes start level
      layout->addWidget(left_);
    } else {
      auto* row = new QHBoxLayout;
      row->addWidget(new QLabel(tr("Compare with"), column));
      row->addWidget(compare_, 1);
      layout->addLayout(row);
    }
    sides_[i].pane = new SassPane(column);
    layout->addWidget(sides_[i].pane, 1);
    splitter->addWidget(column);
  }
  auto* key = new QLabel(legend(), this);
  key->setTextFormat(Qt::RichText);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(key);
  layout->addWidget(splitter, 1);

  connect(compare_, &QComboBox::currentIndexChanged, this, [this] {
    lesson_.reset();
    refresh();
  });
  connect(worker_, &WorkerClient::sassReceived, this,
          [this](const QString& id, const SassReport& report) {
            for (auto& side : sides_)
              if (side.id == id) side.pane->showReport(report);
            answered(id);
          });
  connect(worker_, &WorkerClient::jobError, this,
          [this](const QString& id, const QString&, const QString& message, const QString&) {
            for (auto& side : sides_)
              if (side.id == id) side.pane->showMessage(message);
            answered(id);
          });
  connect(worker_, &WorkerClient::workerLost, this,
          [this](const QString& id, const QString& sentence) {
            for (auto& side : sides_) {
              if (side.id != id) continue;
              side.pane->showMessage(sentence);
              side.asked.reset();  // ask again once shown again
            }
            answered(id);
          });
  setSelection({}, {}, {});
}

void SassView::setCatalog(const std::vector<FamilyInfo>& families) {
  families_ = families;
  fillCompareChoices();
}

void SassView::setSelection(const std::string& family, const std::string& variant,
                            const RawParams& params, const std::string& path,
                            const std::string& source) {
  if (family == family_ && variant == variant_ && params == params_ && path == path_ &&
      source == source_)
    return;
  path_ = path;
  source_ = source;
  lesson_.reset();
  const bool familyChanged = family != family_;
  family_ = family;
  variant_ = variant;
  params_ = params;
  if (familyChanged || compare_->currentIndex() < 0) fillCompareChoices();
  refresh();
}

bool SassView::setCompareVariant(const QString& variant) {
  const int index = compare_->findData(variant);
  if (index < 0) return false;
  compare_->setCurrentIndex(index);
  return true;
}

void SassView::showLesson(const Lesson& lesson) {
  lesson_ = lesson;
  compare_->blockSignals(true);
  compare_->setCurrentIndex(-1);
  compare_->setPlaceholderText(lesson.baseline
                                   ? tr("the baseline, %1")
                                         .arg(QString::fromStdString(lesson.baseline->family + "/" +
                                                                     lesson.baseline->variant))
                                   : tr("no baseline"));
  compare_->blockSignals(false);
  refresh();
}

const VariantInfo* SassView::find(const std::string& family, const std::string& variant) const {
  for (const auto& f : families_)
    if (f.name == family)
      for (const auto& v : f.variants)
        if (v.name == variant) return &v;
  return nullptr;
}

const FamilyInfo* SassView::family() const {
  for (const auto& f : families_)
    if (f.name == family_) return &f;
  return nullptr;
}

// The family's variants; the first (the naive one) is the one to compare with, or the second
// where the first is the one selected.
void SassView::fillCompareChoices() {
  compare_->blockSignals(true);
  compare_->clear();
  if (const FamilyInfo* f = family()) {
    for (const auto& v : f->variants) {
      const QString name = QString::fromStdString(v.name);
      compare_->addItem(name, name);
    }
    if (!f->variants.empty() && f->variants.front().name == variant_ && f->variants.size() > 1)
      compare_->setCurrentIndex(1);
  }
  compare_->blockSignals(false);
}

void SassView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  refresh();
}

void SassView::refresh() {
  if (!isVisible()) return;
  if (lesson_) {
    std::array<const LessonRun*, 2> runs{&lesson_->run,
                                         lesson_->baseline ? &*lesson_->baseline : nullptr};
    left_->setText(tr("Lesson <b>%1</b>: the step, against its baseline")
                       .arg(QString::fromStdString(lesson_->title)));
    if (!runs[1]) {
      sides_[1].pane->showMessage(tr("This lesson has no baseline: its time is the measure."));
      sides_[1].asked.reset();
      sides_[1].id.clear();
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (!runs[i]) continue;
      if (!find(runs[i]->family, runs[i]->variant)) continue;
      request(sides_[i], {runs[i]->family, runs[i]->variant, runs[i]->params}, runs[i]->variant);
    }
    return;
  }
  left_->setText(
      variant_.empty()
          ? tr("Pick a variant to read its machine code.")
          : tr("<b>%1</b> as configured").arg(QString::fromStdString(family_ + "/" + variant_)));
  const FamilyInfo* f = family();
  if (!path_.empty()) {
    request(sides_[0], {{}, {}, params_, path_, source_}, variant_);
    if (!f) {
      sides_[1].pane->showMessage(
          tr("This kernel file implements no built-in family: nothing to "
             "compare it with."));
      sides_[1].asked.reset();
      sides_[1].id.clear();
    }
  }
  if (!f || variant_.empty()) {
    if (!path_.empty()) return;
    for (auto& side : sides_) {
      side.pane->showMessage({});
      side.asked.reset();
      side.id.clear();
    }
    return;
  }
  const QString other = compare_->currentData().toString();
  for (const auto& v : f->variants) {
    if (v.name == variant_ && path_.empty())
      request(sides_[0], {v.family, v.name, params_}, v.name);
    if (QString::fromStdString(v.name) == other) {
      // The values the selected configuration shares with this variant; its own defaults else.
      RawParams shared;
      for (const auto& spec : v.params)
        if (const auto it = params_.find(spec.name); it != params_.end())
          shared[spec.name] = it->second;
      request(sides_[1], {v.family, v.name, shared}, v.name);
    }
  }
}

void SassView::answered(const QString& id) {
  bool mine = false;
  for (auto& side : sides_) {
    if (side.id != id || id.isEmpty()) continue;
    side.id.clear();
    mine = true;
  }
  if (mine && sides_[0].id.isEmpty() && sides_[1].id.isEmpty()) emit settled();
}

void SassView::request(Side& side, protocol::Kernel asked, const std::string& name) {
  if (side.asked && side.asked->variant == asked.variant && side.asked->params == asked.params &&
      side.asked->source == asked.source)
    return;
  side.asked = asked;
  side.pane->showMessage(tr("Reading the machine code of %1: one call runs on the GPU to learn "
                            "which kernels it launches...")
                             .arg(QString::fromStdString(name)));
  side.id = worker_->requestSass(std::move(asked));
}

}  // namespace kwb
