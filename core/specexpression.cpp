#include "core/specexpression.h"

#include <muParser.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "core/error.h"

namespace kwb {
namespace {

double ceilDiv(double a, double b) {
  return std::ceil(a / b);
}
double modulo(double a, double b) {
  return std::fmod(a, b);
}
double negate(double a) {
  return a == 0 ? 1 : 0;
}

// A parser for the expression with every name bound to a slot of `slots`.
std::unique_ptr<mu::Parser> parserFor(const std::string& text,
                                      const std::vector<std::string>& names,
                                      std::vector<double>& slots) {
  auto parser = std::make_unique<mu::Parser>();
  parser->DefineFun("ceil_div", ceilDiv);
  parser->DefineOprt("%", modulo, mu::prMUL_DIV);
  parser->DefineInfixOprt("!", negate);
  slots.assign(names.size(), 1.0);
  for (std::size_t i = 0; i < names.size(); ++i) parser->DefineVar(names[i], &slots[i]);
  parser->SetExpr(text);
  return parser;
}

}  // namespace

SpecExpression::SpecExpression(std::string text, const std::vector<std::string>& names)
    : text_(std::move(text)) {
  if (text_.find_first_not_of(" \t") == std::string::npos)
    throw Error(ErrorKind::Usage, "an empty expression");
  std::vector<double> slots;
  try {
    auto parser = parserFor(text_, names, slots);
    const mu::varmap_type used = parser->GetUsedVar();  // parses; collects unknown names too
    for (const auto& [name, slot] : used)
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        std::string known;
        for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
        throw Error(ErrorKind::Usage, "'" + text_ + "' names " + name +
                                          ", which is not a parameter" +
                                          (known.empty() ? "" : "; known: " + known));
      }
    for (const auto& name : names)
      if (used.contains(name)) uses_.push_back(name);
  } catch (const mu::Parser::exception_type& e) {
    throw Error(ErrorKind::Usage, "'" + text_ + "' does not parse: " + e.GetMsg());
  }
}

double SpecExpression::evaluate(const std::map<std::string, double>& values) const {
  std::vector<double> slots;
  double result = 0;
  try {
    auto parser = parserFor(text_, uses_, slots);
    for (std::size_t i = 0; i < uses_.size(); ++i) {
      const auto it = values.find(uses_[i]);
      if (it == values.end())
        throw Error(ErrorKind::Usage, "'" + text_ + "' needs " + uses_[i] + ", which has no value");
      slots[i] = it->second;
    }
    result = parser->Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw Error(ErrorKind::Usage, "'" + text_ + "' cannot be evaluated: " + e.GetMsg());
  }
  if (!std::isfinite(result))
    throw Error(ErrorKind::Usage, "'" + text_ + "' is not a finite number here");
  return result;
}

}  // namespace kwb
