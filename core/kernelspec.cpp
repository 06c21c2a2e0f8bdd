#include "core/kernelspec.h"

#include <toml++/toml.h>

#include <algorithm>
#include <set>

#include "core/error.h"
#include "core/validation.h"
#include "core/valueparse.h"

namespace kwb {
namespace {

// Reads the fields of one TOML table by type; every error names the file, the line, and the field
// with its path.
class Reader {
 public:
  Reader(const toml::table& table, std::string path, std::string_view file, int line)
      : table_(table), path_(std::move(path)), file_(file), line_(line) {}

  std::string path(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }
  int lineOf(std::string_view key) const {
    const toml::node* node = table_.get(key);
    return node ? static_cast<int>(node->source().begin.line) : line_;
  }
  [[noreturn]] void fail(std::string_view key, const std::string& what) const {
    throw Error(ErrorKind::Usage,
                std::string(file_) + ":" + std::to_string(lineOf(key)) + ": " +
                    (key.empty() ? path_ : path(key)) + ": " + what,
                key.empty() ? path_ : path(key));
  }
  // Refuses keys the format does not have: a misspelt key would otherwise be ignored.
  void only(std::initializer_list<std::string_view> keys) const {
    for (auto&& [key, node] : table_)
      if (std::find(keys.begin(), keys.end(), key.str()) == keys.end()) {
        std::string allowed;
        for (auto k : keys) allowed += (allowed.empty() ? "" : ", ") + std::string(k);
        fail(key.str(), "is not a key here; allowed: " + allowed);
      }
  }
  bool has(std::string_view key) const { return table_.contains(key); }

  std::string text(std::string_view key, std::optional<std::string> fallback = {}) const {
    const toml::node* node = table_.get(key);
    if (!node && fallback) return *fallback;
    if (!node || !node->is_string()) fail(key, node ? "must be text" : "is missing");
    return node->value<std::string>().value_or("");
  }
  // A number, or text for one ("2^20", "64Ki").
  std::int64_t integer(std::string_view key) const {
    const toml::node* node = table_.get(key);
    if (!node) fail(key, "is missing");
    if (node->is_integer()) return node->value<std::int64_t>().value_or(0);
    if (node->is_string())
      if (const auto v = parseInteger(node->value<std::string>().value_or(""))) return *v;
    fail(key, "must be a whole number (1024, \"2^20\", \"64Ki\")");
  }
  double number(std::string_view key) const {
    const toml::node* node = table_.get(key);
    if (!node || !(node->is_integer() || node->is_floating_point()))
      fail(key, node ? "must be a number" : "is missing");
    return node->value<double>().value_or(0);
  }
  // A scalar as text: what a default or a choice is written as.
  std::string scalar(const toml::node& node, std::string_view key) const {
    if (node.is_string()) return node.value<std::string>().value_or("");
    if (node.is_integer()) return std::to_string(node.value<std::int64_t>().value_or(0));
    fail(key, "must be text or a whole number");
  }
  std::vector<std::string> texts(std::string_view key) const {
    const toml::node* node = table_.get(key);
    if (!node) return {};
    const toml::array* array = node->as_array();
    if (!array) fail(key, "must be a list");
    std::vector<std::string> out;
    for (const toml::node& item : *array) out.push_back(scalar(item, key));
    return out;
  }
  SpecExpression expression(std::string_view key, const std::vector<std::string>& names) const {
    const toml::node* node = table_.get(key);
    if (!node) fail(key, "is missing");
    try {
      return SpecExpression(scalar(*node, key), names);
    } catch (const Error& e) {
      fail(key, e.what());
    }
  }
  Reader table(std::string_view key) const {
    const toml::node* node = table_.get(key);
    if (!node || !node->is_table()) fail(key, node ? "must be a table" : "is missing");
    return Reader(*node->as_table(), path(key), file_, lineOf(key));
  }
  const toml::table& raw() const { return table_; }
  int line() const { return line_; }

