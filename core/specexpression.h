#pragma once

#include <map>
#include <string>
#include <vector>

namespace kwb {

// An arithmetic expression of a kernel file's spec: a buffer's size, a grid, the bytes a call
// moves, a restriction. Numbers, the names it is given, + - * / % ^, comparisons, && || !,
// min(a, b), max(a, b), ceil_div(a, b); evaluated by muParser in double precision, exact for
// the integers sizes and grids reach (below 2^53).
class SpecExpression {
 public:
  // Throws Error(Usage) saying what does not parse, or which name is unknown; `names` are the
  // names the expression may use.
  SpecExpression(std::string text, const std::vector<std::string>& names);

  const std::string& text() const { return text_; }
  // The names the expression uses, in the order of `names`.
  const std::vector<std::string>& uses() const { return uses_; }
  // Throws Error(Usage) where a name it uses has no value, or the result is not finite.
  double evaluate(const std::map<std::string, double>& values) const;

 private:
  std::string text_;
  std::vector<std::string> uses_;
};

}  // namespace kwb
