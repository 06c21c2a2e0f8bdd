#pragma once

#include <QWidget>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/lesson.h"
#include "core/protocol.h"
#include "core/variantinfo.h"

class QComboBox;
class QLabel;

namespace kwb {

class SassPane;
class WorkerClient;

// Two variants' machine code side by side: on the left the selected variant with the
// configuration being edited, on the right another variant of its family (the naive one to start
// with) with the same values where it takes them. Asks the worker only while shown.
class SassView : public QWidget {
  Q_OBJECT

 public:
  explicit SassView(WorkerClient* worker, QWidget* parent = nullptr);

  void setCatalog(const std::vector<FamilyInfo>& families);
  // The variant being edited; a kernel file's text and path come with its family (the one it
  // implements, whose variants it is compared with) and name.
  void setSelection(const std::string& family, const std::string& variant, const RawParams& params,
                    const std::string& path = {}, const std::string& source = {});
  // The right-hand variant; false where the family has none of that name.
  bool setCompareVariant(const QString& variant);
  // A lesson's step on the left and its baseline on the right, each as the lesson sets it, until
  // the selection changes; without a baseline, the right side says so.
  void showLesson(const Lesson& lesson);
  SassPane* pane(int side) const { return sides_[static_cast<std::size_t>(side)].pane; }

 signals:
  // Both sides show what the worker answered.
  void settled();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  struct Side {
    SassPane* pane = nullptr;
    QString id;                             // the request awaited; empty once answered
    std::optional<protocol::Kernel> asked;  // what was last asked
  };
  const FamilyInfo* family() const;
  const VariantInfo* find(const std::string& family, const std::string& variant) const;
  void fillCompareChoices();
  void refresh();
  void answered(const QString& id);
  void request(Side& side, protocol::Kernel asked, const std::string& name);

  WorkerClient* worker_;
  std::vector<FamilyInfo> families_;
  std::string family_;
  std::string variant_;
  RawParams params_;
  std::string path_, source_;  // a kernel file's
  QLabel* left_;
  QComboBox* compare_;
  std::array<Side, 2> sides_;
  std::optional<Lesson> lesson_;
};

}  // namespace kwb