 private:
  const toml::table& table_;
  std::string path_;
  std::string_view file_;
  int line_;
};

template <typename E, std::size_t N>
E pick(const Reader& r, std::string_view key, const std::pair<std::string_view, E> (&names)[N],
       E fallback) {
  if (!r.has(key)) return fallback;
  const std::string value = r.text(key);
  std::string allowed;
  for (const auto& [name, e] : names) {
    if (name == value) return e;
    allowed += (allowed.empty() ? "" : ", ") + std::string(name);
  }
  r.fail(key, "'" + value + "' is not allowed; allowed: " + allowed);
}

constexpr std::pair<std::string_view, ParamBinding> kBindings[] = {
    {"template", ParamBinding::Template},
    {"define", ParamBinding::Define},
    {"argument", ParamBinding::Argument}};
constexpr std::pair<std::string_view, ParamRole> kRoles[] = {{"problem", ParamRole::Problem},
                                                             {"launch", ParamRole::Launch}};
constexpr std::pair<std::string_view, BufferRole> kBufferRoles[] = {
    {"in", BufferRole::In}, {"out", BufferRole::Out}, {"inout", BufferRole::InOut}};
constexpr std::pair<std::string_view, BufferFill> kFills[] = {{"uniform", BufferFill::Uniform},
                                                              {"normal", BufferFill::Normal},
                                                              {"zeros", BufferFill::Zeros},
                                                              {"iota", BufferFill::Iota}};

KernelParam readParam(const Reader& p, const std::string& name) {
  p.only({"kind", "min", "max", "multiple_of", "values", "max_length", "default", "role", "as",
          "unit", "meaning"});
  const ParamRole role = pick(p, "role", kRoles, ParamRole::Launch);
  const std::string unit = p.text("unit", std::string()), meaning = p.text("meaning", name);
  const std::string kind = p.text("kind", std::string("integer"));
  const std::string fallback = p.has("default") ? p.scalar(*p.raw().get("default"), "default") : "";
  KernelParam param;
  if (p.has("multiple_of") && p.integer("multiple_of") < 1)
    p.fail("multiple_of", "must be 1 or more");
  if (p.has("max_length") && p.integer("max_length") < 1) p.fail("max_length", "must be 1 or more");
  if (kind == "integer") {
    param.spec = integerParam(name, role, p.integer("min"), p.integer("max"), fallback, unit,
                              meaning, p.has("multiple_of") ? p.integer("multiple_of") : 1);
    if (param.spec.min > param.spec.max) p.fail("max", "is below min");
  } else if (kind == "choice") {
    const auto values = p.texts("values");
    if (values.empty()) p.fail("values", "a choice needs its values");
    param.spec = choiceParam(name, role, values, fallback.empty() ? values.front() : fallback, unit,
                             meaning);
  } else if (kind == "list") {
    param.spec =
        listParam(name, role, p.integer("min"), p.integer("max"),
                  static_cast<std::size_t>(p.integer("max_length")), fallback, unit, meaning);
  } else {
    p.fail("kind", "'" + kind + "' is not allowed; allowed: integer, choice, list");
  }
  if (param.spec.defaultValue.empty()) p.fail("default", "is missing");
  try {
    resolveParams({param.spec}, {});  // the default must be a value the parameter takes
  } catch (const Error& e) {
    p.fail("default", e.what());
  }
  param.binding = pick(p, "as", kBindings, ParamBinding::Argument);
  return param;
}

// "name<A, 8>": the template arguments between the outermost angle brackets.
std::vector<std::string> templateArgsOf(const std::string& kernel) {
  const auto open = kernel.find('<');
  if (open == std::string::npos) return {};
  const auto close = kernel.rfind('>');
  std::vector<std::string> args;
  std::string current;
  for (char c : kernel.substr(open + 1, close == std::string::npos ? 0 : close - open - 1)) {
    if (c == ',') {
      args.push_back(current);
      current.clear();
    } else if (c != ' ') {
      current += c;
    }
  }
  if (!current.empty()) args.push_back(current);
  return args;
}

// A [[launch]] or the [reference]: its kernel with template arguments that are numbers or template
// parameters, its geometry, and arguments that are buffers or expressions. `fallback` gives what
// the table leaves out (the reference takes the first launch's geometry and arguments).
KernelLaunchSpec readLaunch(const Reader& l, const KernelSpec& spec,
                            const std::set<std::string>& buffers,
                            const std::vector<std::string>& names,
                            const KernelLaunchSpec* fallback = nullptr) {
  const auto expression = [&](std::string_view key, const SpecExpression* otherwise) {
    return !l.has(key) && otherwise ? *otherwise : l.expression(key, names);
  };
  KernelLaunchSpec launch{l.text("kernel"),
                          {},
                          expression("grid", fallback ? &fallback->grid : nullptr),
                          expression("block", fallback ? &fallback->block : nullptr),
                          std::nullopt,
                          {},
                          l.path("kernel"),
                          l.lineOf("kernel")};
  if (l.has("shared_bytes"))
    launch.sharedBytes = l.expression("shared_bytes", names);
  else if (fallback)
    launch.sharedBytes = fallback->sharedBytes;
  launch.templateArgs = templateArgsOf(launch.kernel);
  for (const auto& arg : launch.templateArgs) {
    const auto p = std::find_if(spec.params.begin(), spec.params.end(),
                                [&](const KernelParam& k) { return k.spec.name == arg; });
    const bool number = parseInteger(arg).has_value();
    if (!number && (p == spec.params.end() || p->binding != ParamBinding::Template))
      l.fail("kernel", "template argument '" + arg +
                           "' is neither a number nor a parameter given as = \"template\"");
  }
  if (!l.has("args") && fallback) {
    launch.args = fallback->args;
    return launch;
  }
  for (const auto& text : l.texts("args")) {
    if (buffers.contains(text)) {
      launch.args.push_back({text, std::nullopt});
      continue;
    }
    try {
      launch.args.push_back({text, SpecExpression(text, names)});
    } catch (const Error& e) {
      l.fail("args",
             "'" + text + "' is neither a buffer nor an expression of the parameters: " + e.what());
    }
  }
  return launch;
}

}  // namespace

VariantInfo variantInfoOf(const KernelSpec& spec, const std::string& path) {
  VariantInfo info{spec.implements.empty() ? "user" : spec.implements,
                   spec.name,
                   spec.summary.empty() ? "from " + path : spec.summary,
                   spec.teaches,
                   spec.paramSpecs(),
                   {}};
  const auto problem = std::find_if(info.params.begin(), info.params.end(), [](const auto& p) {
    return p.role == ParamRole::Problem && p.kind == ParamKind::Integer;
  });
  if (problem != info.params.end()) info.sizeParam = problem->name;
  return info;
}

std::vector<ParamSpec> KernelSpec::paramSpecs() const {
  std::vector<ParamSpec> out;
  for (const auto& p : params) out.push_back(p.spec);
  return out;
}

const KernelParam* paramOf(const KernelSpec& spec, std::string_view name) {
  for (const auto& p : spec.params) {
    const std::string& own = p.spec.name;
    if (name == own) return &p;
    if (p.spec.kind == ParamKind::List && name.size() > own.size() + 1 && name.starts_with(own) &&
        name[own.size()] == '_' &&
        name.find_first_not_of("0123456789", own.size() + 1) == std::string_view::npos)
      return &p;
  }
  return nullptr;
}

std::map<std::string, double> expressionValues(const KernelSpec& spec, const ParamSet& params,
                                               const DeviceInfo* device) {
  std::map<std::string, double> values;
  for (const auto& p : spec.params) {
    if (!params.has(p.spec.name)) continue;
    const std::string& value = params.get(p.spec.name);
    if (p.spec.kind == ParamKind::List) {
      const auto items = listItems(value);
      for (std::size_t i = 0; i < p.spec.maxLength; ++i)
        values[p.spec.name + "_" + std::to_string(i)] =
            i < items.size() ? static_cast<double>(items[i]) : 1.0;
    } else if (const auto number = parseInteger(value)) {
      values[p.spec.name] = static_cast<double>(*number);
    }
  }
  if (device) {
    values["sm_count"] = device->smCount;
    values["max_threads_per_sm"] = device->maxThreadsPerSm;
    values["max_threads_per_block"] = device->maxThreadsPerBlock;
    values["l2_bytes"] = static_cast<double>(device->l2Bytes);
  }
  return values;
}

void checkRestrictions(const KernelSpec& spec, const ParamSet& params, const DeviceInfo* device) {
  const auto values = expressionValues(spec, params, device);
  for (const auto& restriction : spec.restrictions) {
    const auto& uses = restriction.uses();
    const bool ready = std::all_of(uses.begin(), uses.end(),
                                   [&](const std::string& n) { return values.contains(n); });
    if (!ready || restriction.evaluate(values) != 0) continue;
    std::string given;
    std::string first;
    for (const auto& name : uses) {
      const KernelParam* p = paramOf(spec, name);
      if (!p) continue;
      if (first.empty()) first = p->spec.name;
      if (given.find(p->spec.name + "=") == std::string::npos)
        given += (given.empty() ? "" : ", ") + p->spec.name + "=" + params.get(p->spec.name);
    }
    throw paramError(first.empty() ? "restrictions" : first,
                     "the restriction '" + restriction.text() + "' does not hold for " +
                         (given.empty() ? "this device" : given));
  }
}

const std::vector<std::string>& deviceNames() {
  static const std::vector<std::string> names = {"sm_count", "max_threads_per_sm",
                                                 "max_threads_per_block", "l2_bytes"};
  return names;
}

std::string specText(std::string_view source, std::string_view file) {
  const std::size_t start = source.find_first_not_of(" \t\r\n");
  constexpr std::string_view kOpen = "/* kwb";
  if (start == std::string_view::npos || source.substr(start, kOpen.size()) != kOpen)
    throw Error(ErrorKind::Usage, std::string(file) +
                                      ":1: a kernel file starts with its spec in a `/* kwb ... */` "
                                      "comment");
  const std::size_t end = source.find("*/", start);
  if (end == std::string_view::npos)
    throw Error(ErrorKind::Usage, std::string(file) + ":1: the spec's comment is never closed");
  // The spec keeps its lines where they are in the file, so that errors name the file's lines.
  const std::size_t lines = static_cast<std::size_t>(
      std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(start), '\n'));
  return std::string(lines, '\n') +
         std::string(source.substr(start + kOpen.size(), end - start - kOpen.size()));
}

