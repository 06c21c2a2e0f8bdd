#pragma once

#include <QWidget>

#include <map>
#include <vector>

#include "core/paramspec.h"
#include "core/validation.h"

class QFormLayout;
class QLabel;

namespace kwb {

// An editor for one role's parameters (problem or launch), generated from the registry's specs:
// integers take the CLI's notations (2^20, 1Mi, auto where allowed), choices are a list. Each
// value is checked as it is typed, and a rejected one is explained under its field.
class ParamEditor : public QWidget {
  Q_OBJECT

 public:
  explicit ParamEditor(QWidget* parent = nullptr);

  void setSpecs(std::vector<ParamSpec> specs);
  // The values the user set (defaults are left out, so the worker applies its own).
  RawParams values() const;
  void setValue(const std::string& name, const QString& value);
  bool isValid() const;
  // Shows a message from elsewhere (the worker's cross-parameter checks) under a field; false
  // when no field here has that name.
  bool showError(const QString& param, const QString& message);

 signals:
  void valuesChanged();

 private:
  struct Field {
    ParamSpec spec;
    QWidget* input = nullptr;
    QLabel* error = nullptr;
  };
  QString text(const Field& field) const;
  void check(Field& field);

  QFormLayout* form_;
  std::vector<Field> fields_;
};

}  // namespace kwb
