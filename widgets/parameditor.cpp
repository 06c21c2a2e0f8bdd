#include "widgets/parameditor.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

#include "core/error.h"

namespace kwb {

ParamEditor::ParamEditor(QWidget* parent) : QWidget(parent), form_(new QFormLayout(this)) {
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

void ParamEditor::setSpecs(std::vector<ParamSpec> specs) {
  while (form_->rowCount() > 0) form_->removeRow(0);
  fields_.clear();
  fields_.reserve(specs.size());
  for (auto& spec : specs) {
    Field field{std::move(spec)};
    const QString tip =
        QString::fromStdString(field.spec.meaning + " (" + field.spec.allowedText() + ")");
    if (field.spec.kind == ParamKind::Choice) {
      auto* combo = new QComboBox(this);
      for (const auto& choice : field.spec.choices) combo->addItem(QString::fromStdString(choice));
      if (field.spec.allowsAuto) combo->addItem("auto");
      combo->setCurrentText(QString::fromStdString(field.spec.defaultValue));
      connect(combo, &QComboBox::currentTextChanged, this, &ParamEditor::valuesChanged);
      field.input = combo;
    } else {
      auto* edit = new QLineEdit(this);
      edit->setPlaceholderText(QString::fromStdString(field.spec.defaultValue));
      edit->setClearButtonEnabled(true);
      field.input = edit;
    }
    field.input->setToolTip(tip);
    field.input->setObjectName(QString::fromStdString(field.spec.name));
    field.error = new QLabel(this);
    field.error->setStyleSheet("color: #b41e1e");
    field.error->setWordWrap(true);
    QString label = QString::fromStdString(field.spec.name);
    if (!field.spec.unit.empty()) label += " [" + QString::fromStdString(field.spec.unit) + "]";
    form_->addRow(label, field.input);
    // The explanation spans the form's width under its field, shown only while there is one.
    form_->addRow(field.error);
    form_->setRowVisible(field.error, false);
    fields_.push_back(std::move(field));
  }
  // Connections after the vector is final: the lambdas hold indices, not pointers into it.
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    if (auto* edit = qobject_cast<QLineEdit*>(fields_[i].input))
      connect(edit, &QLineEdit::textChanged, this, [this, i] {
        check(fields_[i]);
        emit valuesChanged();
      });
  }
}

QString ParamEditor::text(const Field& field) const {
  if (auto* combo = qobject_cast<QComboBox*>(field.input)) return combo->currentText();
  return static_cast<QLineEdit*>(field.input)->text().trimmed();
}

void ParamEditor::check(Field& field) {
  const QString value = text(field);
  QString message;
  if (!value.isEmpty()) {
    try {
      canonicalValue(field.spec, value.toStdString());
    } catch (const Error& e) {
      message = QString::fromStdString(e.what());
    }
  }
  field.error->setText(message);
  form_->setRowVisible(field.error, !message.isEmpty());
}

RawParams ParamEditor::values() const {
  RawParams values;
  for (const auto& field : fields_) {
    const QString value = text(field);
    if (!value.isEmpty() && value.toStdString() != field.spec.defaultValue)
      values[field.spec.name] = value.toStdString();
  }
  return values;
}

void ParamEditor::setValue(const std::string& name, const QString& value) {
  for (auto& field : fields_) {
    if (field.spec.name != name) continue;
    if (auto* combo = qobject_cast<QComboBox*>(field.input))
      combo->setCurrentText(value);
    else
      static_cast<QLineEdit*>(field.input)->setText(value);
  }
}

bool ParamEditor::isValid() const {
  for (const auto& field : fields_)
    if (!field.error->text().isEmpty()) return false;
  return true;
}

bool ParamEditor::showError(const QString& param, const QString& message) {
  for (auto& field : fields_) {
    if (QString::fromStdString(field.spec.name) != param) continue;
    field.error->setText(message);
    form_->setRowVisible(field.error, true);
    return true;
  }
  return false;
}

}  // namespace kwb