KernelSpec parseKernelSpec(std::string_view toml, std::string_view file) {
  toml::table document;
  try {
    document = toml::parse(toml, file);
  } catch (const toml::parse_error& e) {
    throw Error(ErrorKind::Usage, std::string(file) + ":" + std::to_string(e.source().begin.line) +
                                      ": " + std::string(e.description()));
  }
  const Reader top(document, "", file, 1);
  top.only({"name", "summary", "teaches", "params", "buffers", "launch", "bytes", "flops",
            "restrictions", "implements", "reference", "verification"});
  KernelSpec spec;
  spec.name = top.text("name");
  spec.summary = top.text("summary", std::string());
  spec.teaches = top.text("teaches", std::string());

  std::vector<std::string> names;  // what expressions may use: the parameters, then the device's
  if (top.has("params")) {
    const Reader params = top.table("params");
    // In the order the file gives them (a TOML table keeps its keys sorted).
    std::vector<std::pair<int, std::string>> order;
    for (auto&& [key, node] : params.raw()) {
      if (!node.is_table()) params.fail(key.str(), "must be a table of the parameter's fields");
      order.emplace_back(params.lineOf(key.str()), std::string(key.str()));
    }
    std::sort(order.begin(), order.end());
    for (const auto& [line, name] : order) {
      spec.params.push_back(readParam(params.table(name), name));
      const ParamSpec& added = spec.params.back().spec;
      if (added.kind == ParamKind::List)
        for (std::size_t i = 0; i < added.maxLength; ++i)
          names.push_back(name + "_" + std::to_string(i));
      else
        names.push_back(name);
    }
  }
  names.insert(names.end(), deviceNames().begin(), deviceNames().end());

  const auto tables = [&](std::string_view key) {
    std::vector<Reader> out;
    const toml::node* node = document.get(key);
    if (!node) return out;
    const toml::array* array = node->as_array();
    if (!array || !array->is_array_of_tables())
      top.fail(key, "must be a list of tables ([[" + std::string(key) + "]])");
    for (std::size_t i = 0; i < array->size(); ++i)
      out.emplace_back(*array->get(i)->as_table(), std::string(key) + "[" + std::to_string(i) + "]",
                       file, static_cast<int>(array->get(i)->source().begin.line));
    return out;
  };

  std::set<std::string> buffers;
  for (const Reader& b : tables("buffers")) {
    b.only({"name", "dtype", "count", "role", "fill"});
    const std::string dtype = b.text("dtype", std::string("f32"));
    const auto type = parseDType(dtype);
    if (!type)
      b.fail("dtype", "'" + dtype + "' is not allowed; allowed: f32, f16, bf16, f64, u8, i32");
    spec.buffers.push_back(
        {b.text("name"), *type, b.expression("count", names),
         pick(b, "role", kBufferRoles, BufferRole::In),
         pick(b, "fill", kFills, BufferFill::Uniform),
         std::string(file) + ":" + std::to_string(b.lineOf("count")) + ": " + b.path("count")});
    // A size that names nothing is known now: a negative one is a mistake of the file.
    const SpecExpression& count = spec.buffers.back().count;
    if (count.uses().empty() && count.evaluate({}) < 0)
      b.fail("count", "'" + count.text() + "' is negative: a buffer holds 0 elements or more");
    if (!buffers.insert(spec.buffers.back().name).second) b.fail("name", "names a buffer twice");
  }
  if (spec.buffers.empty()) top.fail("buffers", "a kernel needs at least one buffer ([[buffers]])");

  for (const Reader& l : tables("launch")) {
    l.only({"kernel", "grid", "block", "shared_bytes", "args"});
    spec.launches.push_back(readLaunch(l, spec, buffers, names));
  }
  if (spec.launches.empty()) top.fail("launch", "a kernel needs at least one launch ([[launch]])");
  for (const auto& p : spec.params) {
    if (p.binding != ParamBinding::Template) continue;
    const bool passed = std::any_of(spec.launches.begin(), spec.launches.end(), [&](auto& l) {
      return std::find(l.templateArgs.begin(), l.templateArgs.end(), p.spec.name) !=
             l.templateArgs.end();
    });
    if (!passed)
      top.table("params")
          .table(p.spec.name)
          .fail("as", "a template parameter no launch passes: name it in a kernel's <...>");
  }

  if (top.has("bytes")) spec.bytes = top.expression("bytes", names);
  if (top.has("flops")) spec.flops = top.expression("flops", names);
  if (top.has("restrictions")) {
    const toml::array* list = document.get("restrictions")->as_array();
    if (!list) top.fail("restrictions", "must be a list of expressions");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string text = top.scalar(*list->get(i), "restrictions");
      try {
        spec.restrictions.emplace_back(text, names);
      } catch (const Error& e) {
        top.fail("restrictions", "item " + std::to_string(i + 1) + ": " + e.what());
      }
    }
  }

  const int checks =
      int{top.has("implements")} + int{top.has("reference")} + int{top.has("verification")};
  if (checks != 1)
    top.fail("implements",
             "say how results are checked, once: implements = \"FAMILY\", a "
             "[reference] kernel with its tolerance, or verification = \"none\"");
  if (top.has("implements")) {
    const std::string implements = top.text("implements");
    const auto slash = implements.find('/');
    spec.implements = implements.substr(0, slash);
    if (slash != std::string::npos) spec.implementsVariant = implements.substr(slash + 1);
    if (spec.implements.empty() || (slash != std::string::npos && spec.implementsVariant.empty()))
      top.fail("implements", "must name a built-in family, or FAMILY/VARIANT");
  }
  if (top.has("reference")) {
    const Reader r = top.table("reference");
    r.only({"kernel", "tolerance", "grid", "block", "shared_bytes", "args"});
    spec.reference = readLaunch(r, spec, buffers, names, &spec.launches.front());
    spec.tolerance = r.number("tolerance");
    if (!(spec.tolerance > 0)) r.fail("tolerance", "must be above 0");
  }
  if (top.has("verification")) {
    if (top.text("verification") != "none")
      top.fail("verification", "'" + top.text("verification") + "' is not allowed; allowed: none");
    spec.unchecked = true;
  }
  return spec;
}

}  // namespace kwb
